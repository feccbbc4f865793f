"""Colour for terminals that take it, plain text for everything else.

Colour is used only when stdout is a terminal, NO_COLOR is unset or empty
(https://no-color.org) and TERM is not "dumb"; `--color always|never`
overrides the detection.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import TextIO

_SGR = {
    "bold": "1", "dim": "2", "under": "4",
    "red": "31", "green": "32", "yellow": "33", "blue": "34", "magenta": "35",
    "cyan": "36", "white": "37", "grey": "90",
}
# tokens: the tiers C < F < P < H, and Survival
TOKEN_COLOURS = {"C": "green", "F": "blue", "P": "yellow", "H": "magenta", "S": "red"}
SEAT_COLOURS = ("cyan", "yellow", "magenta", "green")


class Style:
    """Wraps text in ANSI colour codes, or leaves it as it is (`colour`
    False). Every method returns a str."""

    def __init__(self, colour: object) -> None:
        self.colour = bool(colour)

    def paint(self, text: object, *names: str) -> str:
        if not self.colour or not names:
            return str(text)
        codes = ";".join(_SGR[n] for n in names)
        return f"\x1b[{codes}m{text}\x1b[0m"

    def bold(self, text: object) -> str:
        return self.paint(text, "bold")

    def dim(self, text: object) -> str:
        return self.paint(text, "dim")

    def token(self, colour: str, text: object = None) -> str:
        """Text (default: the letter) in the colour of a token kind."""
        return self.paint(colour if text is None else text, TOKEN_COLOURS[colour], "bold")

    def seat(self, seat: int, text: object) -> str:
        return self.paint(text, SEAT_COLOURS[seat % len(SEAT_COLOURS)], "bold")

    def error(self, text: object) -> str:
        return self.paint(text, "red", "bold")

    def clear_screen(self) -> str:
        """Home the cursor and clear the screen (only with colour: a plain
        stream gets no control codes at all)."""
        return "\x1b[H\x1b[2J" if self.colour else ""


def wants_colour(stream: TextIO | None = None, environ: Mapping[str, str] | None = None) -> bool:
    """Auto-detection: a terminal, NO_COLOR unset or empty, TERM not dumb."""
    stream = sys.stdout if stream is None else stream
    environ = os.environ if environ is None else environ
    if environ.get("NO_COLOR"):
        return False
    if environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def detect_style(mode: str = "auto", stream: TextIO | None = None,
                 environ: Mapping[str, str] | None = None) -> Style:
    """A Style for `--color auto|always|never`."""
    if mode == "always":
        return Style(True)
    if mode == "never":
        return Style(False)
    return Style(wants_colour(stream, environ))
