"""The rules of the move kinds, each as "why this move cannot be made", for
coexist_ai/explain/illegal.py: Mission (recruit, house), the Conservation
Center (protect, assign, move, unassign, release) and Training (trades).
Each function returns the first rule that forbids the move, or None.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, cast

from coexist_ai.explain.words import article, place_text, tokens_text
from coexist_ai.notation import kind_word
from coexist_ai.vocabulary import CARETAKERS, TOKENS, TRACK_SIZE, ActionKind

if TYPE_CHECKING:
    from coexist_ai._engine import Position
    from coexist_ai.cards import Card
    from coexist_ai.views import AnimalView

# why a move cannot be made, or None when no rule forbids it
Reason = str | None


class Ask:
    """One move asked of one position: what the rules below read (the
    seat's view is built once)."""

    def __init__(self, position: Position, kind: ActionKind, x: int, y: int, a: int,
                 b: int) -> None:
        self.position, self.kind = position, kind
        self.x, self.y, self.a, self.b = x, y, a, b
        self.cs = position.card_set
        self.me = position.seat(position.current_player)
        # free spaces in the Center (negative while over capacity)
        self.room = self.me.capacity - self.me.spaces_used

    @property
    def word(self) -> str:
        return kind_word(self.kind)

    def card(self, index: int) -> Card:
        return self.cs.cards[index]

    def centre_text(self) -> str:
        me = self.me
        return f"your Conservation Center uses {me.spaces_used} of {me.capacity} spaces"


# -- Mission ---------------------------------------------------------------------------

def recruit(ask: Ask, check_room: bool) -> Reason:
    colour = TOKENS[ask.x]
    if colour == "S":
        return "S (Survival) is no caretaker: recruit C, F, P or H"
    # caretaker cards (an animal's colour is None)
    offered = [c.colour for c in ask.position.mission if c.colour is not None]
    if colour not in offered:
        shown = ", ".join(dict.fromkeys(offered))
        return (f"the Mission board has no {colour} caretaker card"
                + (f" (it has {shown})" if shown else " (it has no caretaker card)"))
    if not ask.position.supply.of(colour):
        return f"the supply has no {colour} token left"
    if check_room and not _fits_one_more(ask, colour):
        return f"no free space for {article(colour)} {colour} token: {ask.centre_text()}"
    return None


def _fits_one_more(ask: Ask, colour: str) -> bool:
    """A pool colour with 1 or 2 tokens has room in its space for one more."""
    return ask.room >= (1 if ask.me.pool.of(colour) % 3 == 0 else 0)


def house(ask: Ask, budget: int | None, check_room: bool, used: int = 0) -> Reason:
    card = ask.card(ask.a)
    if not card.is_animal:
        return (f"{card.id} is a caretaker card: caretakers are recruited by "
                f"colour (recruit {card.colour})")
    if card not in ask.position.mission:
        return f"{card.name} is not on the Mission board: {place_text(ask.position, card, ask.me.seat)}"
    if check_room and ask.room < 1:
        return f"no free space for an animal: {ask.centre_text()}"
    if budget is not None and card.capture > budget:
        limit = ask.me.capture_limit
        if used:
            return (f"{card.name}'s capture value {card.capture} would bring this "
                    f"turn's total to {used + card.capture}, over your capture limit {limit}")
        return f"{card.name}'s capture value {card.capture} is over your capture limit {limit}"
    return None


# -- the Conservation Center ---------------------------------------------------------

def own_animal(ask: Ask, index: int) -> AnimalView | str:
    """The AnimalView of card `index` on the seat's board, or why it is not."""
    card = ask.card(index)
    if not card.is_animal:
        return f"{card.id} is a caretaker card, not an animal"
    for animal in ask.me.board:
        if animal.card == card:
            return animal
    return f"{card.name} is not on your Conservation Center: {place_text(ask.position, card, ask.me.seat)}"


def _animals(ask: Ask, *indices: int) -> tuple[Reason, list[AnimalView]]:
    """The AnimalViews of the cards, or the first reason one is not yours
    (the views are read only when there is none)."""
    found = [own_animal(ask, i) for i in indices]
    return (next((f for f in found if isinstance(f, str)), None),
            cast("list[AnimalView]", found))


def protect(ask: Ask) -> Reason:
    why, (animal,) = _animals(ask, ask.a)
    if why:
        return why
    if ask.me.track >= TRACK_SIZE:
        return (f"your Reputation track is full ({TRACK_SIZE} Survival tokens): no "
                "animal can go to the protected area")
    if any(animal.on):
        return (f"{animal.card.name} carries {tokens_text(animal.on)}: only an "
                "animal with no token on it can be protected")
    return None


def _needs(animal: AnimalView, colour: str) -> Reason:
    """Why the animal cannot take one more token of `colour`, or None."""
    card = animal.card
    wanted = card.needs[TOKENS.index(colour)]
    if not wanted:
        return f"{card.name} needs no {colour}"
    if not animal.needs.of(colour):
        return f"{card.name} already carries the {wanted} {colour} it needs"
    return None


def assign(ask: Ask) -> Reason:
    colour = TOKENS[ask.x]
    why, (animal,) = _animals(ask, ask.a)
    if why:
        return why
    if colour == "S" and not ask.me.track:
        return "your Reputation track has no Survival token to assign"
    if colour != "S" and not ask.me.pool.of(colour):
        return f"your pool has no {colour}"
    return _needs(animal, colour)


def _movable(animal: AnimalView, colour: str) -> Reason:
    """Why a caretaker of `colour` cannot leave `animal` this turn, or None."""
    card = animal.card
    if not animal.on.of(colour):
        return f"{card.name} carries no {colour}"
    if not animal.movable.of(colour):
        return (f"the {colour} on {card.name} arrived this turn or has moved already: "
                "only tokens that were there at the start of the turn move, once each")
    return None


def move(ask: Ask) -> Reason:
    colour = TOKENS[ask.x]
    if colour == "S":
        return "Survival tokens never move from an animal: only caretakers do"
    if ask.a == ask.b:
        return "a move takes a token from one animal to another: name two animals"
    why, (source, target) = _animals(ask, ask.a, ask.b)
    return why or _movable(source, colour) or _needs(target, colour)


def unassign(ask: Ask) -> Reason:
    colour = TOKENS[ask.x]
    if colour == "S":
        return "Survival tokens never leave an animal: only caretakers go back to the pool"
    why, (animal,) = _animals(ask, ask.a)
    why = why or _movable(animal, colour)
    if why:
        return why
    if not _fits_one_more(ask, colour):
        return f"no free space in your pool for {article(colour)} {colour}: {ask.centre_text()}"
    return None


def release(ask: Ask) -> Reason:
    why, (animal,) = _animals(ask, ask.a)
    if why:
        return why
    if not animal.complete:
        return f"{animal.card.name} still needs {tokens_text(animal.needs)}"
    return None


# -- Training ---------------------------------------------------------------------------

def _spaces(count: int) -> int:
    return (count + 2) // 3


def trade(ask: Ask, x: int, y: int) -> Reason:
    """Why `train X Y` cannot be made now, or None."""
    cx, cy = TOKENS[x], TOKENS[y]
    if "S" in (cx, cy):
        return "Survival tokens do not train: only caretakers (C F P H) do"
    if x == y:
        return "a trade turns one colour into another: name two colours"
    if not ask.position.supply.of(cy):
        return f"the supply has no {cy} token left"
    cost, why = _trade_cost(ask, x, y)
    if why:
        return why
    have = ask.me.pool.of(cx)
    if not have:
        return f"your pool has no {cx}"
    if have < cost:
        return f"the trade {cx} -> {cy} costs {cost} {cx}; your pool has {have}"
    pool = ask.me.pool
    growth = (_spaces(pool.of(cx) - cost) - _spaces(pool.of(cx))
              + _spaces(pool.of(cy) + 1) - _spaces(pool.of(cy)))
    if growth > ask.room:
        return (f"no free space for {article(cy)} {cy} token: after the trade your "
                f"Center would use {ask.me.spaces_used + growth} of {ask.me.capacity} spaces")
    return None


def _trade_cost(ask: Ask, x: int, y: int) -> tuple[int, Reason]:
    """(cost in X, None), or (0, why the trade is not one the rules allow)."""
    turn, cx, cy = ask.position.turn, TOKENS[x], TOKENS[y]
    lo, hi = min(x, y), max(x, y)
    crossed = [f"{CARETAKERS[i]}|{CARETAKERS[i + 1]}" for i in range(lo, hi)]
    before = turn.trained_down if y > x else turn.trained_up
    again = [b for b in crossed if b in before]
    if again:
        way = "downwards" if y > x else "upwards"
        return 0, (f"the {again[0]} boundary was crossed {way} this turn: no boundary "
                   "is crossed both ways in one Training")
    if y < x:
        return 1, None
    if (cx, cy) in ask.me.effects.one_to_one:
        return 1, None
    if y == x + 1:
        return 2, None
    return 0, (f"{cx} trains up one tier at a time (2 {cx} -> 1 {CARETAKERS[x + 1]}); "
               f"{cx} -> {cy} needs an effect that allows it")


def no_trade(ask: Ask) -> Reason:
    """Why Training cannot be chosen (no trade is possible), or None."""
    pool = ask.me.pool
    if not any(pool):
        return "your pool has no caretaker to train"
    reasons = [trade(ask, x, y) for x in range(len(CARETAKERS)) if pool[x]
               for y in _natural_order(x)]
    if None in reasons:
        return None
    return f"no trade is possible with your pool ({tokens_text(pool)}): {reasons[0]}"


def _natural_order(x: int) -> list[int]:
    """The colours X trades to, the usual trades first (one tier up, one
    down), so that the reason given is about the trade a person means."""
    others = [y for y in range(len(CARETAKERS)) if y != x]
    return sorted(others, key=lambda y: (y != x + 1, y != x - 1, y))


