"""The legal moves of each decision, read from RULES.md and docs/rules.md.

One function per phase lists the actions of the seat to move; `legal_actions`
sorts them, which orders them by kind, then colour, then card. Two
principles shape every list (RULES.md, "A turn"): no two moves have the same
effect, and a move that would gain nothing (an empty supply) is not offered.
"""
from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING

from coexist_ai.reference.actions import (
    APPLY, ASSIGN, CARETAKERS, CENTER, DISCARD_ANIMAL, DISCARD_TOKEN, END,
    HOUSE, MOVE, PASS, PROTECT, RECRUIT, RELEASE, S, SKIP, TRAIN,
    TRAIN_START, UNASSIGN, action, reveal_action)
from coexist_ai.reference.board import TRACK_SIZE, CardTable, Seat, Slot

if TYPE_CHECKING:
    from coexist_ai.reference.state import ReferenceState

# the moves without arguments, as action integers
DO_PASS, DO_END, DO_CENTER, DO_TRAIN, DO_APPLY, DO_SKIP = (
    action(kind) for kind in (PASS, END, CENTER, TRAIN_START, APPLY, SKIP))


def legal_actions(st: ReferenceState) -> list[int]:
    """The legal actions of the decision in front of `st`, ascending."""
    return sorted(_BY_PHASE[st.phase](st))


# ---- Mission ------------------------------------------------------------------

def recruit_actions(st: ReferenceState, anywhere: bool = False) -> list[int]:
    """`recruit X` for each colour shown by a caretaker card on the Mission
    board that the supply still has; within capacity unless `anywhere`
    (the recruit_mission effect ignores capacity: docs/rules.md choice 8)."""
    table, seat = st.table, st.seat
    shown = {colour for card in st.mission if (colour := table.colour[card]) is not None}
    return [action(RECRUIT, x=colour) for colour in shown
            if st.supply[colour] and (anywhere or seat.fits_with(table, colour))]


def house_actions(st: ReferenceState, budget: int | None) -> list[int]:
    """`house A` for Mission animals of capture value <= budget, if a space
    is free; budget None: the house_one effect (any animal, any capacity)."""
    table, seat = st.table, st.seat
    if budget is not None and not seat.has_free_space(table):
        return []
    return [action(HOUSE, a=card) for card in st.mission if table.is_animal[card]
            and (budget is None or table.capture[card] <= budget)]


def _choose(st: ReferenceState) -> list[int]:
    seat, table = st.seat, st.table
    found = recruit_actions(st) + house_actions(st, seat.capture_limit(table))
    if seat.turns > 0:          # Center and Training open from the 2nd turn
        found.append(DO_CENTER)
        if trade_actions(st, (), ()):
            found.append(DO_TRAIN)
    return found or [DO_PASS]


def _recruit(st: ReferenceState) -> list[int]:
    return [DO_END] + recruit_actions(st)


def _house(st: ReferenceState) -> list[int]:
    budget = st.seat.capture_limit(st.table) - st.capture_used
    return [DO_END] + house_actions(st, budget)


# ---- Training -----------------------------------------------------------------

def trade_cost(seat: Seat, x: int, y: int) -> int | None:
    """Caretakers of x that `train x y` costs, or None if no such trade:
    up one tier at 2 for 1, up at 1 for 1 where train_one_to_one names the
    pair (any distance), down to any lower tier at 1 for 1."""
    if y < x:
        return 1
    if (x, y) in seat.one_to_one:
        return 1
    if y == x + 1:
        return 2
    return None


def crossed_boundaries(x: int, y: int) -> range:
    """Tier boundaries crossed between x and y (boundary b: tiers b | b+1)."""
    return range(min(x, y), max(x, y))


def trade_actions(st: ReferenceState, trained_up: Collection[int],
                  trained_down: Collection[int]) -> list[int]:
    """Legal trades, given the boundaries already crossed up and down."""
    seat, table = st.seat, st.table
    found: list[int] = []
    for x in CARETAKERS:
        for y in CARETAKERS:
            if x == y or not st.supply[y]:
                continue
            cost = trade_cost(seat, x, y)
            if cost is None or seat.pool[x] < cost:
                continue
            against = trained_down if y > x else trained_up   # anti-cycle
            if any(b in against for b in crossed_boundaries(x, y)):
                continue
            pool = seat.pool[:]
            pool[x] -= cost
            pool[y] += 1
            if seat.spaces_used(pool) <= seat.capacity(table):
                found.append(action(TRAIN, x=x, y=y))
    return found


def _train(st: ReferenceState) -> list[int]:
    found = trade_actions(st, st.trained_up, st.trained_down)
    return found + [DO_END] if st.step else found


# ---- Conservation Center --------------------------------------------------

def _center(st: ReferenceState) -> list[int]:
    seat, table = st.seat, st.table
    found = [DO_END]
    for slot in seat.board:
        found += _slot_actions(st, seat, table, slot)
    return found


def _slot_actions(st: ReferenceState, seat: Seat, table: CardTable,
                  slot: Slot) -> list[int]:
    card = slot.card
    found: list[int] = []
    if slot.is_bare() and seat.track < TRACK_SIZE:
        found.append(action(PROTECT, a=card))
    if all(slot.short(table, colour) == 0 for colour in range(5)):
        found.append(action(RELEASE, a=card))
    for colour in CARETAKERS:
        if seat.pool[colour] and slot.short(table, colour) > 0:
            found.append(action(ASSIGN, x=colour, a=card))
    if seat.track and slot.short(table, S) > 0:
        found.append(action(ASSIGN, x=S, a=card))
    for colour in CARETAKERS:
        if not slot.movable[colour]:
            continue
        if seat.fits_with(table, colour):
            found.append(action(UNASSIGN, x=colour, a=card))
        found += [action(MOVE, x=colour, a=card, b=other.card)
                  for other in seat.board
                  if other is not slot and other.short(table, colour) > 0]
    return found


# ---- effects, start of turn, end of turn, chance -------------------------

def _effect(st: ReferenceState) -> list[int]:
    kind = st.asked_effect()[0]
    if kind == "house_one":
        return [DO_SKIP] + house_actions(st, None)
    if kind == "recruit_mission":
        return [DO_END if st.step else DO_SKIP] + recruit_actions(st, anywhere=True)
    return [DO_APPLY, DO_SKIP]


def _start(st: ReferenceState) -> list[int]:
    return [DO_APPLY, DO_SKIP]


def _discard(st: ReferenceState) -> list[int]:
    seat = st.seat
    found = [action(DISCARD_TOKEN, x=colour) for colour in CARETAKERS
             if seat.pool[colour]]
    return found + [action(DISCARD_ANIMAL, a=slot.card) for slot in seat.board]


def _chance(st: ReferenceState) -> list[int]:
    return [reveal_action(card) for card in st.draw_pile]


def _over(st: ReferenceState) -> list[int]:
    return []


_BY_PHASE: dict[str, Callable[[ReferenceState], list[int]]] = {
    "start": _start, "choose": _choose, "recruit": _recruit, "house": _house,
    "center": _center, "train": _train, "effect": _effect,
    "discard": _discard, "refill": _chance, "over": _over,
}
