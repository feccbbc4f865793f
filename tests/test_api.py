"""The researcher's API: typed views that agree with the engine's own
struct, dense action ids, explicit chance, returns, history and pop."""
import json
import random

import numpy as np
import pytest

from coexist_ai import (CHANCE_PLAYER, Location, Observation, Phase, State, action_id,
                        action_of_id, num_distinct_actions)
from coexist_ai.views import AnimalView, SeatView, Tokens
from positions import CS, position, random_positions


def game_positions(players, seed, eager=0.6):
    return [st.copy() for st in random_positions(players, seed, eager)]


# ---- typed views agree with the struct --------------------------------------

def test_views_show_what_the_struct_holds():
    checked = 0
    for players in (2, 3, 4):
        for st in game_positions(players, 40 + players)[::7]:
            raw = st._public_raw()
            assert [c.index for c in st.mission] == raw["mission"][:raw["n_mission"]]
            assert tuple(st.supply) == tuple(raw["supply"])
            for p, seat in enumerate(st.seats):
                pl = raw["players"][p]
                assert isinstance(seat, SeatView) and seat.seat == p
                assert seat.track == pl["track"] and tuple(seat.pool) == tuple(pl["pool"])
                assert [a.card.index for a in seat.board] == \
                    [sl["card"] for sl in pl["board"][:pl["n_board"]]]
                for animal, sl in zip(seat.board, pl["board"]):
                    assert isinstance(animal, AnimalView) and tuple(animal.on) == tuple(sl["on"])
                    assert all(animal.on.of(c) + animal.needs.of(c) == animal.card.needs[i]
                               for i, c in enumerate("CFPHS"))
                    assert animal.complete == (not any(animal.needs))
                assert [c.index for c in seat.released] == \
                    [c for c in range(len(CS.cards)) if raw["loc"][c] == 8 + p]
                assert seat.capacity == st.capacity(p) and seat.spaces_used == st.spaces_used(p)
                assert seat.score.total == st.scores()[p]
                checked += 1
    assert checked > 50


def test_location_of_every_card_matches_the_lists():
    st = game_positions(3, 7)[120]
    for card in CS.cards:
        place = st.location(card)
        if place.location == Location.MISSION:
            assert card in st.mission
        elif place.location == Location.BOARD:
            assert card in [a.card for a in st.seat(place.seat).board]
        elif place.location == Location.RELEASED:
            assert card in st.seat(place.seat).released
        elif place.location == Location.PROTECTED:
            assert (card, place.seat) in st.protected_area
        elif place.location == Location.DECK:
            assert card.index in st.draw_pile_contents()
    assert st.location("forest-red-fox") == st.location(CS.card("forest-red-fox"))
    with pytest.raises(ValueError):
        st.location(500)


def test_views_never_hold_the_draw_pile_order():
    st = State.new(seed=3)
    shown = json.dumps([repr(x) for x in (st.seats, st.turn, st.mission, st.supply)])
    order = [CS.cards[c].id for c in st.referee_draw_pile()]
    assert " ".join(order) not in shown and order[0] not in shown


def test_phase_is_typed_and_still_compares_as_its_name():
    st = State.new(seed=1)
    assert st.phase is Phase.CHOOSE and st.phase == "choose"


# ---- dense action ids ----------------------------------------------------------

def test_dense_ids_are_a_bijection_sorted_as_the_actions():
    n = num_distinct_actions(CS)
    actions = [action_of_id(CS, i) for i in range(n)]
    assert actions == sorted(actions) and len(set(actions)) == n
    assert all(action_id(CS, a) == i for i, a in enumerate(actions))
    with pytest.raises(ValueError):
        action_of_id(CS, n)
    with pytest.raises(ValueError):
        action_id(CS, (16 << 22) | 3)      # a reveal is chance's, not a move


def test_every_legal_move_has_an_id_and_the_mask_marks_them():
    for st in game_positions(4, 3)[::5]:
        ids = st.legal_action_ids()
        assert ids == sorted(ids)
        assert [action_of_id(CS, i) for i in ids] == st.legal_actions()
        mask = st.legal_action_mask()
        assert mask.dtype == np.bool_ and mask.shape == (num_distinct_actions(CS),)
        assert np.flatnonzero(mask).tolist() == ids


# ---- explicit chance -------------------------------------------------------------

