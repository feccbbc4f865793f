"""The live standings of a run's progress line: the very figures of the
final table (coexist_ai.ratings), so what a reader watches is what the
table will say."""
from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

from coexist_ai import ratings
from coexist_ai.tables import interval_text, signed

if TYPE_CHECKING:
    from coexist_ai.results import Standings

INTERVAL_SHARE = 0.1    # at most this share of the time goes to live intervals


def cut(name: str, width: int) -> str:
    return name if len(name) <= width else name[:max(1, width - 1)] + "~"


class LiveLine:
    """`line(width)`: a duel's score, Elo, interval and SPRT, or a
    tournament's standings, in at most `width` characters."""

    def __init__(self, standings: Standings) -> None:
        self.standings = standings
        self.row: ratings.Row | None = None
        self.deals, self.games, self.when, self.cost = -1, -1, 0.0, 0.0

    def __call__(self, width: int, final: bool = False) -> str:
        s = self.standings
        if not s.recorded:
            return ""
        if s.tournament and len(s.tournament.entrants) == 2:
            return self._duel(width, final)
        return self._standings(width)

    def _duel(self, width: int, final: bool) -> str:
        s = self.standings
        wins, draws, losses = s.pair_scores(0)
        estimate = ratings.point_estimates(s, s.anchor)[0]
        row = self._interval(final)
        interval = (interval_text(row) if row else "n/a").replace(", ", ",")
        rest = f" {wins}-{draws}-{losses} "
        tail = f" Elo {signed(estimate) if not math.isnan(estimate) else '?'} {interval}"
        if s.sprt:
            tail += f" {s.sprt.short()}"
        room = max(2, (width - len(rest) - len(tail)) // 2)
        a, b = s.names[0], s.names[1]
        return (cut(a, room) + rest + cut(b, room) + tail)[:width]

    def _interval(self, final: bool) -> ratings.Row | None:
        """The table's interval for the first bot, recomputed when a deal
        has been added, but not so often that the bootstrap (the costly
        part of the line) takes more than a tenth of the time; for the last
        line, always from every game."""
        s = self.standings
        now = time.monotonic()
        due = len(s.units) != self.deals and now - self.when >= self.cost / INTERVAL_SHARE
        if due or (final and self.games != s.recorded):
            table = ratings.compute(s, s.anchor)
            self.row = next(r for r in table.rows if r.bot == 0)
            self.when, self.cost = time.monotonic(), time.monotonic() - now
            self.deals, self.games = len(s.units), s.recorded
        return self.row

    def _standings(self, width: int) -> str:
        s = self.standings
        estimates = ratings.point_estimates(s, s.anchor)
        order = sorted(range(len(estimates)), key=lambda i: (
            math.isnan(estimates[i]), -(0 if math.isnan(estimates[i]) else estimates[i])))
        parts: list[str] = []
        used = 0
        for i in order:
            figure = "?" if math.isnan(estimates[i]) else signed(estimates[i])
            part = f"{cut(s.names[i], 14)} {figure}"
            if used + len(part) + 2 > width:
                break
            parts.append(part)
            used += len(part) + 2
        return ", ".join(parts)
