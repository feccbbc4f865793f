"""The rating table as text: per bot, per pair, failures, seat advantage.

Columns are sized to the names they hold; the pair matrices number their
columns so that long specs do not make them wide.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from coexist_ai.results import FAILURE_KINDS

if TYPE_CHECKING:
    from coexist_ai.ratings import RatingTable, Row
    from coexist_ai.results import Standings

FAILURE_HEAD = "fails t/i/c/s"


def signed(x: float) -> str:
    return "0" if round(x) == 0 else f"{x:+.0f}"


def rounding_unit(se: float) -> int:
    """The coarsest rounding an endpoint needs: the smallest of 1, 2, 5, 10...
    whose quarter is at least its Monte-Carlo standard error, so that
    another seed would move the printed figure by at most one unit."""
    for unit in (1, 2, 5, 10, 20, 50, 100, 200, 500):
        if not se > unit / 4:
            return unit
    return 1000


def endpoint(x: float, se: float) -> str:
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    unit = rounding_unit(se)
    return signed(round(x / unit) * unit)


def interval_text(row: Row) -> str:
    if row.note == "anchor":
        return "-"
    if math.isnan(row.low):
        return "n/a"
    return f"[{endpoint(row.low, row.low_se)}, {endpoint(row.high, row.high_se)}]"


def rating_text(table: RatingTable, standings: Standings) -> str:
    """The whole results table."""
    if not table.records:
        return "no games"
    multi = max(standings.players, default=2) > 2
    lines = [_head(table, standings)]
    for group in table.groups:
        rows = [r for r in table.rows if r.group == table.groups.index(group)]
        if len(table.groups) > 1:
            lines.append(f"group {table.groups.index(group) + 1} of {len(table.groups)} "
                         f"(never met the other groups, directly or through others): "
                         f"Elo anchored at {table.names[group.anchor]} = 0")
        lines += _bot_lines(rows, standings, multi)
    lines += _notes(table.rows)
    lines += _matrix("results (score of the row bot against the column bot / pairings):",
                     table, lambda i, j: _score_cell(table, i, j))
    lines += _matrix("likelihood of superiority (row above column):",
                     table, lambda i, j: "" if math.isnan(table.los[i, j]) else
                     f"{table.los[i, j]:.2f}")
    lines += failure_lines(standings) + _legend(standings) + _seat_lines(table)
    return "\n".join(lines)


def _head(table: RatingTable, standings: Standings) -> str:
    counts = ", ".join(f"{n} at {p} players" for p, n in sorted(standings.players.items())) \
        if len(standings.players) > 1 else f"{next(iter(standings.players))} players"
    anchors = {table.names[g.anchor] for g in table.groups}
    deals = sum(g.deals for g in table.groups)
    anchor = f"Elo anchored at {anchors.pop()} = 0; " if len(anchors) == 1 else ""
    return (f"{table.records} games ({counts}) over {deals} deals; {anchor}"
            f"95% intervals from {table.samples} bootstrap resamples of the deals")


def _bot_lines(rows: Sequence[Row], standings: Standings, multi: bool) -> list[str]:
    width = max(len("bot"), max(len(r.name) for r in rows))
    first = f"{'first':>7}" if multi else ""
    lines = [f"{'bot':<{width}}{'games':>7}{'W':>6}{'D':>5}{'L':>6}{'score':>8}{first}"
             f"{'Elo':>7}  {'95% interval':<14}{'LOS':>5}  {FAILURE_HEAD}"]
    for r in rows:
        fails = "/".join(str(standings.failures[r.bot][k]) for k in FAILURE_KINDS)
        los = "" if math.isnan(r.los_next) else f"{r.los_next:.2f}"
        share = f"{r.first:>7.1%}" if multi else ""
        lines.append(f"{r.name:<{width}}{r.games:>7}{r.wins:>6}{r.draws:>5}{r.losses:>6}"
                     f"{r.score:>8.1%}{share}{signed(r.elo):>7}  {interval_text(r):<14}"
                     f"{los:>5}  {fails}")
    return lines


def _notes(rows: Sequence[Row]) -> list[str]:
    notes = [f"  {r.name}: {r.note}" for r in rows if r.note and r.note != "anchor"]
    lines = ["W/D/L: pairwise results (a 2-player game is one); LOS: likelihood "
             "of superiority over the next bot down"]
    return lines + (["intervals:"] + notes if notes else [])


def _score_cell(table: RatingTable, i: int, j: int) -> str:
    played = table.games[i, j]
    return f"{table.wins[i, j] / played:.1%}/{played:.0f}" if played else ""


def _matrix(title: str, table: RatingTable, cell: Callable[[int, int], str]) -> list[str]:
    order = [r.bot for r in table.rows]
    if len(order) < 2:
        return []
    width = max(len(r.name) for r in table.rows) + 4
    cells = {(i, j): "-" if i == j else cell(i, j) for i in order for j in order}
    size = max(7, max(len(c) for c in cells.values()) + 2)
    lines = [title, " " * width + "".join(f"{k + 1:>{size}}" for k in range(len(order)))]
    for k, i in enumerate(order):
        lines.append(f"{k + 1:>2}. {table.names[i]:<{width - 4}}"
                     + "".join(f"{cells[i, j]:>{size}}" for j in order))
    return lines


def failure_lines(standings: Standings) -> list[str]:
    """Every distinct failure with its reason and how often it happened."""
    if not standings.reasons:
        return []
    names = standings.names
    lines = ["failures (forfeited games; kind: reason):"]
    for (bot, kind, reason), count in sorted(standings.reasons.items(),
                                             key=lambda kv: (names[kv[0][0]], kv[0][1:])):
        lines.append(f"  {names[bot]}: {count} x {kind}: {reason or '(no reason given)'}")
    return lines


def _legend(standings: Standings) -> list[str]:
    out = []
    for name, bot in sorted(zip(standings.names, standings.roster.bots), key=lambda nb: nb[0]):
        others = [a for a in bot.aliases() if a != name]
        if others and not (len(others) == 1 and others[0] == bot.spec and name.startswith(bot.spec)):
            out.append(f"  {name}: {', '.join(others)}")
    return ["bots shown under one name (spec, other names it was recorded under):"] + out \
        if out else []


def _seat_lines(table: RatingTable) -> list[str]:
    return ["seat advantage (mean pairwise score by seat): " +
            ", ".join(f"seat {s} {v:.1%}" for s, v in table.seat_advantage.items())]
