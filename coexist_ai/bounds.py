"""How long a game of Coexist can be: upper bounds proved from the rules.

OpenSpiel asks a game for its longest possible length (`max_game_length`,
in decisions) and its most chance nodes; these are sound bounds, not
estimates, derived from RULES.md and the card set as below. They are loose
(a random game of two players makes about 300 decisions; the bound is about
80,000) because a turn has no fixed length: the anti-cycle rules end it,
they do not cap it.

Decisions in one turn, by step (T = every caretaker token of the game):

- start of turn: one per start_recruit effect owned, at most MAX_START_RECRUIT;
- the option's choice: 1, then the longest option:
  - Mission: at most MISSION_SIZE recruits or houses (the board is not
    refilled during a turn), then `end`;
  - Conservation Center: with A = MAX_BOARD + MISSION_SIZE the animals that
    can be on the board during a turn (house_one houses from the Mission),
    at most A protects or releases, one effect decision per release plus at
    most MISSION_SIZE recruits of recruit_mission, at most T moves and
    unassigns (each spends a token that was on an animal at the start of
    the turn), and at most 2 * A * N + T assigns, N the most tokens an animal
    of the set needs (a token is assigned only to an animal that still needs
    it; what leaves an animal leaves it by a move or unassign, at most T, or
    by its release, at most N an animal); then `center` and `end`;
  - Training: every trade crosses a tier boundary (C|F, F|P, P|H), in one
    direction only within the option. Across an upward boundary b the pool
    count above b rises by one per crossing and falls only by a 2-for-1
    trade above b, and 2-for-1 trades are at most T (each removes a token);
    so at most 2T crossings per boundary, downward ones likewise: at most
    6T trades, then `train` and `end`;
- end of turn: a discard removes a pool caretaker or an animal: at most
  T + MAX_BOARD.

A game has at most max_rounds * players turns; chance reveals the cards of
the draw pile, at most once each.
"""
from __future__ import annotations

from coexist_ai.cards import CardSet
from coexist_ai.vocabulary import (CARETAKERS, MAX_BOARD, MAX_START_RECRUIT,
                                   MISSION_SIZE, SUPPLY_START)

BOUNDARIES = len(CARETAKERS) - 1


def max_turn_decisions(card_set: CardSet) -> int:
    """Most decisions one turn can ask (see the module docstring)."""
    tokens = sum(SUPPLY_START[c] for c in CARETAKERS)
    needs = max((sum(c.needs) for c in card_set.animals()), default=0)
    animals = MAX_BOARD + MISSION_SIZE
    mission = MISSION_SIZE + 1
    center = (2 + 2 * animals + MISSION_SIZE + tokens
              + 2 * animals * needs + tokens)
    training = 2 + 2 * BOUNDARIES * tokens
    discards = tokens + MAX_BOARD
    return MAX_START_RECRUIT + 1 + max(mission, center, training) + discards


def max_game_length(card_set: CardSet, players: int) -> int:
    """Most player decisions a game of `players` can have."""
    return card_set.rules["max_rounds"] * players * max_turn_decisions(card_set)


def max_chance_nodes(card_set: CardSet, players: int) -> int:
    """Most chance nodes (reveals) in a game: the largest draw pile of
    `players` faunas, each card revealed at most once."""
    per_fauna = sorted((len(card_set.animals(f)) + len(card_set.caretakers(f))
                        for f in card_set.faunas()), reverse=True)
    return sum(per_fauna[:players])
