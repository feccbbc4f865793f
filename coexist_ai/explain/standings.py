"""The ranking explained: who is ahead of whom, and how ties were broken.

The rules (RULES.md, "End of the game"): more points first; on a tie, fewer
Survival tokens on the track first; still tied, a shared place.
"""
from itertools import groupby


def _seat_label(labels, seat):
    return labels[seat] if labels else f"seat {seat}"


def _and(items):
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _ordinal(n):
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def _tokens(n):
    return f"{n} Survival token{'s' * (n != 1)}"


def ranking(totals, tracks, exclude=()):
    """Place by seat (1 = first) under the rules; seats in `exclude` (who
    forfeited, say) are left out (None) and do not count."""
    seats = [p for p in range(len(totals)) if p not in exclude]
    key = {p: (-totals[p], tracks[p]) for p in seats}
    return [1 + sum(key[q] < key[p] for q in seats) if p in key else None
            for p in range(len(totals))]


def tie_breaks(totals, tracks, labels=None, exclude=()):
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
    for total, group in groupby(seats, key=lambda p: totals[p]):
        group = list(group)
        if len(group) > 1:
            lines.append(_tie_sentence(total, group, tracks, places, labels))
    return lines


def _tie_sentence(total, group, tracks, places, labels):
    score = "-".join([str(total)] * len(group))
    label = lambda p: _seat_label(labels, p)
    if len({tracks[p] for p in group}) == 1:
        return (f"{score} with {_tokens(tracks[group[0]])} each: "
                f"{_and(map(label, group))} share {_ordinal(places[group[0]])} place")
    counts = [str(tracks[p]) for p in group]
    said = " against ".join(counts) if len(group) == 2 else _and(counts)
    order = []
    for place, same in groupby(group, key=lambda p: places[p]):
        same = list(same)
        order.append(_and(map(label, same)) + (f" sharing {_ordinal(place)}"
                                               if len(same) > 1 else ""))
    return (f"{score}, broken by Survival tokens: {said}, fewer first: "
            f"{', then '.join(order)}")


def seat_tie_break(seat, totals, tracks, labels=None, exclude=()):
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


def position_tie_breaks(position, labels=None, exclude=()):
    """tie_breaks of a position's totals and tracks."""
    return tie_breaks(position.scores(), [s.track for s in position.seats], labels, exclude)