def test_explicit_chance_deals_every_card_by_chance():
    st = State.new(seed=5, explicit_chance=True)
    assert st.is_chance_node() and st.current_player == CHANCE_PLAYER
    assert st.phase == Phase.REFILL and not st.mission
    outcomes = st.chance_outcomes()
    assert len(outcomes) == st.draw_pile_size() == 40
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-12
    for action, _ in outcomes[:5]:
        st.apply(action)
    assert not st.is_chance_node() and st.current_player == 0 and len(st.mission) == 5
    assert st.phase in (Phase.CHOOSE, Phase.START) and not st.end_triggered


def play_deck_ordered_and_by_chance(seed):
    """One game twice: dealt from a deck order, and with every reveal chosen
    by chance to be the card that order would have dealt."""
    dealt = State.new(seed=seed)
    order = [c.index for c in dealt.mission] + dealt.referee_draw_pile()
    faunas = [str(s.fauna) for s in dealt.seats]
    chance = State.new(faunas=faunas, explicit_chance=True)
    rng, next_card = random.Random(seed), iter(order)
    while chance.is_chance_node():
        chance.apply((16 << 22) | next(next_card))
    while not dealt.is_over():
        action = rng.choice(dealt.legal_actions())
        dealt.apply(action)
        chance.apply(action)
        while chance.is_chance_node():
            chance.apply((16 << 22) | next(next_card))
        assert chance.mission == dealt.mission and chance.seats == dealt.seats
    return dealt, chance


def test_chance_chosen_as_a_deck_order_plays_that_deals_game():
    for seed in range(6):
        dealt, chance = play_deck_ordered_and_by_chance(seed)
        assert chance.is_over() and chance.scores() == dealt.scores()
        assert chance.ranks() == dealt.ranks()


def test_explicit_chance_round_trips_through_json():
    st = State.new(seed=2, explicit_chance=True)
    for _ in range(3):
        st.apply(st.legal_actions()[0])
    again = State.from_json(st.to_json())
    assert again == st and again.is_chance_node() and json.loads(st.to_json())["explicit_chance"]
    assert "explicit_chance" not in json.loads(State.new(seed=2).to_json())


def test_a_search_refuses_a_chance_node_and_ignores_explicit_chance_elsewhere():
    from coexist_ai import Searcher
    st = State.new(seed=4, explicit_chance=True)
    with pytest.raises(ValueError, match="chance node"):
        Searcher(seed=1).search(st.observation(0), iterations=10)
    while st.is_chance_node():
        st.apply(st.legal_actions()[0])
    result = Searcher(seed=1).search(st.observation(), iterations=50)
    assert result["action"] in st.legal_actions()


# ---- returns, history, pop --------------------------------------------------------

def test_returns_are_zero_sum_and_follow_the_ranks():
    for players in (2, 3, 4):
        st = State.new(players=players, seed=players)
        assert st.returns() == [0.0] * players
        st.playout_random(1)
        returns, ranks = st.returns(), st.ranks()
        assert abs(sum(returns)) < 1e-9 and all(-1 <= r <= 1 for r in returns)
        best = min(ranks)
        assert all(r == max(returns) for r, k in zip(returns, ranks) if k == best)


def test_pop_takes_back_every_move_to_the_start():
    st = State.new(seed=8)
    start = st.copy()
    snapshots, rng = [], random.Random(8)
    for _ in range(200):
        snapshots.append(st.referee_bytes())
        st.apply(rng.choice(st.legal_actions()))
    history = st.history()
    assert len(history) == 200
    for action, before in zip(reversed(history), reversed(snapshots)):
        assert st.pop() == action
        assert st.referee_bytes() == before
    assert st == start and st.history() == []
    with pytest.raises(IndexError):
        st.pop()


def test_a_copy_keeps_its_own_history():
    st = State.new(seed=9)
    st.push(st.legal_moves()[0])
    clone = st.clone()
    clone.push(clone.legal_moves()[0])
    assert len(st.history()) == 1 and len(clone.history()) == 2
    clone.pop()
    assert clone == st


def test_positions_from_json_and_observations_start_without_history():
    st = position(seats=[dict(board=["forest-red-fox"])], phase="center")
    assert st.history() == []
    assert isinstance(st.observation(0), Observation)
    assert not hasattr(st.observation(0), "pop")
