"""A pure-Python implementation of the rules of Coexist.

Written from RULES.md and the project's documented choices (docs/rules.md,
docs/formats.md), independently of the C engine in csrc/: it shares no code
with it, only the card sets (`coexist_ai.cards`) and the action integers. It
is the oracle the C engine is tested against (tests/test_reference.py) and
the pure-Python baseline of the OpenSpiel benchmark. Speed is not its point;
readability is.

    from coexist_ai.reference import ReferenceState
    st = ReferenceState.new(card_set, 2, ["forest", "air"], 0, deck)
    while not st.is_over():
        st.apply(st.legal_actions()[0])
    st.scores(), st.ranks(), st.returns()

With ``explicit_chance=True`` the end-of-turn refill is a chance node
(`is_chance_node()`, `current_player == CHANCE_PLAYER`, phase "refill"):
`chance_outcomes()` lists `(reveal_action(card), 1 / pile size)` for each
card of the draw pile, and applying one turns that card face up.
"""
from coexist_ai.reference.actions import REVEAL, move_name, reveal_action
from coexist_ai.reference.state import CHANCE_PLAYER, PHASES, ReferenceState

__all__ = ["ReferenceState", "CHANCE_PLAYER", "PHASES", "REVEAL",
           "reveal_action", "move_name"]
