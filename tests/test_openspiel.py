"""coexist_ai.openspiel: OpenSpiel's own checks on the game (its C++ random
simulation test with serialization, the information-state properties its
API test enforces), OpenSpiel's MCTS and IS-MCTS bots playing whole games,
and the adapter over the pure-Python reference agreeing with the engine's."""
import json
import pickle
import random

import numpy as np
import pytest

import pyspiel
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.observation import make_observation

import coexist_ai.openspiel as cxos
from coexist_ai import State
from coexist_ai.cards import default_card_set, dumps_card_set
from coexist_ai.play.render import render_position
from coexist_ai.tensor import ObservationEncoder

CS = default_card_set()


def load(players=2, name="coexist", **params):
    return pyspiel.load_game(name, {"players": players, **params})


def play_random(state, rng, moves=None):
    """Seeded random actions (chance by its probabilities) until the end or
    `moves` actions; returns the state."""
    while not state.is_terminal() and moves != 0:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(outcomes[rng.choice(len(outcomes), p=probs)])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        moves = None if moves is None else moves - 1
    return state


def sampled_states(game, games, seed, every=7):
    """Every `every`-th state of `games` seeded random games, terminals included."""
    rng, states = np.random.RandomState(seed), []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if len(state.history()) % every == 0:
                states.append(state.clone())
            play_random(state, rng, moves=1)
        states.append(state)
    return states


# ---- OpenSpiel's own checks ------------------------------------------------------

@pytest.mark.parametrize("players,sims", [(2, 2), (3, 1), (4, 1)])
def test_openspiels_random_simulation_test_with_serialization(players, sims):
    # clone/apply agreement, history, serialization every power of two,
    # legal-action masks (chance included), observation and information-state
    # tensor sizes and strings for every player, returns in bounds and summing
    # to zero, game length within max_game_length
    pyspiel.random_sim_test(load(players), num_sims=sims, serialize=True, verbose=False)


def test_openspiels_random_simulation_test_on_the_reference_rules():
    pyspiel.random_sim_test(load(2, "coexist_reference"), num_sims=1, serialize=True,
                            verbose=False)


def test_the_game_type_says_what_the_game_is():
    game_type = load().get_type()
    assert game_type.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game_type.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game_type.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (game_type.min_num_players, game_type.max_num_players) == (2, 4)
    reference = load(name="coexist_reference").get_type()
    assert reference.provides_information_state_string
    assert not reference.provides_observation_string
    assert not reference.provides_observation_tensor


def test_sizes_come_from_the_card_set():
    game = load(3)
    assert game.num_distinct_actions() == 6950
    assert game.max_chance_outcomes() == len(CS.cards)
    assert game.observation_tensor_shape() == [ObservationEncoder(CS).size]
    assert game.information_state_tensor_size() == game.observation_tensor_size()
    assert game.max_chance_nodes_in_history() == 60
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1, 1, 0)


def test_sequence_lengths_are_bounded_as_declared():
    # OpenSpiel's API test (partial tree): history length, move number and
    # chance nodes within what the game declares
    game = load(2)
    for state in sampled_states(game, games=3, seed=1, every=50):
        assert len(state.full_history()) <= game.max_history_length()
        assert state.move_number() <= game.max_move_number()
        chance = sum(item.player == pyspiel.PlayerId.CHANCE for item in state.full_history())
        assert chance <= game.max_chance_nodes_in_history()


def test_observables_refuse_players_that_do_not_exist():
    game = load(3)
    for state in sampled_states(game, games=1, seed=2, every=40):
        for read in (state.information_state_string, state.information_state_tensor,
                     state.observation_string, state.observation_tensor):
            with pytest.raises(pyspiel.SpielError, match="player >= 0"):
                read(-1)
            with pytest.raises(pyspiel.SpielError, match="player <"):
                read(3 + 1)
        if state.is_chance_node():
            with pytest.raises(pyspiel.SpielError):
                state.information_state_string()     # the chance player has none


def test_only_the_player_to_move_has_legal_actions():
    game = load(3)
    for state in sampled_states(game, games=1, seed=3, every=5):
        for player in range(3):
            if state.is_terminal() or (not state.is_chance_node()
                                       and player != state.current_player()):
                assert state.legal_actions(player) == []
        if state.is_terminal():
            assert state.legal_actions() == []


