"""coexist-ai: AI opponents and a tournament harness for the card game Coexist."""
