"""The game's vocabulary, as the compiled engine defines it.

Every code and limit comes from csrc/cx_types.h through the binding
(coexist_ai._engine); this module only gives the codes their Python names.
The named things of the game are string enums whose values are the names
used in JSON, notation and card-set files (``Phase.CENTER == "center"``,
``Colour.C == "C"``), each with its engine code (``Phase.CENTER.code``);
``Phase.of(4)`` goes back. Action kinds are integers (they are packed into
action integers). tests/test_vocabulary.py checks that each enum names
every code of its C enum, and nothing else.
"""
from __future__ import annotations

from enum import Enum, IntEnum, StrEnum, auto
from typing import TypeVar

from coexist_ai import _engine as _e

__all__ = [
    "Colour", "Fauna", "Phase", "EffectKind", "Location", "ActionKind",
    "CARETAKERS", "TOKENS", "EFFECT_PARAMETERS", "IMMEDIATE_EFFECTS", "SUPPLY_START", "TRACK_POINTS",
    "MAX_PLAYERS", "MIN_PLAYERS", "MAX_CARDS", "MISSION_SIZE", "TRACK_SIZE",
    "MAX_BOARD", "MAX_START_RECRUIT", "MAX_ACTIONS", "MAX_SPACES", "MAX_ROUNDS",
    "MAX_PROTECT", "MAX_CAPTURE", "CHANCE_PLAYER",
]

_Named = TypeVar("_Named", bound="_Coded")


class _Coded(StrEnum):
    """A string enum whose members also carry the engine's integer code;
    auto() values are the member's name in lower case."""

    @property
    def code(self) -> int:
        """The engine's integer for this member (csrc/cx_types.h)."""
        return _CODES[type(self)][self]

    @classmethod
    def of(cls: type[_Named], code: int) -> _Named:
        """The member with engine code `code` (ValueError if none)."""
        for member, value in _CODES[cls].items():
            if value == code:
                return member  # type: ignore[return-value]
        raise ValueError(f"{code!r} is not the code of a {cls.__name__}")


class Colour(_Coded):
    """Token colours: the caretakers from the lowest tier up, then Survival."""
    C = "C"   # Congener
    F = "F"   # Water/Food
    P = "P"   # Protection
    H = "H"   # Habitat
    S = "S"   # Survival token


class Fauna(_Coded):
    """The four faunas, which are also the seats' specialties."""
    FOREST = auto()
    AIR = auto()
    SEA = auto()
    SAVANNAH = auto()


class Phase(_Coded):
    """The decision in front of the seat to move."""
    START = auto()            # start_recruit effects: apply or skip
    CHOOSE = auto()           # the option of the turn
    RECRUIT = auto()          # Mission A after the first recruit
    HOUSE = auto()            # Mission B after the first house
    CENTER = auto()           # Conservation Center actions
    TRAIN = auto()            # Training trades
    EFFECT = auto()           # the immediate effect of an animal just released
    DISCARD = auto()          # end of turn, over capacity
    OVER = auto()             # the game has ended
    REFILL = auto()           # explicit chance only: a Mission card is revealed


class EffectKind(_Coded):
    """What an animal does once released (RULES.md "Effects")."""
    NONE = auto()
    START_RECRUIT = auto()
    CAPTURE_BONUS = auto()
    DISCARD_SURVIVAL = auto()
    RECRUIT_TWO = auto()
    HOUSE_ONE = auto()
    RECRUIT_MISSION = auto()
    DISCARD_SURVIVAL_RECRUIT = auto()
    EXTRA_SPACE = auto()
    DOUBLE_PROTECT = auto()
    SKIP_SURVIVAL = auto()
    TRAIN_ONE_TO_ONE = auto()


class Location(_Coded):
    """Where a card is; the last three belong to a seat."""
    OUT = auto()              # not in this game (its fauna was not chosen)
    DECK = auto()             # in the draw pile
    MISSION = auto()          # face up on the Mission board
    DISCARD = auto()          # the discard pile
    BOARD = auto()            # on a seat's Conservation Center
    RELEASED = auto()         # released by a seat
    PROTECTED = auto()        # in the common protected area, put there by a seat


