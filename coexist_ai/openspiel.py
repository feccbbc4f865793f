"""Coexist as an OpenSpiel game (the optional extra `[openspiel]`).

    import pyspiel
    import coexist_ai.openspiel      # registers "coexist" and "coexist_reference"

    game = pyspiel.load_game("coexist", {"players": 3, "seed": 7})
    state = game.new_initial_state()         # a chance node: the opening deal
    state.chance_outcomes()                  # [(card index, 1/n), ...]
    state.legal_actions()                    # dense ids, ascending
    state.observation_tensor(0), state.information_state_string(0)

The State wraps the engine's `State` with explicit chance: every card dealt
onto the Mission is a chance node whose outcomes are the cards of the draw
pile (outcome id = card index, uniform); player actions are the engine's
dense ids (`coexist_ai.action_id`; docs/formats.md "Actions"). Returns are
the engine's: zero-sum, (seats beaten - seats beating) / (players - 1) at
the end, 0 before.

Parameters: `players` (2-4), `seed` (draws the faunas when `faunas` is
empty; with explicit chance nothing else is random), `faunas` (by seat,
separated by ":" since OpenSpiel's game strings use commas, e.g.
"sea:air:forest"), `first_player`, `card_set` ("default" or a TOML path
without ",", "=" or parentheses, which game strings cannot hold).

Information. Every seat sees everything but the order of the draw pile, and
with explicit chance that order does not exist: the information state of a
seat is the public history, so `information_state_string` is that history
(every action, chance included, by id). The game is declared imperfect
information so that OpenSpiel's information-set algorithms (ISMCTS, CFR...)
accept it; its information sets are single histories. The position is Markov
(it holds all of the history the rules ever read), so the observation tensor
(coexist_ai.tensor) is also the information-state tensor: the history is
not in it, and two histories reaching one position share it.

"coexist_reference" is the same adapter over the pure-Python rules
(coexist_ai.reference.ReferenceState): the same actions and chance, for
benchmarks; it has no observations (only the information-state string).
"""
from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Union

import numpy as np
import pyspiel

from coexist_ai._engine import State, action_of_id, num_distinct_actions
from coexist_ai.bounds import max_chance_nodes, max_game_length
from coexist_ai.cards import CardSet, resolve_card_set
from coexist_ai.notation import action_to_move, make_action, split_action
from coexist_ai.play.render import render_position
from coexist_ai.tensor import ObservationEncoder
from coexist_ai.vocabulary import MAX_PLAYERS, MIN_PLAYERS, ActionKind

if TYPE_CHECKING:
    from coexist_ai.reference import ReferenceState

# what a _Play wraps: the engine's State or the reference's
Played = Union[State, "ReferenceState"]

FAUNA_SEPARATOR = ":"
# OpenSpiel's player ids (IntEnum members, which pyspiel does not type)
TERMINAL: int = pyspiel.PlayerId.TERMINAL
CHANCE: int = pyspiel.PlayerId.CHANCE
PARAMETERS = {"players": 2, "seed": 0, "faunas": "", "first_player": 0,
              "card_set": "default"}


def _game_type(short_name: str, long_name: str, observations: bool) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name, long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=MAX_PLAYERS, min_num_players=MIN_PLAYERS,
        provides_information_state_string=True,
        provides_information_state_tensor=observations,
        provides_observation_string=observations,
        provides_observation_tensor=observations,
        parameter_specification=PARAMETERS)


GAME_TYPE = _game_type("coexist", "Coexist", observations=True)
REFERENCE_GAME_TYPE = _game_type("coexist_reference",
                                 "Coexist (pure-Python reference rules)",
                                 observations=False)


# ---- the rules behind the adapter ---------------------------------------------

class _Rules:
    """What the adapter needs of one implementation of the rules, for one
    card set: the dense ids and reveals as action integers, both ways."""

    has_views = False

    def __init__(self, card_set: CardSet):
        self.card_set = card_set
        self.actions = [action_of_id(card_set, i)
                        for i in range(num_distinct_actions(card_set))]
        self.ids = {action: i for i, action in enumerate(self.actions)}
        self.reveals = [make_action(ActionKind.REVEAL, a=card)
                        for card in range(len(card_set.cards))]

    def action(self, position: Any, action_id: int) -> int:
        """The action integer of an OpenSpiel action at `position`."""
        table = self.reveals if position.is_chance_node() else self.actions
        return table[action_id]

    def chance_outcomes(self, position: Played) -> list[tuple[int, float]]:
        """[(card index, probability)] from the rules' own outcomes."""
        return [(split_action(a)[3], p) for a, p in position.chance_outcomes()]

    def new(self, players: int, faunas: list[str], first_player: int) -> Played:
        """The position at the start of a game (a chance node: the deal)."""
        raise NotImplementedError

    def legal_ids(self, position: Any) -> list[int]:
        """The OpenSpiel actions (dense ids, or card indices at chance)."""
        raise NotImplementedError

    def dump(self, position: Any) -> Any:
        """What pickles the position."""
        raise NotImplementedError

    def load(self, payload: Any) -> Played:
        """The position `dump` made `payload` of."""
        raise NotImplementedError


