"""The progress line of a run: games done, live standings, time left.

On a terminal the line is redrawn in place, cut to the terminal's width;
anywhere else (a file, a pipe, CI) it is printed as plain lines, one each
twentieth of the run, so a log reads as a log.
"""
from __future__ import annotations

import shutil
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol, TextIO

from coexist_ai.match import Record

GAME_OVERHEAD = 0.002   # seconds a game costs beyond its bots' thinking
REDRAW_EVERY = 0.1      # seconds between redraws on a terminal
PLAIN_STEPS = 20        # plain lines over a whole run


class TimeLeft(Protocol):
    """What the line asks of an estimate of the time left."""

    def observe(self, record: Record) -> None: ...

    def seconds_left(self) -> float | None: ...


class Eta:
    """Time left from what each bot costs: the mean thinking time it spent
    per game so far (from the records' move times), summed over the seats
    of every game still to play, shared among the parallel jobs. Until
    every bot still to play has played once there is nothing to go on, and
    no time is shown: a guess from other bots' costs would swing by far
    more than the factor a reader can trust."""

    def __init__(self, round_lineups: Iterable[Sequence[str]], rounds: int,
                 done: Iterable[int], jobs: int) -> None:
        """`round_lineups`: the entrants of each game of a round, in
        schedule order (every round seats them alike); `done`: the indices
        of the games already played."""
        self.per_round = [tuple(sorted(names)) for names in round_lineups]
        self.left: Counter[tuple[str, ...]] = Counter()
        for lineup in self.per_round:
            self.left[lineup] += rounds
        for index in done:
            self.left[self._lineup(index)] -= 1
        self.jobs = max(1, jobs)
        self.seconds: Counter[str] = Counter()    # thinking time, per entrant
        self.games: Counter[str] = Counter()

    def _lineup(self, index: int) -> tuple[str, ...]:
        return self.per_round[index % len(self.per_round)]

    def observe(self, record: Record) -> None:
        if isinstance(record.get("game"), int):
            self.left[self._lineup(record["game"])] -= 1
        spent: Counter[int] = Counter()
        for (seat, _), seconds in zip(record.get("moves", []), record.get("times", [])):
            spent[seat] += seconds
        for seat, name in enumerate(record["entrants"]):
            self.seconds[name] += spent[seat]
            self.games[name] += 1

    def seconds_left(self) -> float | None:
        """Estimated seconds to the end, or None when not yet known."""
        work, count = 0.0, 0
        for lineup, games in self.left.items():
            if games <= 0:
                continue
            if any(not self.games[name] for name in lineup):
                return None
            cost = GAME_OVERHEAD + sum(self.seconds[n] / self.games[n] for n in lineup)
            work, count = work + games * cost, count + games
        return work / max(1, min(self.jobs, count)) if count else 0.0


def clock(seconds: float | None) -> str:
    if seconds is None:
        return "--"
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


class Progress:
    """Prints `done/total <standings> ETA m:ss`; `standings(width, final)`
    gives the middle part cut to the width it is given."""

    def __init__(self, total: int, done: int, standings: Callable[[int, bool], str],
                 eta: TimeLeft | None, enabled: bool = True, stream: TextIO | None = None) -> None:
        self.total, self.done = total, done
        self.standings, self.eta, self.enabled = standings, eta, enabled
        self.stream = stream or sys.stderr
        self.terminal = self.enabled and self.stream.isatty()
        self.last_draw, self.drawn, self.printed = 0.0, 0, done
        self._step = max(1, total // PLAIN_STEPS)
        self.next_plain = (done // self._step + 1) * self._step

    def width(self) -> int:
        return shutil.get_terminal_size((80, 24)).columns if self.terminal else 80

    def update(self, record: Record) -> None:
        self.done += 1
        if self.eta:
            self.eta.observe(record)
        if not self.enabled:
            return
        now = time.monotonic()
        final = self.done == self.total
        if self.terminal and (now - self.last_draw >= REDRAW_EVERY or final):
            self.last_draw = now
            self._draw(self.line(self.width() - 1, final))
        elif not self.terminal and (self.done >= self.next_plain or self.done == self.total):
            self.next_plain = (self.done // self._step + 1) * self._step
            self._print()

    def line(self, width: int, final: bool = False) -> str:
        """The line; `final`: the last one, whose figures must be current."""
        count = f"{self.done}/{self.total}"
        eta = f"ETA {clock(self.eta.seconds_left() if self.eta else None)}"
        middle = self.standings(max(0, width - len(count) - len(eta) - 2), final)
        return f"{count} {middle} {eta}" if middle else f"{count} {eta}"

    def _draw(self, text: str) -> None:
        pad = max(0, self.drawn - len(text))
        self.stream.write("\r" + text + " " * pad)
        self.stream.flush()
        self.drawn = len(text)

    def _print(self) -> None:
        """A plain line: rare (twenty a run), so its figures are all current."""
        print(self.line(self.width(), final=True), file=self.stream, flush=True)
        self.printed = self.done

    def close(self) -> None:
        """End the line on a terminal; elsewhere print the last count if a
        stop or an interrupt came between two plain lines."""
        if self.terminal and self.drawn:
            if self.done != self.total:   # stopped early: the last figures, current
                self._draw(self.line(self.width() - 1, True))
            self.stream.write("\n")
            self.stream.flush()
        elif self.enabled and not self.terminal and self.printed != self.done:
            self._print()
