"""Typed, read-only views of a position: what a frontend or a researcher
reads, built from the public part of the engine's state (the draw pile's
order is never in them).

    st = State.new(players=2, seed=7)
    st.mission                    # (Card, ...) in reveal order
    st.supply.C                   # tokens left in the supply
    seat = st.seat(0)             # SeatView
    seat.board[0].needs           # what that animal still needs, by colour
    st.location(card)             # Place(Location.MISSION, None)

Positions build these on request (`Position.seats`, `.seat(i)`, `.turn`,
`.supply`, ...); each is a frozen value that does not change with the
position it came from.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from coexist_ai.vocabulary import CARETAKERS, TOKENS, Colour, Fauna, Location

if TYPE_CHECKING:
    from coexist_ai._engine import Position
    from coexist_ai.cards import Card, CardSet

# the tier boundaries of Training, bit i of train_up/train_down: i | i+1
BOUNDARIES: tuple[str, ...] = tuple(f"{a}|{b}" for a, b in zip(CARETAKERS, CARETAKERS[1:]))


class Tokens(NamedTuple):
    """Counts of the five token colours."""
    C: int
    F: int
    P: int
    H: int
    S: int

    def of(self, colour: Colour | str) -> int:
        """The count of one colour."""
        return int(getattr(self, Colour(colour).value))


class Caretakers(NamedTuple):
    """Counts of the four caretaker colours (a pool, anti-cycle counts)."""
    C: int
    F: int
    P: int
    H: int

    def of(self, colour: Colour | str) -> int:
        return int(getattr(self, Colour(colour).value))


class AnimalView(NamedTuple):
    """An animal on a Conservation Center and the tokens on it."""
    card: Card
    on: Tokens           # tokens it carries
    needs: Tokens        # tokens it still needs before it can be released
    movable: Caretakers  # of `on`, those that may still move this turn

    @property
    def complete(self) -> bool:
        """It carries everything it needs: it can be released."""
        return not any(self.needs)


class OwnedEffects(NamedTuple):
    """The permanent effects a seat owns (from the animals it released)."""
    start_recruit: tuple[Colour, ...]   # in the order released (asked so)
    capture_bonus: int                  # added to the capture limit
    extra_spaces: int                   # added to the capacity
    skip_survival: int                  # Survival tokens fewer per protect
    double_protect: Caretakers          # doublings per colour
    one_to_one: tuple[tuple[Colour, Colour], ...]   # (from, to) at 1:1


class Score(NamedTuple):
    """A seat's score so far, as the end of the game would count it."""
    conservation: int
    reputation: int
    specialty: int

    @property
    def total(self) -> int:
        return self.conservation + self.reputation + self.specialty

    def as_dict(self) -> dict[str, int]:
        """The parts and the total, as game records write them."""
        return {"conservation": self.conservation, "reputation": self.reputation,
                "specialty": self.specialty, "total": self.total}


class Place(NamedTuple):
    """Where a card is: the place, and the seat for board, released and
    protected (None otherwise)."""
    location: Location
    seat: int | None


@dataclass(frozen=True)
class SeatView:
    """Everything public about one seat."""
    seat: int
    fauna: Fauna                 # its specialty
    turns: int                   # turns it has completed
    track: int                   # Survival tokens on its Reputation track
    pool: Caretakers             # unassigned caretakers
    board: tuple[AnimalView, ...]   # its animals, in the order housed
    released: tuple[Card, ...]   # animals it released, in card-set order
    protected: tuple[Card, ...]  # animals it put in the protected area
    effects: OwnedEffects
    spaces_used: int
    capacity: int
    capture_limit: int           # for Mission B, with its track and bonuses
    score: Score                 # its score if the game ended now


@dataclass(frozen=True)
class TurnView:
    """The scratch of the turn in progress."""
    step: int                    # start: next effect; train: trades; effect: picks
    capture_used: int            # house: capture value housed this turn
    trained_up: tuple[str, ...]  # train: boundaries crossed upwards ("C|F")
    trained_down: tuple[str, ...]
    effect_card: Card | None     # effect: the animal just released


def _tokens(values: list[int]) -> Tokens:
    return Tokens(*values[:len(TOKENS)])


def _caretakers(values: list[int]) -> Caretakers:
    return Caretakers(*values[:len(CARETAKERS)])


def _animal(card_set: CardSet, slot: dict[str, Any]) -> AnimalView:
    card = card_set.cards[slot["card"]]
    on = _tokens(slot["on"])
    needs = Tokens(*(max(0, want - have) for want, have in zip(card.needs, on)))
    return AnimalView(card, on, needs, _caretakers(slot["movable"]))


def _effects(player: dict[str, Any]) -> OwnedEffects:
    order = tuple(CARETAKERS[c] for c in player["start_recruit"][:player["n_start_recruit"]])
    pairs = tuple((CARETAKERS[f], CARETAKERS[t]) for f in range(len(CARETAKERS))
                  for t in range(len(CARETAKERS)) if player["one_to_one"][f] >> t & 1)
    return OwnedEffects(order, player["capture_bonus"], player["extra_spaces"],
                        player["skip_survival"], _caretakers(player["double_protect"]),
                        pairs)


def cards_at(position: Position, raw: dict[str, Any], location: Location,
             seat: int | None = None) -> tuple[Card, ...]:
    """The cards in one place, in card-set order."""
    code = location.code + (seat or 0)
    return tuple(c for c in position.card_set.cards if raw["loc"][c.index] == code)


def seat_view(position: Position, raw: dict[str, Any], seat: int,
              score: Score) -> SeatView:
    player = raw["players"][seat]
    cs = position.card_set
    return SeatView(
        seat=seat, fauna=Fauna.of(player["fauna"]), turns=player["turns"],
        track=player["track"], pool=_caretakers(player["pool"]),
        board=tuple(_animal(cs, sl) for sl in player["board"][:player["n_board"]]),
        released=cards_at(position, raw, Location.RELEASED, seat),
        protected=cards_at(position, raw, Location.PROTECTED, seat),
        effects=_effects(player), spaces_used=position.spaces_used(seat),
        capacity=position.capacity(seat), capture_limit=position.capture_limit(seat),
        score=score)


def _crossed(mask: int) -> tuple[str, ...]:
    return tuple(b for i, b in enumerate(BOUNDARIES) if mask >> i & 1)


def turn_view(position: Position, raw: dict[str, Any]) -> TurnView:
    effect = position.card_set.cards[raw["effect_card"]] if position.phase == "effect" else None
    return TurnView(raw["step"], raw["capture_used"], _crossed(raw["train_up"]),
                    _crossed(raw["train_down"]), effect)


def place_of(code: int) -> Place:
    """The Place of a location code (cx_location, + seat)."""
    board = Location.BOARD.code
    if code < board:
        return Place(Location.of(code), None)
    per_seat = Location.RELEASED.code - board
    return Place(Location.of(board + (code - board) // per_seat * per_seat),
                 (code - board) % per_seat)
