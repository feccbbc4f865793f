"""`ReferenceState`: a whole game of Coexist in plain Python.

The position is kept as RULES.md describes it: a supply, a Mission board in
reveal order, a draw pile, and per seat a pool, a board of animals with the
tokens on them, a Reputation track and the cards won. A move is applied in
`apply`; the turn's flow (start-of-turn effects, the option, the effect of a
release, the end-of-turn discards, the refill, the hand-over, the end of the
game) lives in the methods below it, in the order a turn meets them.

With ``explicit_chance=True`` the refill does not take the draw pile's next
card: the state becomes a chance node (`current_player == CHANCE_PLAYER`,
phase ``"refill"``) whose outcomes are the cards still in the pile, each
revealed by the action ``reveal_action(card)``.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from coexist_ai.cards import FAUNAS
from coexist_ai.errors import IllegalMoveError, SetupError
from coexist_ai.reference import moves, scoring
from coexist_ai.reference.actions import (
    APPLY, ASSIGN, CARETAKERS, CENTER, DISCARD_ANIMAL, DISCARD_TOKEN, END,
    HOUSE, MOVE, PASS, PROTECT, RECRUIT, RELEASE, REVEAL, S, SKIP, TRAIN,
    TRAIN_START, UNASSIGN, fields, move_name)
from coexist_ai.reference.board import (TRACK_SIZE, CardTable, EffectTuple, Seat, Slot,
                                        card_table)

if TYPE_CHECKING:
    from coexist_ai.cards import CardSet

CHANCE_PLAYER = -1           # current_player of a chance node (as OpenSpiel)
MISSION_SIZE = 5
SUPPLY = (28, 24, 20, 20, 32)  # C F P H S: the totals never change
PHASES = ("start", "choose", "recruit", "house", "center", "train", "effect",
          "discard", "over", "refill")


class ReferenceState:
    """A full position (draw pile included) and the moves that change it."""

    __slots__ = ("table", "seats", "first_player", "turn_seat", "phase",
                 "end_triggered", "rounds", "supply", "mission", "draw_pile",
                 "discard", "explicit_chance", "opening", "step", "capture_used",
                 "trained_up", "trained_down", "effect_card", "_legal")
    table: CardTable
    seats: list[Seat]
    first_player: int
    turn_seat: int
    phase: str                       # one of PHASES
    end_triggered: bool
    rounds: int
    supply: list[int]                # by colour C F P H S
    mission: list[int]               # cards, in reveal order
    draw_pile: list[int]             # cards, next first (sorted: explicit chance)
    discard: list[int]
    explicit_chance: bool
    opening: bool                    # explicit chance: the opening deal is on
    step: int
    capture_used: int
    trained_up: set[int]             # tier boundaries crossed this turn
    trained_down: set[int]
    effect_card: int | None          # the animal whose effect is asked
    _legal: list[int] | None         # the legal actions, once listed

    # ---- setting up ---------------------------------------------------------
    @classmethod
    def new(cls, card_set: CardSet, players: int, faunas: Iterable[str | int],
            first_player: int, deck: Iterable[str | int],
            explicit_chance: bool = False) -> ReferenceState:
        """A new game: `deck` is the full initial order of the draw pile
        (card indices or ids), dealt from the front, five face up. With
        explicit chance every card dealt, the opening five included, is a
        chance node's outcome instead (the deck's order is then unused)."""
        names = _check_setup(card_set, players, faunas, first_player)
        order = _check_deck(card_set, names, deck)
        st = cls.__new__(cls)
        st.table = card_table(card_set)
        st.seats = [Seat(fauna) for fauna in names]
        st.first_player = st.turn_seat = first_player
        st.end_triggered, st.rounds = False, 0
        st.supply = list(SUPPLY)
        # the opening deal never triggers the end (docs/rules.md choice 1)
        st.discard = []
        st.explicit_chance = st.opening = explicit_chance
        if explicit_chance:
            st.mission, st.draw_pile = [], sorted(order)
            st.step, st.capture_used, st.effect_card = 0, 0, None
            st.trained_up, st.trained_down, st._legal = set(), set(), None
            st.phase = "refill"
        else:
            st.mission, st.draw_pile = order[:MISSION_SIZE], order[MISSION_SIZE:]
            st._begin_turn()
        return st

    def clone(self) -> ReferenceState:
        other = ReferenceState.__new__(ReferenceState)
        for name in ("table", "first_player", "turn_seat", "phase",
                     "end_triggered", "rounds", "explicit_chance", "opening", "step",
                     "capture_used", "effect_card", "_legal"):
            setattr(other, name, getattr(self, name))
        other.seats = [seat.clone() for seat in self.seats]
        for name in ("supply", "mission", "draw_pile", "discard"):
            setattr(other, name, getattr(self, name)[:])
        other.trained_up = set(self.trained_up)
        other.trained_down = set(self.trained_down)
        return other

    # ---- reading ------------------------------------------------------------
    @property
    def card_set(self) -> CardSet:
        return self.table.card_set

    @property
    def num_players(self) -> int:
        return len(self.seats)

    @property
    def current_player(self) -> int:
        """The seat to move; CHANCE_PLAYER at a chance node; once the game
        is over, the last seat that moved (as the C engine)."""
        return CHANCE_PLAYER if self.phase == "refill" else self.turn_seat

    @property
    def seat(self) -> Seat:
        """The Seat whose turn it is."""
        return self.seats[self.turn_seat]

    def is_over(self) -> bool:
        return self.phase == "over"

    def is_chance_node(self) -> bool:
        return self.phase == "refill"

    def legal_actions(self) -> list[int]:
        """Ascending action integers (reveal actions at a chance node)."""
        if self._legal is None:
            self._legal = moves.legal_actions(self)
        return self._legal[:]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """[(reveal action, probability)]: each card of the draw pile,
        uniformly, in ascending card index. The card is `action & 255`."""
        if not self.is_chance_node():
            raise ValueError(f"not a chance node (phase {self.phase!r})")
        outcomes = self.legal_actions()
        return [(act, 1.0 / len(outcomes)) for act in outcomes]

    def move_name(self, act: int) -> str:
        return move_name(self.card_set, act)

    def legal_moves(self) -> list[str]:
        return [self.move_name(act) for act in self.legal_actions()]

    def scores(self) -> list[int]:
        return scoring.scores(self)

    def ranks(self) -> list[int]:
        return scoring.ranks(self)

    def returns(self) -> list[float]:
        return scoring.returns(self)

    def __repr__(self) -> str:
        return (f"<ReferenceState {len(self.seats)} players, round "
                f"{self.rounds}, seat {self.turn_seat} in {self.phase!r}>")

    # ---- playing ------------------------------------------------------------
    def apply(self, act: int) -> None:
        """Play a legal action; IllegalMoveError (state unchanged) otherwise."""
        legal = self.legal_actions()
        if act not in legal:
            raise self._illegal(act, legal)
        self._legal = None
        kind, x, y, a, b = fields(act)
        _APPLY[kind](self, x, y, a, b)

    def _illegal(self, act: int, legal: list[int]) -> IllegalMoveError:
        try:
            name = repr(self.move_name(act))
        except ValueError:
            name = repr(act)
        listed = ", ".join(map(self.move_name, legal)) or "(none: the game is over)"
        return IllegalMoveError(f"illegal move {name} in the {self.phase!r} "
                                f"decision. Legal moves: {listed}")

    def _gain(self, colour: int, n: int) -> None:
        """Take up to n tokens of a caretaker colour into the pool."""
        n = min(n, self.supply[colour])
        self.supply[colour] -= n
        self.seat.pool[colour] += n

    def _return_tokens(self, slot: Slot) -> None:
        for colour, n in enumerate(slot.on):
            self.supply[colour] += n

    # start of turn ------------------------------------------------------------
    def _begin_turn(self) -> None:
        for slot in self.seat.board:           # the anti-cycle counts
            slot.movable = slot.on[:4]
        self.step, self.capture_used, self.effect_card = 0, 0, None
        self.trained_up, self.trained_down = set(), set()
        self._legal = None
        self._ask_start_recruit()

    def _ask_start_recruit(self) -> None:
        """Ask the next start_recruit whose colour the supply has (docs/
        rules.md choice 3); then the option of the turn."""
        colours = self.seat.start_recruit
        while self.step < len(colours) and not self.supply[colours[self.step]]:
            self.step += 1
        self.phase = "start" if self.step < len(colours) else "choose"

    def _start_apply(self) -> None:
        self._gain(self.seat.start_recruit[self.step], 1)
        self._start_skip()

    def _start_skip(self) -> None:
        self.step += 1
        self._ask_start_recruit()

    # the option: Mission ----------------------------------------------------
    def _recruit(self, colour: int) -> None:
        table = self.table
        card = next(c for c in self.mission
                    if not table.is_animal[c] and table.colour[c] == colour)
        self.mission.remove(card)
        self.discard.append(card)
        self._gain(colour, 1)
        if self.phase == "effect":             # recruit_mission
            self.step += 1
        else:
            self.phase = "recruit"

    def _house(self, card: int) -> None:
        self.mission.remove(card)
        self.seat.board.append(Slot(card))
        if self.phase == "effect":             # house_one: no capture total
            self.phase = "center"
        else:
            self.capture_used += self.table.capture[card]
            self.phase = "house"

    # the option: Conservation Center ----------------------------------------
    def _protect(self, card: int) -> None:
        seat, gain = self.seat, self.table.protect[card]
        seat.remove_slot(card)
        seat.protected.append(card)
        for colour in CARETAKERS:              # double_protect doubles first
            self._gain(colour, gain[colour] << seat.double_protect[colour])
        survival = max(0, gain[S] - seat.skip_survival)
        survival = min(survival, TRACK_SIZE - seat.track, self.supply[S])
        seat.track += survival
        self.supply[S] -= survival

    def _assign(self, colour: int, card: int) -> None:
        seat = self.seat
        if colour == S:                        # the rightmost track token
            seat.track -= 1
        else:
            seat.pool[colour] -= 1
        seat.slot_of(card).on[colour] += 1

    def _move(self, colour: int, source: int, target: int) -> None:
        seat = self.seat
        slot = seat.slot_of(source)
        slot.on[colour] -= 1
        slot.movable[colour] -= 1
        seat.slot_of(target).on[colour] += 1

    def _unassign(self, colour: int, card: int) -> None:
        slot = self.seat.slot_of(card)
        slot.on[colour] -= 1
        slot.movable[colour] -= 1
        self.seat.pool[colour] += 1

    def _release(self, card: int) -> None:
        seat, table = self.seat, self.table
        self._return_tokens(seat.remove_slot(card))
        seat.released.append(card)
        if len(seat.released) >= table.release_goal:
            self.end_triggered = True
        effect = table.effect[card]
        if effect is None:
            return
        seat.own_effect(effect)                # permanent: on from now
        if self._effect_changes_something(effect):
            self.phase, self.effect_card, self.step = "effect", card, 0

    def _effect_changes_something(self, effect: EffectTuple) -> bool:
        """Whether an immediate effect is asked (docs/rules.md choice 4)."""
        kind, colour = effect[0], effect[1]
        track = self.seat.track
        if kind == "discard_survival":
            return track > 0
        if kind == "recruit_two":
            return self.supply[colour] > 0
        if kind == "house_one":
            return any(self.table.is_animal[c] for c in self.mission)
        if kind == "recruit_mission":
            return bool(moves.recruit_actions(self, anywhere=True))
        if kind == "discard_survival_recruit":
            return track > 0 or self.supply[colour] > 0
        return False                           # permanent effects

    def asked_effect(self) -> EffectTuple:
        """The effect of the animal just released (phase "effect")."""
        effect = None if self.effect_card is None else self.table.effect[self.effect_card]
        if effect is None:
            raise ValueError(f"no effect is asked in the {self.phase!r} decision")
        return effect

    def _effect_apply(self) -> None:
        kind, colour, amount = self.asked_effect()[:3]
        seat = self.seat
        if kind == "discard_survival":
            removed = min(amount, seat.track)
            seat.track -= removed
            self.supply[S] += removed
        elif kind == "recruit_two":
            self._gain(colour, 2)
        elif kind == "discard_survival_recruit":
            if seat.track:
                seat.track -= 1
                self.supply[S] += 1
            self._gain(colour, 1)
        self.phase = "center"

    # the option: Training -------------------------------------------------
    def _start_training(self) -> None:
        self.phase, self.step = "train", 0
        self.trained_up, self.trained_down = set(), set()

    def _train(self, x: int, y: int) -> None:
        seat = self.seat
        cost = moves.trade_cost(seat, x, y)
        assert cost is not None, "apply() offers only trades that exist"
        seat.pool[x] -= cost
        self.supply[x] += cost
        self._gain(y, 1)
        crossed = self.trained_up if y > x else self.trained_down
        crossed.update(moves.crossed_boundaries(x, y))
        self.step += 1

    # end of turn --------------------------------------------------------------
    def _end(self) -> None:
        if self.phase == "effect":             # recruit_mission is done
            self.phase = "center"
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        if self.seat.over_capacity(self.table):
            self.phase = "discard"
        else:
            self._refill()

    def _discard_token(self, colour: int) -> None:
        self.seat.pool[colour] -= 1
        self.supply[colour] += 1
        self._end_turn()

    def _discard_animal(self, card: int) -> None:
        self._return_tokens(self.seat.remove_slot(card))
        self.discard.append(card)
        self._end_turn()

    def _refill(self) -> None:
        while len(self.mission) < MISSION_SIZE and self.draw_pile:
            if self.explicit_chance:
                self.phase = "refill"
                return
            self._reveal(self.draw_pile[0])
        self._hand_over()

    def _reveal(self, card: int) -> None:
        self.draw_pile.remove(card)
        self.mission.append(card)
        if not self.draw_pile:
            self.end_triggered = True

    def _chance_reveal(self, card: int) -> None:
        self._reveal(card)
        if not self.opening:
            self._refill()
        elif len(self.mission) == MISSION_SIZE or not self.draw_pile:
            # the opening deal: it never triggers the end, then the first
            # seat's turn begins
            self.opening, self.end_triggered = False, False
            self._begin_turn()

    def _hand_over(self) -> None:
        """The next seat plays; the game ends with a round, once the end is
        triggered or the safeguard's rounds are played."""
        self.seat.turns += 1
        following = (self.turn_seat + 1) % len(self.seats)
        if following == self.first_player:
            self.rounds += 1
            if self.end_triggered or self.rounds >= self.table.max_rounds:
                self.phase = "over"
                return
        self.turn_seat = following
        self._begin_turn()


