"""Transitional: the names of the former single compiled module, now
coexist_ai._engine (positions) and coexist_ai._search (searches)."""
from coexist_ai._engine import *  # noqa: F401,F403
from coexist_ai._engine import (_CORE_CACHE_SIZE, _core_cache,  # noqa: F401
                                core_card_set)
from coexist_ai._search import *  # noqa: F401,F403
