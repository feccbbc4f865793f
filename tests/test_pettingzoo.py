"""coexist_ai.pettingzoo: PettingZoo's own API and seed tests pass, and the
environment plays whole games with the engine's rewards, action masks over
the dense ids and the observation tensor, chance drawn from its seed."""
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from coexist_ai import ActionKind, action_of_id
from coexist_ai.cards import default_card_set
from coexist_ai.notation import split_action
from coexist_ai.pettingzoo import env, raw_env
from coexist_ai.tensor import ObservationEncoder

CS = default_card_set()
# what api_test says of every environment whose observation is a dict with
# an action mask (it lists its own such environments by name to keep quiet)
DICT_OBSERVATION_NOTES = ("Observation is not a NumPy array",
                          "Observation space for each agent probably should be")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoos_api_test_passes(players):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(players=players), num_cycles=2000)
    others = [str(w.message) for w in caught
              if not str(w.message).startswith(DICT_OBSERVATION_NOTES)]
    assert others == []


def test_pettingzoos_seed_test_passes():
    seed_test(lambda: env(players=3), num_cycles=500)


def play(environment, seed, choose=None):
    """A whole game: (rewards summed per agent, (agent, action) steps)."""
    environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    steps = []
    for agent in environment.agent_iter():
        obs, reward, termination, truncation, _ = environment.last()
        totals[agent] += reward
        if termination or truncation:
            environment.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(rng.choice(legal)) if choose is None else choose(agent, legal)
        steps.append((agent, action))
        environment.step(action)
    return totals, steps


@pytest.mark.parametrize("players", [2, 4])
def test_whole_games_end_with_the_engines_returns(players):
    e = raw_env(players=players)
    assert callable(e.state)            # AECEnv's global-state method, not shadowed
    totals, steps = play(e, seed=players)
    assert e.agents == [] and e.position.is_over()
    assert list(totals.values()) == e.position.returns()
    assert sum(totals.values()) == pytest.approx(0.0)
    # every action of the engine's history is an agent's step or a reveal
    reveals = [a for a in e.position.history() if split_action(a)[0] == ActionKind.REVEAL]
    assert len(steps) + len(reveals) == len(e.position.history())
    assert [action_of_id(CS, a) for _, a in steps] == [
        a for a in e.position.history() if split_action(a)[0] != ActionKind.REVEAL]


def test_observations_are_the_seats_tensors_and_only_the_mover_has_a_mask():
    e = raw_env(players=3)
    e.reset(seed=5)
    encoder = ObservationEncoder(CS)
    for _ in range(60):
        mover = e.agent_selection
        for seat, agent in enumerate(e.possible_agents):
            obs = e.observe(agent)
            np.testing.assert_array_equal(obs["observation"], encoder.encode(
                e.position.observation(seat), seat))
            if agent == mover:
                assert list(np.flatnonzero(obs["action_mask"])) == e.position.legal_action_ids()
                assert seat == e.position.current_player
            else:
                assert not obs["action_mask"].any()
        legal = np.flatnonzero(e.observe(mover)["action_mask"])
        before = e.position.copy()
        e.step(int(legal[-1]))
        before.apply(action_of_id(CS, int(legal[-1])))
        while before.is_chance_node():    # the env dealt the refill itself
            before.apply(e.position.history()[len(before.history())])
        assert before == e.position


def test_chance_comes_from_the_seed():
    first = lambda agent, legal: int(legal[0])   # the same choices every game
    one, two, other = raw_env(players=2), raw_env(players=2), raw_env(players=2)
    play(one, seed=11, choose=first)
    play(two, seed=11, choose=first)
    play(other, seed=12, choose=first)
    assert one.position.history() == two.position.history()
    assert one.position.history() != other.position.history()


def test_a_reset_without_a_seed_keeps_the_seed_it_drew():
    first = lambda agent, legal: int(legal[0])
    e = raw_env(players=2)
    e.reset()
    drawn = e.seed_used
    assert isinstance(drawn, int)
    play(e, seed=drawn, choose=first)
    again = raw_env(players=2)
    again.reset()
    assert again.seed_used != drawn
    play(again, seed=drawn, choose=first)
    assert again.position.history() == e.position.history()


def test_faunas_can_be_chosen():
    e = raw_env(players=3, faunas=["sea", "forest", "air"], first_player=1)
    e.reset(seed=1)
    assert [str(v.fauna) for v in e.position.seats] == ["sea", "forest", "air"]
    assert e.agent_selection == "player_1"


def test_an_illegal_action_ends_the_game_against_its_author():
    e = env(players=2)
    e.reset(seed=3)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")        # the wrapper warns: that is its job
        e.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1


def test_render_shows_the_public_position():
    e = raw_env(players=2, render_mode="ansi")
    e.reset(seed=2)
    text = e.render()
    assert "MISSION BOARD" in text and "to play" in text
    assert raw_env(players=2).render() is None
    with pytest.raises(ValueError, match="render_mode 'human'"):
        raw_env(render_mode="human")