def test_coexist_has_no_private_information_to_observe():
    game = load()
    private = pyspiel.IIGObservationType(public_info=False, perfect_recall=False,
                                         private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER)
    with pytest.raises(ValueError, match="no private information"):
        make_observation(game, private)
    public = make_observation(game, pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE))
    state = play_random(game.new_initial_state(), np.random.RandomState(4), moves=30)
    public.set_from(state, 1)
    np.testing.assert_array_equal(public.tensor, state.observation_tensor(1))
    assert public.string_from(state, 1) == state.observation_string(1)


# ---- information states ------------------------------------------------------------

def transposed_pair(game, seed):
    """Two states reached by the same actions in two orders (two commuting
    moves of a Conservation Center turn): one position, two histories."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if not state.is_chance_node():
            legal = state.legal_actions()
            for a in legal:
                for b in legal:
                    if a >= b:
                        continue
                    ab, ba = state.child(a), state.child(b)
                    if (b in ab.legal_actions() and a in ba.legal_actions()
                            and ab.child(b).position == ba.child(a).position):
                        return ab.child(b), ba.child(a)
        play_random(state, rng, moves=1)
    raise AssertionError("no transposition found")


def perfect_recall_failures(states):
    """OpenSpiel's perfect-recall property: every history in one information
    state of player i shows i the same past (its information states and its
    actions). Returns the information states where it fails."""
    past_of, failures = {}, []
    for state in states:
        player = state.current_player()
        key = (state.information_state_string(player), player)
        past, replay = [], state.get_game().new_initial_state()
        for action in state.history():
            if replay.current_player() == player:
                past.append((replay.information_state_string(player), action))
            replay.apply_action(action)
        if past_of.setdefault(key, past) != past:
            failures.append(key)
    return failures


def test_information_states_have_perfect_recall():
    game = load(2)
    first, second = transposed_pair(game, seed=5)
    # the same position: what is observed is equal, the Markov tensors too
    for player in range(2):
        assert first.observation_string(player) == second.observation_string(player)
        assert first.information_state_tensor(player) == second.information_state_tensor(player)
    # the histories differ, and so do the information states: an information
    # state made of the observation alone would merge them and fail the check
    assert first.history() != second.history()
    assert first.information_state_string(0) != second.information_state_string(0)
    states = [first, second] + [s for s in sampled_states(game, 2, seed=6, every=11)
                                if not s.is_chance_node() and not s.is_terminal()]
    assert perfect_recall_failures(states) == []


def test_the_information_state_is_the_public_history():
    game = load(3)
    state = play_random(game.new_initial_state(), np.random.RandomState(7), moves=90)
    text = ", ".join(map(str, state.history()))
    assert all(state.information_state_string(p) == text for p in range(3))
    for p in range(3):
        assert state.information_state_tensor(p) == state.observation_tensor(p)


def test_resampling_an_information_state_keeps_what_the_player_knows():
    # OpenSpiel's ResampleInfostateTest, as ISMCTS relies on it
    game = load(2)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for state in sampled_states(game, 1, seed=8, every=9):
        if state.is_chance_node() or state.is_terminal():
            continue
        for player in range(2):
            other = state.resample_from_infostate(player, sampler)
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.information_state_tensor(player) == state.information_state_tensor(player)
            assert other.current_player() == state.current_player()


def with_reversed_draw_pile(state):
    """A clone of `state` whose engine position keeps the draw pile in the
    reverse order: the same public position."""
    doc = json.loads(state.position.to_json())
    doc["draw_pile_order"] = doc["draw_pile_order"][::-1]
    other = state.clone()
    other._cx = cxos._Play(state._cx.rules, State.from_json(json.dumps(doc), CS))
    return other


def test_no_string_or_tensor_depends_on_the_draw_piles_order():
    game = load(3)
    state = play_random(game.new_initial_state(), np.random.RandomState(9), moves=120)
    other = with_reversed_draw_pile(state)
    assert other.position.referee_draw_pile() != state.position.referee_draw_pile()
    assert other.position.public_hash() == state.position.public_hash()
    assert str(other) == str(state)
    for p in range(3):
        assert other.observation_string(p) == state.observation_string(p)
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.observation_tensor(p) == state.observation_tensor(p)
        assert other.information_state_tensor(p) == state.information_state_tensor(p)


def test_observations_are_the_engines_views():
    game = load(3)
    state = play_random(game.new_initial_state(), np.random.RandomState(10), moves=70)
    encoder = ObservationEncoder(CS)
    for p in range(3):
        observation = state.position.observation(p)
        assert state.observation_string(p) == render_position(observation, you=p)
        np.testing.assert_array_equal(state.observation_tensor(p),
                                      encoder.encode(observation, p))


# ---- actions, chance, parameters, serialization -----------------------------------

def test_actions_are_dense_ids_and_chance_outcomes_are_cards():
    game = load(2)
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    deck = [c.index for c in CS.cards if c.fauna in state.position.card_set.faunas()
            and state.position.location(c).location == "deck"]
    assert [card for card, _ in outcomes] == deck
    assert all(p == pytest.approx(1 / len(deck)) for _, p in outcomes)
    card = outcomes[3][0]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, card) == f"reveal {CS.cards[card].id}"
    state.apply_action(card)
    assert state.position.mission == (CS.cards[card],)
    play_random(state, np.random.RandomState(11), moves=20)
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert state.legal_actions() == state.position.legal_action_ids()
    names = [state.action_to_string(state.current_player(), a) for a in state.legal_actions()]
    assert names == state.position.legal_moves()


def test_parameters_choose_players_faunas_first_player_and_card_set(tmp_path):
    path = tmp_path / "short.toml"
    path.write_text(dumps_card_set(CS).replace("max_rounds = 60", "max_rounds = 7"))
    game = load(3, faunas="sea:air:forest", first_player=2, card_set=str(path))
    state = game.new_initial_state()
    assert [str(v.fauna) for v in state.position.seats] == ["sea", "air", "forest"]
    assert state.position.first_player == 2
    assert state.position.card_set.rules["max_rounds"] == 7
    assert game.max_game_length() < load(3).max_game_length()
    drawn = {tuple(load(2, seed=s).faunas) for s in range(6)}
    assert len(drawn) > 1 and load(2, seed=3).faunas == load(2, seed=3).faunas
    with pytest.raises(ValueError, match="faunas must be distinct"):
        load(2, faunas="forest:forest")


@pytest.mark.parametrize("name", ["coexist", "coexist_reference"])
def test_serialized_states_come_back_and_play_on_the_same(name, tmp_path):
    game = load(3, name, faunas="savannah:air:sea", first_player=1)
    rng = np.random.RandomState(12)
    state = game.new_initial_state()
    for moves in (0, 1, 7, 60, 200):
        play_random(state, rng, moves=moves)
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game)
        assert state2.history() == state.history() and str(state2) == str(state)
        if name == "coexist":
            assert state2.position == state.position
        again = pickle.loads(pickle.dumps(state))
        assert again.history() == state.history()
        # both play on identically from the same seed
        end1 = play_random(state.clone(), np.random.RandomState(moves))
        end2 = play_random(state2, np.random.RandomState(moves))
        assert end1.history() == end2.history() and end1.returns() == end2.returns()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_reference_rules_play_the_same_game_through_the_adapter(players):
    engine, reference = load(players, seed=players), load(players, "coexist_reference", seed=players)
    rng = random.Random(players)
    one, two = engine.new_initial_state(), reference.new_initial_state()
    while not one.is_terminal():
        assert one.current_player() == two.current_player()
        assert one.legal_actions() == two.legal_actions()
        if one.is_chance_node():
            assert one.chance_outcomes() == two.chance_outcomes()
        action = rng.choice(one.legal_actions())
        assert one.action_to_string(one.current_player(), action) == \
            two.action_to_string(two.current_player(), action)
        one.apply_action(action)
        two.apply_action(action)
    assert two.is_terminal() and one.returns() == two.returns()
    assert one.information_state_string(0) == two.information_state_string(0)


# ---- OpenSpiel's bots play whole games ---------------------------------------------

def play_bots(game, bots, seed):
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            play_random(state, rng, moves=1)
            continue
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    return state


def test_openspiels_mcts_bot_plays_whole_games():
    game = load(2)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1), max_length=20)
    bots = [mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=np.random.RandomState(s))
            for s in (2, 3)]
    end = play_bots(game, bots, seed=4)
    assert sorted(end.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def test_openspiels_information_set_mcts_bot_plays_whole_games():
    game = load(3)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(5), max_length=20)
    bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(s))
            for s in (6, 7, 8)]
    end = play_bots(game, bots, seed=9)
    assert sum(end.returns()) == pytest.approx(0.0)
    assert all(-1.0 <= r <= 1.0 for r in end.returns())


def test_the_readme_example_runs():
    from cli_process import ROOT
    text = (ROOT / "README.md").read_text()
    section = text[text.index("### OpenSpiel and PettingZoo"):]
    code = section[section.index("```python\n") + 10:section.index("```\n", 10)]
    scope = {}
    exec(compile(code, "README.md", "exec"), scope)
    assert scope["state"].chance_outcomes()[0] == (0, pytest.approx(1 / 60))
    assert scope["obs"]["observation"].shape == (2589,)
