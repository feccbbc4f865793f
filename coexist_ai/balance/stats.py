"""Every figure of a balance study at one player count, from the facts of
its games (facts.py), as plain data (what the JSON report holds; the HTML
and text reports only lay it out).

Shares are of games won, a shared first place counting 1/k. The fair share
of a specialty or a seat is 1/players. Card and effect "impact" is the
win rate of the seats that released the card (an animal with the effect)
minus that of the seats of the same games that did not: it measures an
association (strong positions release more), which makes a card far above
the others a finding to look at, not a proof.
"""
from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from coexist_ai.balance.facts import END_REASONS, FATES, HOUSED, GameFacts
from coexist_ai.balance.intervals import (Difference, clustered_difference, holm,
                                          mean_interval, score_test, wilson)
from coexist_ai.cards import EFFECT_KINDS, CardSet
from coexist_ai.vocabulary import IMMEDIATE_EFFECTS

TOLERANCE = 0.03     # a fair set: every specialty within this of its fair share
EDGE = 1e-9          # shares are counts over games: closer than this is equal
PARTS = ("conservation", "reputation", "specialty")
# effects counted as applied: the immediate ones and start_recruit, which
# is asked each turn; the other permanent effects act from their release
ASKED = frozenset(map(str, IMMEDIATE_EFFECTS)) | {"start_recruit"}


def player_count_stats(facts: Sequence[GameFacts], card_set: CardSet,
                       tolerance: float = TOLERANCE) -> dict[str, Any]:
    """The figures of the games of one player count."""
    players = facts[0].players
    if any(f.players != players for f in facts):
        raise ValueError("facts of one player count expected")
    specialties = specialty_shares(facts, card_set.faunas())
    return {
        "players": players, "games": len(facts), "fair_share": 1 / players,
        "specialties": specialties,
        "verdict": verdict(specialties, tolerance),
        "seats": seat_shares(facts),
        "matchups": matchup_shares(facts, card_set.faunas()),
        "length": length_stats(facts),
        "scores": score_stats(facts, card_set.faunas()),
        "cards": card_stats(facts, card_set),
        "effects": effect_stats(facts, card_set),
    }


def _share_row(wins: float, games: float, fair: float) -> dict[str, Any]:
    low, high = wilson(wins, games)
    return {"games": int(games), "wins": wins, "share": wins / games if games else math.nan,
            "low": low, "high": high, "fair": fair, "p_value": score_test(wins, games, fair)}


