"""The terminal: lines read with editing and history, the screen written
and its rows counted.

On a terminal the prompt has line editing, history (up and down arrows)
and Tab completion of the legal moves, through the standard library's
readline where Python has it; elsewhere (no readline, or input from a pipe
or file) lines are read as they come. The console counts the rows written
since the last screen, so that the game can redraw the screen rather than
let its header scroll away.
"""
from __future__ import annotations

import shutil
import sys
from collections.abc import Iterable
from types import ModuleType
from typing import TextIO

from coexist_ai.play.style import Style
from coexist_ai.play.wrap import fold


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _line_editing() -> ModuleType | None:
    """readline set up for the prompt, or None (plain input)."""
    try:
        import readline
    except ImportError:
        return None
    if "libedit" in (readline.__doc__ or ""):
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        # no bracketed-paste codes around each prompt (they would be the
        # only control codes of a game played without colour)
        readline.parse_and_bind("set enable-bracketed-paste off")
        readline.parse_and_bind("tab: complete")
    readline.set_completer_delims(" \t")
    return readline


class Console:
    """Reads the person's lines and writes the screen (stdin/stdout)."""

    def __init__(self, style: Style, clear: bool = True, stdin: TextIO | None = None,
                 stdout: TextIO | None = None) -> None:
        self.style = style
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.clear = clear and style.colour
        self.interactive = _isatty(self.stdin) and _isatty(self.stdout)
        own = self.stdin is sys.stdin and self.stdout is sys.stdout
        self.readline = _line_editing() if self.interactive and own else None
        self._status_width = 0
        self.used = 0            # rows written since the last screen
        self._words: list[list[str]] = []   # what Tab completes: the moves' words

    # -- size ---------------------------------------------------------------------
    @property
    def width(self) -> int:
        return shutil.get_terminal_size().columns

    @property
    def height(self) -> int | None:
        """Rows of the terminal; None when output is no terminal (no limit)."""
        return shutil.get_terminal_size().lines if self.interactive else None

    def rows_left(self) -> int | None:
        return None if self.height is None else self.height - self.used

    def _fit(self, text: str) -> str:
        """Folded to the terminal's width (on a terminal; a pipe or file
        gets whole lines, which programs read more easily)."""
        if not self.interactive:
            return text
        return fold(text, self.width)

    # -- writing --------------------------------------------------------------------
    def write(self, text: str = "") -> None:
        text = self._fit(text)
        self.stdout.write(text + "\n")
        self.stdout.flush()
        self.used += text.count("\n") + 1

    def status(self, text: str) -> None:
        """A line that the next status or write replaces (terminals only;
        plain spaces blank it, no control codes)."""
        if self.interactive:
            self.stdout.write("\r" + text.ljust(self._status_width))
            self.stdout.flush()
            self._status_width = len(text)

    def end_status(self) -> None:
        if self.interactive and self._status_width:
            self.stdout.write("\r" + " " * self._status_width + "\r")
            self.stdout.flush()
            self._status_width = 0

    def screen(self, text: str) -> None:
        """A new screen: cleared first where the console clears."""
        text = self._fit(text)
        self.stdout.write((self.style.clear_screen() if self.clear else "") + text + "\n")
        self.stdout.flush()
        self.used = text.count("\n") + 1

    # -- reading ----------------------------------------------------------------------
    def complete_with(self, moves: Iterable[Iterable[str]], commands: Iterable[str]) -> None:
        """What Tab offers at the next prompts: the words of these moves
        (each a list of words) and the commands."""
        self._words = [list(m) for m in moves] + [[c] for c in commands]
        if self.readline is not None:
            self.readline.set_completer(self._complete)

    def _complete(self, text: str, state: int) -> str | None:
        assert self.readline is not None   # set as the completer only with readline
        before = self.readline.get_line_buffer()[:self.readline.get_begidx()].lower().split()
        found = sorted({words[len(before)] for words in self._words
                        if len(words) > len(before)
                        and all(w.lower().startswith(b) for b, w in zip(before, words))
                        and words[len(before)].lower().startswith(text.lower())})
        return found[state] + " " if state < len(found) else None

    def read(self, prompt: str) -> str:
        """A line from the person; EOFError at end of input."""
        self.used += 1
        if self.stdin is sys.stdin and self.stdout is sys.stdout:
            return input(prompt)
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            raise EOFError
        return line
