"""The rating table of some Standings: Elo per bot with an honest 95%
interval, likelihood of superiority, per connected group of bots.

- Bots that never met, directly or through others, have no common scale:
  each connected group is rated on its own anchor (the one asked for, in
  its group; in another group the bot with the most pairings).
- Intervals come from a bootstrap over deals (every game of a deal shares
  its luck), resampled in a canonical order with a seed drawn from the
  records' content, so the same games give the same table whatever the
  order of the records, and with enough resamples that another seed would
  move an endpoint by less than its last printed digit.
- A bot that won (or lost) every pairing against the anchor's side has no
  finite maximum-likelihood difference: its interval is one-sided, bounded
  by what its perfect record proves. With fewer than MIN_DEALS deals, or
  when every resample gives the same rating, no interval is claimed (n/a).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from coexist_ai import elo
from coexist_ai.errors import CoexistError

if TYPE_CHECKING:
    from coexist_ai.results import Standings

SAMPLES = 20000
MIN_DEALS = 3


class RatingsError(CoexistError):
    """Ratings that cannot be computed as asked (an unknown anchor...)."""


@dataclass
class Row:
    bot: int
    name: str
    group: int
    games: int
    wins: int
    draws: int
    losses: int
    score: float          # pairwise points / pairings
    first: float          # share of games finished first (shared first counts)
    elo: float
    low: float = float("nan")
    high: float = float("nan")
    low_se: float = 0.0    # Monte-Carlo error of each end (sets its rounding)
    high_se: float = 0.0
    note: str = ""        # why the interval is one-sided or n/a
    los_next: float = float("nan")   # above the next bot down its group


@dataclass
class Group:
    members: list[int]
    anchor: int
    deals: int
    seed: int


@dataclass
class RatingTable:
    names: list[str]
    rows: list[Row]            # best first, group by group
    groups: list[Group]
    los: elo.Floats            # NaN across groups
    wins: elo.Floats
    games: elo.Floats
    samples: int
    records: int
    seat_advantage: dict[int, float] = field(default_factory=dict)

    def row(self, name: str) -> Row:
        return next(r for r in self.rows if r.name == name)


def resolve_anchor(standings: Standings, anchor: str | None, strict: bool) -> int | None:
    """Index of the anchor bot: the one named (an error if no bot has that
    name and `strict`), else random when it played, else None (each group
    then takes its most-played bot)."""
    if anchor is not None:
        found = standings.roster.find(anchor)
        if found is not None:
            return found
        if strict:
            raise RatingsError(f"--anchor {anchor!r}: no such bot in these records; "
                               f"the bots: {', '.join(sorted(standings.names))}")
    return standings.roster.find("random")


def compute(standings: Standings, anchor: str | None = None, strict_anchor: bool = False,
            samples: int = SAMPLES) -> RatingTable:
    """The RatingTable of everything recorded so far."""
    names = standings.names
    wins, games = standings.score_matrices()
    asked = resolve_anchor(standings, anchor, strict_anchor)
    los = np.full(wins.shape, np.nan)
    rows: list[Row] = []
    groups: list[Group] = []
    for members in connected_groups(games, names):
        group = _rate_group(standings, members, asked, wins, games, samples, los, len(groups))
        groups.append(group[0])
        rows += group[1]
    return RatingTable(names, rows, groups, los, wins, games, samples,
                       standings.recorded, standings.seat_advantage())


def connected_groups(games: elo.Floats, names: Sequence[str]) -> list[list[int]]:
    """Bots linked by games, directly or through others; largest first
    (then by name, not by the order the records came in)."""
    left, groups = set(range(len(games))), []
    while left:
        start = min(left)
        members: list[int] = sorted(np.flatnonzero(elo.reachable(games > 0, start)))
        groups.append(members)
        left -= set(members)
    return sorted(groups, key=lambda g: (-len(g), min(names[i] for i in g)))


def group_anchor(members: Sequence[int], asked: int | None, games: elo.Floats,
                 names: Sequence[str]) -> int:
    """The anchor asked for if it is in the group, else its most-played bot."""
    played = games.sum(axis=1)
    if asked is not None and asked in members:
        return asked
    return min(members, key=lambda i: (-played[i], names[i]))


def point_estimates(standings: Standings, anchor: str | None = None) -> elo.Floats:
    """Elo of every bot (NaN: no games), each group on its anchor: the
    figures of the table, without its intervals (for a live line)."""
    wins, games = standings.score_matrices()
    asked = resolve_anchor(standings, anchor, strict=False)
    out = np.full(len(wins), np.nan)
    for members in connected_groups(games, standings.names):
        fitted = elo.fit(wins, games, group_anchor(members, asked, games, standings.names))
        out[members] = fitted[members]
    return out


def _rate_group(standings: Standings, members: list[int], asked: int | None,
                wins: elo.Floats, games: elo.Floats, samples: int, los: elo.Floats,
                number: int) -> tuple[Group, list[Row]]:
    names = standings.names
    played = games.sum(axis=1)
    anchor = group_anchor(members, asked, games, names)
    keys = sorted(k for k, res in standings.units.items() if res and res[0][0] in members)
    unit_wins, unit_games = elo.unit_matrices([standings.units[k] for k in keys], len(names))
    seed = standings.seed_of(keys)
    point = elo.fit(wins, games, anchor)
    boot = elo.bootstrap(unit_wins, unit_games, anchor, samples, seed)
    low, high, low_se, high_se = elo.percentile_interval(boot)
    group_los = elo.likelihood_of_superiority(boot)
    sub = np.ix_(members, members)
    los[sub] = group_los[sub]
    deals = (unit_games.sum(axis=2) > 0).sum(axis=0)
    finite = elo.finite_with(wins)
    rows = []
    for i in members:
        w, d, l = standings.pair_scores(i)
        row = Row(i, names[i], number, standings.games[i], w, d, l,
                  wins[i].sum() / played[i] if played[i] else float("nan"),
                  standings.firsts[i] / standings.games[i] if standings.games[i] else 0.0,
                  float(point[i]), float(low[i]), float(high[i]),
                  float(low_se[i]), float(high_se[i]))
        _judge_interval(row, anchor, finite, standings, deals[i], names)
        rows.append(row)
    rows.sort(key=lambda r: (-r.elo, r.name))
    for above, below in zip(rows, rows[1:]):
        above.los_next = float(los[above.bot, below.bot])
    return Group(members, anchor, len(keys), seed), rows


def _judge_interval(row: Row, anchor: int, finite: elo.Bools, standings: Standings,
                    deals: int, names: Sequence[str]) -> None:
    """Replace a bootstrap interval that would claim more than it knows."""
    i = row.bot
    if i == anchor:
        row.low = row.high = 0.0
        row.note = "anchor"
        return
    if not finite[i, anchor]:
        _one_sided(row, anchor, standings, names[anchor])
        return
    if deals < MIN_DEALS:
        row.low = row.high = np.nan
        row.note = f"{deals} deal(s): too few for an interval"
    elif row.high - row.low < 0.5:
        row.low = row.high = np.nan
        row.note = "every resample gives the same rating"


def _one_sided(row: Row, anchor: int, standings: Standings, anchor_name: str) -> None:
    """The interval of a bot with no finite difference to the anchor: the
    side its perfect record against the anchor proves, the other open."""
    i, met = row.bot, standings.met[row.bot, anchor]
    if met and standings.swept[i, anchor] == met:
        row.low, row.high = elo.perfect_score_bound(met), np.inf
        row.low_se = row.high_se = 0.0
        row.note = f"won all {met} games against {anchor_name}: no upper bound"
    elif met and standings.swept[anchor, i] == met:
        row.low, row.high = -np.inf, -elo.perfect_score_bound(met)
        row.low_se = row.high_se = 0.0
        row.note = f"lost all {met} games against {anchor_name}: no lower bound"
    else:
        row.low = row.high = np.nan
        row.note = (f"no finite difference to {anchor_name}: one side won every "
                    "pairing between them, through other bots")