def _flag(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for row, differs in zip(rows, holm([r["p_value"] for r in rows])):
        row["differs"] = differs
    return rows


def specialty_shares(facts: Sequence[GameFacts], faunas: Sequence[str]) -> list[dict[str, Any]]:
    """Win share of each specialty over the games it was dealt in."""
    wins: defaultdict[str, float] = defaultdict(float)
    games: Counter[str] = Counter()
    for f in facts:
        for fauna, win in zip(f.faunas, f.wins):
            wins[fauna] += win
            games[fauna] += 1
    fair = 1 / facts[0].players
    return _flag([dict(fauna=fauna, **_share_row(wins[fauna], games[fauna], fair))
                  for fauna in faunas if games[fauna]])


def verdict(specialties: list[dict[str, Any]], tolerance: float) -> dict[str, Any]:
    """Is the set fair at this count: every share within `tolerance` of fair
    and known that well (its interval within `tolerance` too)?"""
    deviation = max(abs(r["share"] - r["fair"]) for r in specialties)
    half = max((r["high"] - r["low"]) / 2 for r in specialties)
    # a share exactly on the edge is within it: 0.53 - 0.5 is 0.0300...03
    # in floating point, and "within 3 points" includes 3
    return {"tolerance": tolerance, "max_deviation": deviation, "max_half_width": half,
            "within_tolerance": deviation <= tolerance + EDGE,
            "precise_enough": half <= tolerance + EDGE,
            "flagged": [r["fauna"] for r in specialties if r["differs"]]}


def matchup_shares(facts: Sequence[GameFacts], faunas: Sequence[str]) -> list[dict[str, Any]]:
    """At 2 players, the share of each specialty against each other one
    (the first of the pair, in the card set's fauna order): the deck holds
    only the two faunas dealt, so a set can be fair at 2 players overall
    and one specialty still beat another. None at 3 and 4 players."""
    if facts[0].players != 2:
        return []
    wins: defaultdict[tuple[str, str], float] = defaultdict(float)
    games: Counter[tuple[str, str]] = Counter()
    for f in facts:
        first, second = sorted(f.faunas, key=faunas.index)
        wins[first, second] += f.wins[f.faunas.index(first)]
        games[first, second] += 1
    return _flag([dict(faunas=list(pair), **_share_row(wins[pair], games[pair], 0.5))
                  for pair in sorted(games, key=lambda pair: tuple(map(faunas.index, pair)))])


def seat_shares(facts: Sequence[GameFacts]) -> list[dict[str, Any]]:
    """Win share of each place in the turn order (0 moved first)."""
    players = facts[0].players
    wins = [0.0] * players
    for f in facts:
        for order, win in zip(f.order, f.wins):
            wins[order] += win
    return _flag([dict(order=k, **_share_row(wins[k], len(facts), 1 / players))
                  for k in range(players)])


def _summary(values: np.ndarray) -> dict[str, float]:
    mean, low, high = mean_interval(values)
    q = np.percentile(values, [0, 10, 25, 50, 75, 90, 100])
    return {"mean": mean, "low": low, "high": high, "sd": float(values.std(ddof=1))
            if len(values) > 1 else math.nan, "min": float(q[0]), "p10": float(q[1]),
            "p25": float(q[2]), "median": float(q[3]), "p75": float(q[4]),
            "p90": float(q[5]), "max": float(q[6])}


def length_stats(facts: Sequence[GameFacts]) -> dict[str, Any]:
    ends = Counter(f.end for f in facts)
    n = len(facts)
    return {"rounds": _summary(np.array([f.rounds for f in facts], float)),
            "rounds_histogram": _histogram([f.rounds for f in facts]),
            "moves": _summary(np.array([f.moves for f in facts], float)),
            "ends": [{"reason": reason, "games": ends[reason], "share": ends[reason] / n,
                      "low": wilson(ends[reason], n)[0], "high": wilson(ends[reason], n)[1]}
                     for reason in END_REASONS]}


def _histogram(values: Sequence[int]) -> dict[str, list[int]]:
    counts = Counter(values)
    low, high = min(counts), max(counts)
    return {"values": list(range(low, high + 1)),
            "counts": [counts[v] for v in range(low, high + 1)]}


def score_stats(facts: Sequence[GameFacts], faunas: Sequence[str]) -> dict[str, Any]:
    """Scores by specialty (with the mean of each part), and the winner's."""
    by_fauna = []
    for fauna in faunas:
        seats = [(f.scores[p], f.parts[p]) for f in facts for p in range(f.players)
                 if f.faunas[p] == fauna]
        if not seats:
            continue
        scores = [s for s, _ in seats]
        parts = np.array([p for _, p in seats], float).mean(axis=0)
        by_fauna.append({"fauna": fauna, **_summary(np.array(scores, float)),
                         "parts": dict(zip(PARTS, map(float, parts))),
                         "histogram": _histogram(scores)})
    winners = np.array([max(f.scores) for f in facts], float)
    return {"by_fauna": by_fauna, "winner": _summary(winners)}


def _difference_row(difference: Difference) -> dict[str, Any]:
    return {"with": difference.mean1, "without": difference.mean0,
            "seats_with": difference.n1, "impact": difference.value,
            "low": difference.low, "high": difference.high,
            "significant": difference.significant}


# member(game index, facts, seat): True, False, or None (the game does not count)
Member = Callable[[int, GameFacts, int], bool | None]


def _grouped(facts: Sequence[GameFacts], wins_or_scores: Callable[[GameFacts, int], float],
             member: Member) -> Difference:
    """The clustered difference of a seat figure between the seats for
    which member(game index, facts, seat) is true and the other seats of
    the games where member is not None."""
    y1, n1, y0, n0 = (np.zeros(len(facts)) for _ in range(4))
    for g, f in enumerate(facts):
        for p in range(f.players):
            inside = member(g, f, p)
            if inside is None:
                continue
            value = wins_or_scores(f, p)
            if inside:
                y1[g] += value
                n1[g] += 1
            else:
                y0[g] += value
                n0[g] += 1
    return clustered_difference(y1, n1, y0, n0)


def _win(f: GameFacts, p: int) -> float:
    return f.wins[p]


def _score(f: GameFacts, p: int) -> float:
    return f.scores[p]


def card_stats(facts: Sequence[GameFacts], card_set: CardSet) -> list[dict[str, Any]]:
    """Per animal: the share of the games it was in that ended with it in
    each fate, and the win rate of its releaser against the other seats."""
    rows = []
    for i, card in enumerate(card_set.animals()):
        fates = Counter(f.fates[i][0] for f in facts)
        games = len(facts) - fates["out"]
        row: dict[str, Any] = {"id": card.id, "name": card.name, "fauna": card.fauna,
                               "effect": card.effect.kind if card.effect else "",
                               "capture": card.capture, "conservation": card.conservation,
                               "games": games}
        for fate in FATES[1:]:
            row[fate] = fates[fate] / games if games else math.nan
        row["housed"] = sum(fates[h] for h in HOUSED) / games if games else math.nan

        def released_by(g: int, f: GameFacts, p: int, i: int = i) -> bool | None:
            fate, seat = f.fates[i]
            return None if fate == "out" else (fate == "released" and seat == p)
        row.update(_difference_row(_grouped(facts, _win, released_by)))
        rows.append(row)
    return rows


def effect_stats(facts: Sequence[GameFacts], card_set: CardSet) -> list[dict[str, Any]]:
    """Per effect kind: how often it comes into play and is applied, and
    what it is worth: the win rate and score of the seats that released
    an animal with it against the other seats."""
    n = len(facts)
    carriers = Counter(c.effect.kind for c in card_set.animals() if c.effect)
    rows = []
    for kind in EFFECT_KINDS:
        released = sum(seat.count(kind) for f in facts for seat in f.released)
        applied = sum(seat.count(kind) for f in facts for seat in f.applied)

        def owns(g: int, f: GameFacts, p: int, kind: str = kind) -> bool:
            return kind in f.released[p]
        win = _grouped(facts, _win, owns)
        score = _grouped(facts, _score, owns)
        rows.append({"kind": kind, "animals": carriers[kind],
                     "released_per_game": released / n,
                     "applied_per_game": applied / n if kind in ASKED else math.nan,
                     **_difference_row(win),
                     "score_with": score.mean1, "score_without": score.mean0,
                     "score_impact": score.value, "score_low": score.low,
                     "score_high": score.high})
    return rows