class EngineRules(_Rules):
    """The compiled engine, coexist_ai.State."""

    has_views = True

    def new(self, players: int, faunas: list[str], first_player: int) -> State:
        return State.new(self.card_set, players, faunas, first_player,
                         explicit_chance=True)

    def legal_ids(self, position: State) -> list[int]:
        return position.legal_action_ids()

    def dump(self, position: State) -> str:
        return position.to_json()

    def load(self, payload: str) -> State:
        return State.from_json(payload, self.card_set)


class ReferenceRules(_Rules):
    """The pure-Python rules, coexist_ai.reference.ReferenceState."""

    def new(self, players: int, faunas: list[str], first_player: int) -> ReferenceState:
        from coexist_ai.reference import ReferenceState
        # under explicit chance the deck's order is unused: its cards matter
        deck = [c.index for c in self.card_set.cards if c.fauna in faunas]
        return ReferenceState.new(self.card_set, players, faunas, first_player,
                                  deck, explicit_chance=True)

    def legal_ids(self, position: ReferenceState) -> list[int]:
        if position.is_chance_node():
            return [card for card, _ in self.chance_outcomes(position)]
        return [self.ids[a] for a in position.legal_actions()]

    def dump(self, position: ReferenceState) -> ReferenceState:
        return position      # a plain Python object: pickle takes it whole

    def load(self, payload: ReferenceState) -> ReferenceState:
        return payload


_RULES: dict[tuple[type[_Rules], str], _Rules] = {}


def rules_for(kind: type[_Rules], card_set: CardSet) -> _Rules:
    """One `kind` of rules per card set (their tables are built once)."""
    key = (kind, card_set.sha256)
    if key not in _RULES:
        _RULES[key] = kind(card_set)
    return _RULES[key]


class _Play:
    """The position a CoexistState wraps. OpenSpiel clones a Python state by
    deep-copying its attributes and serializes it by pickling them: this
    copies the position (a struct copy) and pickles it as text.

    `memo` keeps what was read of the position (tensors, texts): OpenSpiel's
    checks ask for each several times a move, and for the tensor of a fresh
    initial state whenever they need a tensor's size. States at the same
    position may share one memo; a move gives its state a new one."""

    __slots__ = ("rules", "position", "memo")

    def __init__(self, rules: _Rules, position: Played,
                 memo: dict[tuple[str, int], Any] | None = None):
        self.rules, self.position = rules, position
        self.memo: dict[tuple[str, int], Any] = {} if memo is None else memo

    def remember(self, key: tuple[str, int], compute: Any) -> Any:
        if key not in self.memo:
            self.memo[key] = compute()
        return self.memo[key]

    def apply(self, action: int) -> None:
        self.position.apply(action)
        self.memo = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Play:
        return _Play(self.rules, self.position.clone(), self.memo)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_load_play, (type(self.rules), self.rules.card_set,
                             self.rules.dump(self.position)))


def _load_play(kind: type[_Rules], card_set: CardSet, payload: Any) -> _Play:
    rules = rules_for(kind, card_set)
    return _Play(rules, rules.load(payload))


# ---- the game -------------------------------------------------------------------

# pyspiel has no types: its classes are Any to mypy
class CoexistGame(pyspiel.Game):  # type: ignore[misc]
    """Coexist with explicit chance, over the compiled engine."""

    rules_kind: type[_Rules] = EngineRules
    game_type = GAME_TYPE

    def __init__(self, params: dict[str, Any] | None = None):
        params = {**PARAMETERS, **(params or {})}
        card_set = resolve_card_set(str(params["card_set"]))
        self.rules = rules_for(self.rules_kind, card_set)
        self.players, self.first_player = int(params["players"]), int(params["first_player"])
        self.faunas = _faunas(card_set, self.players, str(params["faunas"]),
                              int(params["seed"]), self.first_player)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.rules.actions),
            max_chance_outcomes=len(card_set.cards),
            num_players=self.players, min_utility=-1.0, max_utility=1.0,
            utility_sum=0.0, max_game_length=max_game_length(card_set, self.players))
        super().__init__(self.game_type, info, params)
        self._initial = _Play(self.rules, self.rules.new(
            self.players, self.faunas, self.first_player))

    def new_initial_state(self) -> CoexistState:
        return CoexistState(self, copy.deepcopy(self._initial))

    def max_chance_nodes_in_history(self) -> int:
        return max_chance_nodes(self.rules.card_set, self.players)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> CoexistObserver:
        return CoexistObserver(self, iig_obs_type or pyspiel.IIGObservationType(
            perfect_recall=False), params)