# a move's handler: (state, x, y, a, b), the fields of its action integer
_Handler = Callable[[ReferenceState, int, int, int, int], None]


def _by_phase(**handlers: Callable[[ReferenceState], None]) -> _Handler:
    """A handler that calls the one named after the state's phase."""
    def handle(st: ReferenceState, x: int, y: int, a: int, b: int) -> None:
        handlers[st.phase](st)
    return handle


# kind -> handler(state, x, y, a, b); apply() has checked legality
_APPLY: dict[int, _Handler] = {
    PASS: lambda st, x, y, a, b: st._end_turn(),
    END: lambda st, x, y, a, b: st._end(),
    CENTER: lambda st, x, y, a, b: setattr(st, "phase", "center"),
    TRAIN_START: lambda st, x, y, a, b: st._start_training(),
    APPLY: _by_phase(start=ReferenceState._start_apply,
                     effect=ReferenceState._effect_apply),
    SKIP: _by_phase(start=ReferenceState._start_skip,
                    effect=lambda st: setattr(st, "phase", "center")),
    RECRUIT: lambda st, x, y, a, b: st._recruit(x),
    HOUSE: lambda st, x, y, a, b: st._house(a),
    PROTECT: lambda st, x, y, a, b: st._protect(a),
    ASSIGN: lambda st, x, y, a, b: st._assign(x, a),
    MOVE: lambda st, x, y, a, b: st._move(x, a, b),
    UNASSIGN: lambda st, x, y, a, b: st._unassign(x, a),
    RELEASE: lambda st, x, y, a, b: st._release(a),
    TRAIN: lambda st, x, y, a, b: st._train(x, y),
    DISCARD_TOKEN: lambda st, x, y, a, b: st._discard_token(x),
    DISCARD_ANIMAL: lambda st, x, y, a, b: st._discard_animal(a),
    REVEAL: lambda st, x, y, a, b: st._chance_reveal(a),
}


