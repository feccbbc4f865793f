"""Playing Coexist in a terminal: a person against bots, and replays.

- `render`: the public position drawn as text (from an Observation only, so
  the draw pile's order can never be shown);
- `style`: colour when the terminal supports it, plain text otherwise;
- `gamefile`: game records (the format of coexist_ai/match.py) saved,
  loaded and replayed into positions;
- `moveinput`: what a person types, turned into a legal move or a command;
- `session`: the interactive game; `replay`: stepping through a record.
"""
from coexist_ai.play.render import render_final, render_position
from coexist_ai.play.style import Style, detect_style

__all__ = ["Style", "detect_style", "render_final", "render_position"]
