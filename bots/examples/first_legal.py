#!/usr/bin/env python3
"""The smallest complete Coexist protocol bot: it plays the first legal move.

Standard library only. Run it under a frontend, e.g.
    coexist-ai duel "cmd:python3 bots/examples/first_legal.py" random
"""
import json
import sys

for line in sys.stdin:
    if not line.strip():
        continue
    try:
        msg = json.loads(line)
        kind, reply = msg.get("type"), {"id": msg.get("id")}
    except (ValueError, AttributeError):
        kind, reply = "unreadable", {"id": None}
    if kind == "hello":
        reply.update(type="hello", protocol=1, name="first-legal",
                     author="coexist-ai examples", options=[])
    elif kind == "newgame":
        reply.update(type="ok")
    elif kind == "move":
        reply.update(type="move", move=msg["legal"][0])
    elif kind == "ping":
        reply.update(type="pong")
    elif kind == "quit":
        break
    else:   # setoption too: this bot has no options
        reply.update(type="error", message=f"cannot do {kind!r}")
    print(json.dumps(reply), flush=True)
