"""coexist-ai: AI opponents and a tournament harness for the card game Coexist.

The rules engine is compiled (csrc/); `State` is a full position (a
referee's view), `Observation` what a seat may see, both read through typed
views (coexist_ai.views) in the game's vocabulary (coexist_ai.vocabulary).
Card sets load from TOML (`load_card_set`); the default set is our own,
*reconstructed* one.
"""
from coexist_ai._engine import (Observation, State, action_id, action_of_id,
                                num_distinct_actions)
from coexist_ai._search import Searcher
from coexist_ai.cards import (CardSet, CardSetError, default_card_set,
                              load_card_set, resolve_card_set)
from coexist_ai.errors import (CoexistError, IllegalMoveError, NotationError,
                               SetupError, StateFormatError)
from coexist_ai.vocabulary import (CHANCE_PLAYER, ActionKind, Colour, EffectKind,
                                   Fauna, Location, Phase)

__all__ = ["State", "Observation", "Searcher", "CardSet", "CardSetError",
           "default_card_set", "load_card_set", "resolve_card_set",
           "CoexistError", "IllegalMoveError", "NotationError", "SetupError",
           "StateFormatError", "action_id", "action_of_id", "num_distinct_actions",
           "ActionKind", "Colour", "EffectKind", "Fauna", "Location", "Phase",
           "CHANCE_PLAYER"]
