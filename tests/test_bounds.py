"""coexist_ai.bounds: the game-length bounds OpenSpiel is given hold on real
games, random ones and ones played to make turns as long as possible."""
import random

import pytest

from coexist_ai import ActionKind, State
from coexist_ai.bounds import max_chance_nodes, max_game_length, max_turn_decisions
from coexist_ai.cards import default_card_set
from coexist_ai.notation import split_action

CS = default_card_set()
STALLING = (ActionKind.END, ActionKind.PASS, ActionKind.SKIP)
OPENING = (ActionKind.CENTER, ActionKind.TRAIN_START)


def busy_choice(rng, actions):
    """Open the Center or Training when offered, and never end a turn while
    anything else is legal: the longest turns random play finds."""
    kinds = [split_action(a)[0] for a in actions]
    opening = [a for a, k in zip(actions, kinds) if k in OPENING]
    busy = [a for a, k in zip(actions, kinds) if k not in STALLING]
    return rng.choice(opening or busy or actions)


def play(players, seed, choose):
    """(decisions of each turn, player decisions, reveals) of one game."""
    state = State.new(CS, players=players, seed=seed, explicit_chance=True)
    rng, turns, decisions, reveals, this_turn = random.Random(seed), [], 0, 0, 0
    while not state.is_over():
        if state.is_chance_node():
            state.apply(rng.choice(state.legal_actions()))
            reveals += 1
            continue
        seat = state.turn_seat
        state.apply(choose(rng, state.legal_actions()))
        decisions, this_turn = decisions + 1, this_turn + 1
        if state.turn_seat != seat or state.is_chance_node() or state.is_over():
            turns.append(this_turn)
            this_turn = 0
    return turns, decisions, reveals


@pytest.mark.parametrize("choose", [lambda rng, acts: rng.choice(acts), busy_choice],
                         ids=["random", "busy"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_games_stay_within_the_bounds(players, choose):
    for seed in range(8):
        turns, decisions, reveals = play(players, seed, choose)
        assert max(turns) <= max_turn_decisions(CS)
        assert len(turns) <= CS.rules["max_rounds"] * players
        assert decisions <= max_game_length(CS, players)
        assert reveals <= max_chance_nodes(CS, players)


def test_the_chance_bound_is_the_largest_draw_pile():
    # the default set has 20 cards a fauna: the bound is reached when a game
    # runs the pile out, and no larger
    assert max_chance_nodes(CS, 2) == 40 and max_chance_nodes(CS, 4) == 80
    state = State.new(CS, players=3, seed=1, explicit_chance=True)
    assert len(state.legal_actions()) == max_chance_nodes(CS, 3)   # the opening deal


def test_the_turn_bound_grows_with_what_an_animal_needs():
    heavier = max(sum(card.needs) for card in CS.animals()) + 8
    # each extra token an animal can need allows 2 * (MAX_BOARD + MISSION_SIZE)
    # more assigns in a Center turn: the bound must follow the card set (8
    # more, so that the Center's turn and not a training turn is the longest)
    from dataclasses import replace
    from coexist_ai.cards import CardSet
    cards = list(CS.cards)
    cards[0] = replace(cards[0], needs=(heavier, 0, 0, 0, 0))
    bigger = CardSet(CS.name, tuple(cards), CS.rules, CS.source)
    assert max_turn_decisions(bigger) > max_turn_decisions(CS)
