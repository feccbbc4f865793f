"""The built-in bots, and the spec strings that name them.

A bot sees an Observation (never the real order of the draw pile) and
returns one legal action. Every bot gets all its settings, a seed included,
when it is made: `make_bot("ismcts:iterations=5000,c=0.7,seed=3")`.
"""
from coexist_ai.bots.base import Bot
from coexist_ai.bots.spec import (BOT_TYPES, BotSpecError, describe_bots,
                                  make_bot, parse_spec)

__all__ = ["Bot", "BOT_TYPES", "BotSpecError", "describe_bots", "make_bot",
           "parse_spec"]
