"""The ranking explained: who is ahead of whom, and how ties were broken.

The rules (RULES.md, "End of the game"): more points first; on a tie, fewer
Survival tokens on the track first; still tied, a shared place.
"""
from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from itertools import groupby
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from coexist_ai._engine import Position

# a seat's place (1 = first), None for a seat left out
Places = list[int | None]


def _seat_label(labels: Sequence[str] | None, seat: int) -> str:
    return labels[seat] if labels else f"seat {seat}"


def _and(items: Iterable[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


ORDINALS: dict[int | None, str] = {1: "1st", 2: "2nd", 3: "3rd"}


def _ordinal(n: int | None) -> str:
    return ORDINALS.get(n, f"{n}th")


def _tokens(n: int) -> str:
    return f"{n} Survival token{'s' * (n != 1)}"


def ranking(totals: Sequence[int], tracks: Sequence[int],
            exclude: Collection[int] = ()) -> Places:
    """Place by seat (1 = first) under the rules; seats in `exclude` (who
    forfeited, say) are left out (None) and do not count."""
    seats = [p for p in range(len(totals)) if p not in exclude]
    key = {p: (-totals[p], tracks[p]) for p in seats}
    return [1 + sum(key[q] < key[p] for q in seats) if p in key else None
            for p in range(len(totals))]


def tie_breaks(totals: Sequence[int], tracks: Sequence[int],
               labels: Sequence[str] | None = None,
               exclude: Collection[int] = ()) -> list[str]:
    """One sentence per group of seats with the same total, saying how the
    tie was broken or which place is shared, best group first:
    '29-29, broken by Survival tokens: 0 against 4, fewer first: seat 1,
    then seat 0'; '29-29 with 4 Survival tokens each: seat 0 and seat 1
    share 1st place'.
    labels: a name per seat (default 'seat N'); exclude: seats left out."""
    places = ranking(totals, tracks, exclude)
    seats = sorted((p for p in range(len(totals)) if places[p] is not None),
                   key=lambda p: (places[p], p))
    lines = []
    for total, same_total in groupby(seats, key=lambda p: totals[p]):
        group = list(same_total)
        if len(group) > 1:
            lines.append(_tie_sentence(total, group, tracks, places, labels))
    return lines


def _tie_sentence(total: int, group: list[int], tracks: Sequence[int], places: Places,
                  labels: Sequence[str] | None) -> str:
    score = "-".join([str(total)] * len(group))
    label = lambda p: _seat_label(labels, p)
    if len({tracks[p] for p in group}) == 1:
        return (f"{score} with {_tokens(tracks[group[0]])} each: "
                f"{_and(map(label, group))} share {_ordinal(places[group[0]])} place")
    counts = [str(tracks[p]) for p in group]
    said = " against ".join(counts) if len(group) == 2 else _and(counts)
    order = []
    for place, same_place in groupby(group, key=lambda p: places[p]):
        same = list(same_place)
        order.append(_and(map(label, same)) + (f" sharing {_ordinal(place)}"
                                               if len(same) > 1 else ""))
    return (f"{score}, broken by Survival tokens: {said}, fewer first: "
            f"{', then '.join(order)}")


def seat_tie_break(seat: int, totals: Sequence[int], tracks: Sequence[int],
                   labels: Sequence[str] | None = None,
                   exclude: Collection[int] = ()) -> str | None:
    """The sentence of `tie_breaks` about the group holding `seat`, or None
    when no other seat has its total."""
    if seat in exclude:
        return None
    tied = [p for p in range(len(totals)) if totals[p] == totals[seat] and p not in exclude]
    if len(tied) < 2:
        return None
    places = ranking(totals, tracks, exclude)
    return _tie_sentence(totals[seat], sorted(tied, key=lambda p: (places[p], p)),
                         tracks, places, labels)


def position_tie_breaks(position: Position, labels: Sequence[str] | None = None,
                        exclude: Collection[int] = ()) -> list[str]:
    """tie_breaks of a position's totals and tracks."""
    return tie_breaks(position.scores(), [s.track for s in position.seats], labels, exclude)