class ActionKind(IntEnum):
    """Kinds of move, as packed into bits 22..26 of an action integer."""
    PASS = _e.cx_action_kind.CX_A_PASS
    END = _e.cx_action_kind.CX_A_END
    CENTER = _e.cx_action_kind.CX_A_CENTER
    TRAIN_START = _e.cx_action_kind.CX_A_TRAIN_START
    APPLY = _e.cx_action_kind.CX_A_APPLY
    SKIP = _e.cx_action_kind.CX_A_SKIP
    RECRUIT = _e.cx_action_kind.CX_A_RECRUIT
    HOUSE = _e.cx_action_kind.CX_A_HOUSE
    PROTECT = _e.cx_action_kind.CX_A_PROTECT
    ASSIGN = _e.cx_action_kind.CX_A_ASSIGN
    MOVE = _e.cx_action_kind.CX_A_MOVE
    UNASSIGN = _e.cx_action_kind.CX_A_UNASSIGN
    RELEASE = _e.cx_action_kind.CX_A_RELEASE
    TRAIN = _e.cx_action_kind.CX_A_TRAIN
    DISCARD_TOKEN = _e.cx_action_kind.CX_A_DISCARD_TOKEN
    DISCARD_ANIMAL = _e.cx_action_kind.CX_A_DISCARD_ANIMAL
    REVEAL = _e.cx_action_kind.CX_A_REVEAL   # chance: a card comes onto the Mission


# the C enum each string enum names, and the prefix of its C names
_C_ENUMS: dict[type[_Coded], tuple[type[Enum], str]] = {
    Colour: (_e.cx_colour, "CX_"), Fauna: (_e.cx_fauna, "CX_"),
    Phase: (_e.cx_phase, "CX_PH_"), EffectKind: (_e.cx_effect_kind, "CX_EFF_"),
    Location: (_e.cx_location, "CX_LOC_"),
}
_CODES: dict[type[_Coded], dict[_Coded, int]] = {
    named: {named[c.name.removeprefix(prefix)]: int(c.value) for c in c_enum}
    for named, (c_enum, prefix) in _C_ENUMS.items()
}

CARETAKERS: tuple[Colour, ...] = tuple(Colour)[:_e.NUM_CARETAKERS]
TOKENS: tuple[Colour, ...] = tuple(Colour)[:_e.NUM_TOKENS]

# the parameter names each effect kind takes, from the engine's table
_PARAMETER_NAMES = ((_e.cx_effect_parameter.CX_PARAM_COLOUR, ("colour",)),
                    (_e.cx_effect_parameter.CX_PARAM_AMOUNT, ("amount",)),
                    (_e.cx_effect_parameter.CX_PARAM_PAIR, ("from", "to")))
EFFECT_PARAMETERS: dict[EffectKind, tuple[str, ...]] = {
    kind: tuple(name for bit, names in _PARAMETER_NAMES
                if _e.EFFECT_PARAMETERS[kind.code] & bit for name in names)
    for kind in EffectKind if kind is not EffectKind.NONE
}

# the kinds that act once, right after the release; the others are permanent
IMMEDIATE_EFFECTS: frozenset[EffectKind] = frozenset(
    kind for kind in EffectKind if _e.EFFECT_IMMEDIATE[kind.code])

SUPPLY_START: dict[Colour, int] = dict(zip(TOKENS, _e.SUPPLY_START))
TRACK_POINTS: tuple[int, ...] = tuple(_e.TRACK_POINTS)   # spaces 1..8

MAX_PLAYERS: int = _e.MAX_PLAYERS
MIN_PLAYERS: int = _e.MIN_PLAYERS
MAX_CARDS: int = _e.MAX_CARDS
MISSION_SIZE: int = _e.MISSION_SIZE
TRACK_SIZE: int = _e.TRACK_SIZE
MAX_BOARD: int = _e.MAX_BOARD
MAX_START_RECRUIT: int = _e.MAX_START_RECRUIT
MAX_ACTIONS: int = _e.MAX_ACTIONS
MAX_SPACES: int = _e.MAX_SPACES
MAX_ROUNDS: int = _e.MAX_ROUNDS
MAX_PROTECT: int = _e.MAX_PROTECT
MAX_CAPTURE: int = _e.MAX_CAPTURE
CHANCE_PLAYER: int = _e.CHANCE_PLAYER   # current_player at a chance node
