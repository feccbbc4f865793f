"""The observation tensor (coexist_ai.tensor): a function of the public
position alone, faithful to the position (a decoding of it agrees with the
engine's own accessors), and different for different public positions."""
import json
import random

import numpy as np
import pytest

from coexist_ai import State
from coexist_ai.cards import default_card_set
from coexist_ai.views import BOUNDARIES
from coexist_ai.tensor import PIECES_DOC, SEAT_COLUMNS, ObservationEncoder, observation_tensor
from coexist_ai.vocabulary import MAX_PLAYERS, SUPPLY_START, TOKENS, Fauna, Location

CS = default_card_set()
ENC = ObservationEncoder(CS)


def random_positions(players, seed, moves, explicit_chance=False):
    """Every position of a seeded random game, up to `moves` actions."""
    state = State.new(CS, players=players, seed=seed, explicit_chance=explicit_chance)
    rng, positions = random.Random(seed), [state.copy()]
    while not state.is_over() and len(positions) <= moves:
        state.apply(rng.choice(state.legal_actions()))
        positions.append(state.copy())
    return positions


def test_the_shape_comes_from_the_card_set_and_limits_not_the_players():
    sizes = {ENC.encode(State.new(CS, players=n, seed=1), 0).shape for n in (2, 3, 4)}
    assert sizes == {ENC.shape}
    assert ENC.size == sum(int(np.prod(shape)) for _, shape in ENC.pieces)
    pieces = dict(ENC.pieces)
    assert pieces["location"][0] == pieces["mission_slot"][0] == len(CS.cards)
    assert pieces["on"][0] == len(CS.animals())
    assert pieces["seat"] == (MAX_PLAYERS, len(SEAT_COLUMNS))
    assert set(pieces) == set(PIECES_DOC)      # every piece is documented


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_entry_is_a_float_in_the_unit_interval(players):
    for position in random_positions(players, seed=players, moves=400)[::7]:
        x = ENC.encode(position, 0)
        assert x.dtype == np.float32 and x.min() >= 0.0 and x.max() <= 1.0
        # the clip is a safety net, not what keeps values in range: no
        # count exceeds the scale it is divided by
        ENC._fill(position, 0)
        assert ENC.tensor.max() <= 1.0 + 1e-6 and ENC.tensor.min() >= 0.0


@pytest.mark.parametrize("players,seed", [(2, 3), (3, 8), (4, 21)])
def test_the_tensor_is_a_function_of_the_observation_alone(players, seed):
    for state in random_positions(players, seed, moves=300)[10::37]:
        for seat in range(players):
            obs = state.observation(seat)
            one, two = obs.determinize(1), obs.determinize(2)
            if len(one.referee_draw_pile()) > 1:
                assert one.referee_draw_pile() != two.referee_draw_pile()
            expected = ENC.encode(obs, seat)
            for position in (state, one, two):
                np.testing.assert_array_equal(ENC.encode(position, seat), expected)


def public_key(state, seat):
    """The public position as the rules see it: the observation JSON, with
    each board as a set (the order animals were housed in changes nothing)."""
    doc = json.loads(state.observation(seat).to_json())
    for s in doc["seats"]:
        s["board"] = sorted(s["board"], key=lambda slot: slot["card"])
    return json.dumps(doc, sort_keys=True)


@pytest.mark.parametrize("players", [2, 4])
def test_different_public_positions_give_different_tensors(players):
    seen = {}
    for seed in range(6):
        for state in random_positions(players, 100 + seed, moves=250, explicit_chance=seed % 2):
            tensor = ENC.encode(state, 1).tobytes()
            key = public_key(state, 1)
            assert seen.setdefault(tensor, key) == key, "two positions, one tensor"
    assert len(seen) > 1000


def decoded_location(pieces, card, players):
    """Where the tensor says a card is, as a views.Place-like pair
    (location name, absolute seat or None), for viewer 0."""
    row = pieces["location"][card.index]
    (column,) = np.flatnonzero(row)
    shared = [loc for loc in Location if loc.code < Location.BOARD.code]
    if column < len(shared):
        return shared[column], None
    place, rel = divmod(column - len(shared), MAX_PLAYERS)
    seat_places = [loc for loc in Location if loc.code >= Location.BOARD.code]
    assert rel < players
    return seat_places[place], rel


@pytest.mark.parametrize("players", [2, 3])
def test_decoding_the_tensor_gives_back_the_engines_view(players):
    positions = random_positions(players, seed=5, moves=300)
    # every 25th position, and every one in the middle of a Training
    picked = positions[::25] + [s for s in positions if s.turn.trained_up][:5]
    assert len(picked) > 12
    for state in picked:
        for viewer in range(players):
            pieces = ENC.split(ENC.encode(state, viewer))
            for card in CS.cards:   # Position.location reads the C struct itself
                loc, rel = decoded_location(pieces, card, players)
                seat = None if rel is None else (viewer + rel) % players
                assert state.location(card) == (loc, seat), card.id
            for rel in range(MAX_PLAYERS):
                fauna = np.flatnonzero(pieces["seat_fauna"][rel])
                if rel >= players:
                    assert not fauna.size and not pieces["seat"][rel].any()
                    continue
                view = state.seat((viewer + rel) % players)
                assert list(Fauna)[fauna[0]] == view.fauna
                assert pieces["seat"][rel][SEAT_COLUMNS.index("track")] * 8 == view.track
            np.testing.assert_allclose(pieces["supply"] * [SUPPLY_START[c] for c in TOKENS],
                                       state.supply, atol=1e-4)
            assert pieces["to_move"][(state.turn_seat - viewer) % players] == 1
            for slot, card in enumerate(state.mission):
                assert pieces["mission_slot"][card.index, slot] == 1
            assert pieces["mission_slot"].sum() == len(state.mission)
            turn = state.turn
            assert pieces["capture_used"][0] * ENC.scales["capture"] == \
                pytest.approx(turn.capture_used)
            crossed = [[b in turn.trained_up for b in BOUNDARIES],
                       [b in turn.trained_down for b in BOUNDARIES]]
            np.testing.assert_array_equal(pieces["trained"], crossed)


def test_what_is_on_an_animal_is_scaled_by_what_it_needs():
    state = next(s for s in random_positions(2, seed=9, moves=600)
                 if any(a.on.C or a.on.F for v in s.seats for a in v.board))
    pieces = ENC.split(ENC.encode(state, 0))
    for view in state.seats:
        for animal in view.board:
            for colour, on, want in zip(TOKENS, animal.on, animal.card.needs):
                if want:
                    assert pieces["on"][animal.card.index, TOKENS.index(colour)] == \
                        pytest.approx(on / want)


def test_observation_tensor_keeps_one_encoder_per_card_set():
    state = State.new(CS, players=2, seed=2)
    np.testing.assert_array_equal(observation_tensor(state, 1), ENC.encode(state, 1))
    with pytest.raises(IndexError, match="seat 2"):
        ENC.encode(state, 2)