class CoexistReferenceGame(CoexistGame):
    """The same game over the pure-Python reference rules."""

    rules_kind = ReferenceRules
    game_type = REFERENCE_GAME_TYPE


def _faunas(card_set: CardSet, players: int, named: str, seed: int,
            first_player: int) -> list[str]:
    """The faunas by seat: as named, or drawn from the seed by the engine."""
    faunas = [f.strip() for f in named.split(FAUNA_SEPARATOR) if f.strip()] or None
    probe = State.new(card_set, players, faunas, first_player, seed=seed,
                      explicit_chance=True)     # SetupError if impossible
    return [str(view.fauna) for view in probe.seats]


class CoexistState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state around an explicit-chance position."""

    def __init__(self, game: CoexistGame, play: _Play):
        super().__init__(game)
        self._cx = play

    @property
    def position(self) -> Any:
        """The wrapped position (coexist_ai.State, or a ReferenceState), to
        read: moves go through apply_action, which keeps OpenSpiel's history."""
        return self._cx.position

    def current_player(self) -> int:
        position = self._cx.position
        if position.is_over():
            return TERMINAL
        if position.is_chance_node():
            return CHANCE
        return position.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return self._cx.rules.legal_ids(self._cx.position)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._cx.rules.chance_outcomes(self._cx.position)

    def _apply_action(self, action: int) -> None:
        play = self._cx
        play.apply(play.rules.action(play.position, action))

    def _action_to_string(self, player: int, action: int) -> str:
        table = self._cx.rules.reveals if player == pyspiel.PlayerId.CHANCE \
            else self._cx.rules.actions
        return action_to_move(self._cx.rules.card_set, table[action])

    def is_terminal(self) -> bool:
        return self._cx.position.is_over()

    def returns(self) -> list[float]:
        return self._cx.position.returns()

    def resample_from_infostate(self, player: int, sampler: Any) -> CoexistState:
        # an information set is one public history: its only state is this one
        clone: CoexistState = self.clone()
        return clone

    def __str__(self) -> str:
        position = self._cx.position
        if isinstance(position, State):      # the engine's: it has views
            text: str = self._cx.remember(("text", -1), lambda: render_position(
                position.observation(position.turn_seat)))
            return text
        return f"{position!r} after {history_text(self)}"


def history_text(state: pyspiel.State) -> str:
    """The history as OpenSpiel writes it: action ids, comma separated."""
    return ", ".join(map(str, state.history()))


class CoexistObserver:
    """OpenSpiel's observer: the observation (text and tensor) and, with
    perfect recall, the information state (the public history, and the same
    Markov tensor). Coexist has no private information, so an observation
    type without the public information is refused."""

    def __init__(self, game: CoexistGame, iig_obs_type: Any,
                 params: dict[str, Any] | None):
        if params:
            raise ValueError(f"observation parameters are not supported: {params!r}")
        if not iig_obs_type.public_info:
            raise ValueError("Coexist has no private information: every "
                             "observation is public")
        self.perfect_recall = iig_obs_type.perfect_recall
        self._encoder = None
        if game.rules.has_views:
            self._encoder = ObservationEncoder(game.rules.card_set)
        elif not self.perfect_recall:
            raise ValueError(f"{game.game_type.short_name!r} has no observations; "
                             "use 'coexist'")
        self.tensor = None if self._encoder is None else self._encoder.tensor
        self.dict = {} if self._encoder is None else self._encoder.dict

    def set_from(self, state: CoexistState, player: int) -> None:
        encoder = self._encoder
        if encoder is not None:      # its tensor is self.tensor
            np.copyto(encoder.tensor, state._cx.remember(
                ("tensor", player), lambda: encoder.encode(state.position, player)))

    def string_from(self, state: CoexistState, player: int) -> str:
        if self.perfect_recall:
            return history_text(state)
        text: str = state._cx.remember(("text", player), lambda: render_position(
            state.position.observation(player), you=player))
        return text


pyspiel.register_game(GAME_TYPE, CoexistGame)
pyspiel.register_game(REFERENCE_GAME_TYPE, CoexistReferenceGame)