def _check_setup(card_set: CardSet, players: int, faunas: Iterable[str | int],
                 first_player: int) -> list[str]:
    """The faunas as names, after checking players, faunas, first player."""
    if players not in (2, 3, 4):
        raise SetupError(f"players {players!r}: must be 2, 3 or 4")
    faunas = list(faunas)
    known = card_set.faunas()
    names = [FAUNAS[f] if isinstance(f, int) and 0 <= f < len(FAUNAS) else f
             for f in faunas]
    if len(names) != players or len(set(names)) != players or \
            not set(names) <= set(known):
        raise SetupError(f"faunas {faunas!r}: expected {players} distinct "
                         f"faunas among {', '.join(known)}")
    if first_player not in range(players):
        raise SetupError(f"first player {first_player!r}: must be a seat "
                         f"(0..{players - 1})")
    return [str(name) for name in names]       # each is among `known`, a name


def _check_deck(card_set: CardSet, faunas: Sequence[str],
                deck: Iterable[str | int]) -> list[int]:
    """The deck as card indices; it must hold every card of the chosen
    faunas exactly once."""
    order = [card_set.index_of(c) if isinstance(c, str) else c for c in deck]
    expected = sorted(c.index for c in card_set.cards if c.fauna in faunas)
    if sorted(order) != expected:
        raise SetupError("deck: the order must list every card of the faunas "
                         f"{', '.join(faunas)} exactly once")
    return order
