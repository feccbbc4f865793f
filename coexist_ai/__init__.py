"""coexist-ai: AI opponents and a tournament harness for the card game Coexist.

The rules engine is compiled (csrc/); `State` is a full position (a
referee's view), `Observation` what a seat may see. Card sets load from TOML
(`load_card_set`); the default set is our own, *reconstructed* one.
"""
from coexist_ai._core import Observation, Searcher, State
from coexist_ai.cards import (CardSet, CardSetError, default_card_set,
                              load_card_set, resolve_card_set)
from coexist_ai.errors import (CoexistError, IllegalMoveError, NotationError,
                               SetupError, StateFormatError)

__all__ = ["State", "Observation", "Searcher", "CardSet", "CardSetError",
           "default_card_set", "load_card_set", "resolve_card_set",
           "CoexistError", "IllegalMoveError", "NotationError", "SetupError",
           "StateFormatError"]
