"""The static card data and a seat's Conservation Center.

`CardTable` turns a `coexist_ai.cards.CardSet` into flat per-index lists
(colours as integers 0..4) so that the rules read `table.needs[card]`
instead of walking dataclasses. `Seat` is everything one player owns; its
board keeps counts, never spaces: which space holds what is no decision
(RULES.md, "spaces").
"""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from coexist_ai.reference.actions import COLOURS

if TYPE_CHECKING:
    from coexist_ai.cards import CardSet, Effect

# an effect as the rules read it: (kind, colour, amount, from, to), colours
# as integers; the parameters a kind does not take are None (which ones a
# kind takes is card-set data, cards.EFFECT_PARAMETERS: not a static type)
EffectTuple = tuple[str, Any, Any, Any, Any]

TRACK_SIZE = 8
TRACK_POINTS = (4, 3, 2, 1)      # printed on track spaces 1, 3, 5, 7


class CardTable:
    """Per-index card data of one card set, and its rule numbers."""

    def __init__(self, card_set: CardSet) -> None:
        cards = card_set.cards
        self.card_set = card_set
        self.ids = [c.id for c in cards]
        self.is_animal = [c.is_animal for c in cards]
        self.fauna = [c.fauna for c in cards]
        self.colour = [None if c.colour is None else COLOURS.index(c.colour)
                       for c in cards]
        self.capture = [c.capture for c in cards]
        self.conservation = [c.conservation for c in cards]
        self.needs = [tuple(c.needs) for c in cards]
        self.protect = [tuple(c.protect) for c in cards]
        self.effect = [None if c.effect is None else _effect_tuple(c.effect)
                       for c in cards]
        rules = card_set.rules
        self.center_spaces = rules["center_spaces"]
        self.capture_limit = rules["capture_limit"]
        self.release_goal = rules["release_goal"]
        self.max_rounds = rules["max_rounds"]


def _colour(name: str | None) -> int | None:
    return None if name is None else COLOURS.index(name)


def _effect_tuple(effect: Effect) -> EffectTuple:
    """(kind, colour, amount, from, to) with colours as integers."""
    return (effect.kind, _colour(effect.colour), effect.amount,
            _colour(effect.from_colour), _colour(effect.to_colour))


@functools.lru_cache(maxsize=16)
def card_table(card_set: CardSet) -> CardTable:
    """The CardTable of a card set, built once per content (sha256)."""
    return CardTable(card_set)


class Slot:
    """An animal on a Center: the tokens on it, and the anti-cycle counts
    (tokens there since the turn began and not yet moved, per caretaker)."""

    __slots__ = ("card", "on", "movable")

    def __init__(self, card: int, on: list[int] | None = None,
                 movable: list[int] | None = None) -> None:
        self.card = card
        self.on = on or [0, 0, 0, 0, 0]
        self.movable = movable or [0, 0, 0, 0]

    def clone(self) -> Slot:
        return Slot(self.card, self.on[:], self.movable[:])

    def is_bare(self) -> bool:
        return not any(self.on)

    def short(self, table: CardTable, colour: int) -> int:
        """Tokens of `colour` the animal still needs."""
        return table.needs[self.card][colour] - self.on[colour]


class Seat:
    """One player: specialty, Center, Reputation track and what it won."""

    __slots__ = ("fauna", "turns", "track", "pool", "board", "released",
                 "protected", "start_recruit", "extra_spaces",
                 "capture_bonus", "skip_survival", "double_protect",
                 "one_to_one")

    def __init__(self, fauna: str) -> None:
        self.fauna = fauna
        self.turns = 0                 # turns completed
        self.track = 0                 # Survival tokens on the track
        self.pool = [0, 0, 0, 0]       # unassigned caretakers C F P H
        self.board: list[Slot] = []    # in the order housed
        self.released: list[int] = []  # cards, in the order released
        self.protected: list[int] = []  # cards this seat protected
        # permanent effects owned (from the released animals)
        self.start_recruit: list[int] = []   # their colours, in release order
        self.extra_spaces = 0
        self.capture_bonus = 0
        self.skip_survival = 0
        self.double_protect = [0, 0, 0, 0]
        self.one_to_one: set[tuple[int, int]] = set()   # (from, to) colour pairs

    def clone(self) -> Seat:
        other = Seat.__new__(Seat)
        for name in ("fauna", "turns", "track", "extra_spaces",
                     "capture_bonus", "skip_survival"):
            setattr(other, name, getattr(self, name))
        other.pool = self.pool[:]
        other.board = [slot.clone() for slot in self.board]
        other.released = self.released[:]
        other.protected = self.protected[:]
        other.start_recruit = self.start_recruit[:]
        other.double_protect = self.double_protect[:]
        other.one_to_one = set(self.one_to_one)
        return other

    # ---- spaces -------------------------------------------------------------
    def spaces_used(self, pool: list[int] | None = None) -> int:
        """Animals plus ceil(pool[c] / 3) per colour (of `pool` if given)."""
        pool = self.pool if pool is None else pool
        return len(self.board) + sum((n + 2) // 3 for n in pool)

    def capacity(self, table: CardTable) -> int:
        return table.center_spaces + self.extra_spaces

    def fits_with(self, table: CardTable, colour: int, change: int = 1) -> bool:
        """Within capacity once `change` caretakers of `colour` join the pool."""
        pool = self.pool[:]
        pool[colour] += change
        return self.spaces_used(pool) <= self.capacity(table)

    def over_capacity(self, table: CardTable) -> bool:
        return self.spaces_used() > self.capacity(table)

    def has_free_space(self, table: CardTable) -> bool:
        """Room for one more animal."""
        return self.spaces_used() + 1 <= self.capacity(table)

    # ---- the Reputation track ----------------------------------------------
    def capture_limit(self, table: CardTable) -> int:
        return max(0, table.capture_limit - self.track // 2 + self.capture_bonus)

    def reputation(self) -> int:
        """The printed points the track's tokens leave uncovered."""
        return sum(points for i, points in enumerate(TRACK_POINTS)
                   if 2 * i + 1 > self.track)

    def slot_of(self, card: int) -> Slot:
        for slot in self.board:
            if slot.card == card:
                return slot
        raise KeyError(card)

    def remove_slot(self, card: int) -> Slot:
        slot = self.slot_of(card)
        self.board.remove(slot)
        return slot

    def own_effect(self, effect: EffectTuple) -> None:
        """Take on the permanent part of a released animal's effect."""
        kind, colour, amount, from_colour, to_colour = effect
        if kind == "start_recruit":
            self.start_recruit.append(colour)
        elif kind == "capture_bonus":
            self.capture_bonus += amount
        elif kind == "extra_space":
            self.extra_spaces += 1
        elif kind == "double_protect":
            self.double_protect[colour] += 1
        elif kind == "skip_survival":
            self.skip_survival += 1
        elif kind == "train_one_to_one":
            self.one_to_one.add((from_colour, to_colour))
