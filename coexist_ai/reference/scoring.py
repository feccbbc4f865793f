"""Scores, places and returns (RULES.md, "End of the game").

Score = conservation values of the released animals + the track's
uncovered points + the specialty. The specialties count only their own
fauna's animals (forest: released forest animals, air: protected air
animals) -- the reading RULES.md settles on.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from coexist_ai.reference.board import Seat
    from coexist_ai.reference.state import ReferenceState


def specialty(st: ReferenceState, seat: Seat) -> int:
    table, seats = st.table, st.seats
    if seat.fauna == "forest":
        return sum(table.fauna[card] == "forest"
                   for other in seats for card in other.released)
    if seat.fauna == "air":
        return sum(table.fauna[card] == "air"
                   for other in seats for card in other.protected)
    if seat.fauna == "sea":
        return max((table.conservation[slot.card]
                    for other in seats for slot in other.board), default=0)
    return max(other.track for other in seats)          # savannah


def breakdown(st: ReferenceState) -> list[tuple[int, int, int]]:
    """Per seat (conservation, reputation, specialty)."""
    table = st.table
    return [(sum(table.conservation[card] for card in seat.released),
             seat.reputation(), specialty(st, seat)) for seat in st.seats]


def scores(st: ReferenceState) -> list[int]:
    return [sum(parts) for parts in breakdown(st)]


def ranks(st: ReferenceState) -> list[int]:
    """1 for first; more points first, then fewer Survival tokens on the
    track; seats still tied share the better place (1, 1, 3)."""
    keys = [(-score, seat.track) for score, seat in zip(scores(st), st.seats)]
    return [1 + sum(other < key for other in keys) for key in keys]


def returns(st: ReferenceState) -> list[float]:
    """Per seat (seats it beats - seats beating it) / (players - 1): +1, -1
    or 0 at two players, zero-sum; all 0 until the game is over."""
    n = len(st.seats)
    if not st.is_over():
        return [0.0] * n
    places = ranks(st)
    return [(sum(mine < other for other in places)
             - sum(other < mine for other in places)) / (n - 1)
            for mine in places]
