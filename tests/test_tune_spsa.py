"""SPSA alone, on synthetic matches (no games): it finds a known optimum
through the noise, steps within the ranges, and draws its signs from the
seed alone."""
import random

import pytest

from coexist_ai.tune.plan import Plan, iteration_result, seat_scores
from coexist_ai.tune.spsa import Dimension, Spsa, default_rate, default_step


def synthetic_match(elo, rng, games):
    """`result` of theta+ against theta- over `games` games whose winner
    is drawn from the Elo model: elo(theta) is a bot's strength."""
    def play(plus, minus):
        p_plus = 1 / (1 + 10 ** ((elo(minus) - elo(plus)) / 400))
        return sum(1 if rng.random() < p_plus else -1 for _ in range(games)) / games
    return play


def run_spsa(spsa, play):
    theta = spsa.start()
    for k in range(spsa.iterations):
        plus, minus = spsa.perturbed(theta, k)
        theta = spsa.update(theta, k, play(plus, minus))
    return theta


OPTIMUM = (1.4, 13)


def strength(theta):
    """A bot 300 Elo weaker at the far end of each range than at OPTIMUM."""
    x, n = theta
    return -300 * ((x - OPTIMUM[0]) / 2) ** 2 - 300 * ((n - OPTIMUM[1]) / 20) ** 2


def dimensions(start_x=0.2, start_n=2):
    return [Dimension("x", False, 0, 2, default_step(0, 2, False), start_x),
            Dimension("n", True, 0, 20, default_step(0, 20, True), start_n)]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_spsa_finds_the_optimum_of_a_noisy_match(seed):
    spsa = Spsa(dimensions(), 2000, seed)
    x, n = run_spsa(spsa, synthetic_match(strength, random.Random(seed), 2))
    # from 90 Elo below the optimum to within a few: a tenth of each range
    assert abs(x - OPTIMUM[0]) < 0.2, x
    assert abs(n - OPTIMUM[1]) < 2, n
    assert strength((x, n)) > -5


def test_spsa_drifts_nowhere_in_particular_where_nothing_can_be_learnt():
    """Equal bots (a flat objective): each run's theta wanders by noise,
    but over many runs it stays centred where it started (a sign or a
    rounding that favoured one side would push it into a wall)."""
    ends = []
    for seed in range(24):
        spsa = Spsa(dimensions(1.0, 10), 300, seed)
        ends.append(run_spsa(spsa, synthetic_match(lambda theta: 0.0, random.Random(seed), 2)))
    mean_x = sum(x for x, _ in ends) / len(ends)
    mean_n = sum(n for _, n in ends) / len(ends)
    assert abs(mean_x - 1.0) < 0.25 and abs(mean_n - 10) < 2.5, (mean_x, mean_n)


def test_perturbations_are_clamped_rounded_and_symmetric():
    spsa = Spsa(dimensions(0.0, 20), 100, 9)
    for k in range(100):
        (px, pn), (mx, mn) = spsa.perturbed([0.0, 20.0], k)
        assert 0 <= px <= 2 and 0 <= mx <= 2
        assert isinstance(pn, int) and isinstance(mn, int) and 0 <= pn <= 20 and 0 <= mn <= 20
        assert 0.0 in (px, mx) and 20 in (pn, mn)   # one side is pushed into the wall
    theta = [1.0, 10.0]
    (px, pn), (mx, mn) = spsa.perturbed(theta, 0)
    assert px - 1.0 == pytest.approx(1.0 - mx) and pn - 10 == 10 - mn
    assert abs(pn - mn) >= 2        # a whole number still moves by at least its step


def test_the_update_follows_the_winning_side_and_stays_in_range():
    spsa = Spsa(dimensions(1.0, 10), 100, 5)
    flips = spsa.flips(0)
    up = spsa.update([1.0, 10.0], 0, 1.0)       # theta+ won everything
    assert [(u - t) * f > 0 for u, t, f in zip(up, [1.0, 10.0], flips)] == [True, True]
    assert spsa.update([2.0, 20.0], 0, 1.0)[0] <= 2.0
    assert spsa.update([0.0, 0.0], 0, -1.0)[0] >= 0.0


def test_gains_decay_to_their_final_values():
    d = dimensions()[0]
    spsa = Spsa([d], 300, 1)
    assert spsa.c(299, d) == pytest.approx(d.step)
    assert spsa.a(299, d) == pytest.approx(spsa.rate * d.step ** 2)
    assert spsa.c(0, d) > spsa.c(100, d) > spsa.c(299, d)
    assert spsa.a(0, d) > spsa.a(100, d) > spsa.a(299, d)
    assert spsa.rate == default_rate(300) == pytest.approx(12 / 300 ** 0.5)


def test_signs_come_from_the_seed_alone():
    one, same, other = Spsa(dimensions(), 50, 7), Spsa(dimensions(), 50, 7), Spsa(dimensions(), 50, 8)
    assert [one.flips(k) for k in range(50)] == [same.flips(k) for k in range(50)]
    assert [one.flips(k) for k in range(50)] != [other.flips(k) for k in range(50)]
    signs = [f for k in range(50) for f in one.flips(k)]
    assert set(signs) == {-1, 1}


def test_seat_scores_share_places():
    assert seat_scores([1, 2]) == [1.0, 0.0]
    assert seat_scores([1, 1]) == [0.5, 0.5]
    assert seat_scores([2, 1, 2, 4]) == [0.5, 1.0, 0.5, 0.0]


def test_an_iteration_result_is_theta_plus_minus_theta_minus():
    duel = Plan(2, None, 1, 3)
    games = duel.games(0)
    assert [g.roles for g in games] == [("theta+", "theta-"), ("theta-", "theta+")]
    won_both = {0: [1, 2], 1: [2, 1]}
    assert iteration_result(games, lambda g: won_both[g.index]) == 1.0
    split = {0: [1, 2], 1: [1, 2]}
    assert iteration_result(games, lambda g: split[g.index]) == 0.0
    against = Plan(3, "greedy", 1, 3)
    games = against.games(0)
    assert len(games) == 6 and [g.rotation for g in games] == [0, 1, 2, 0, 1, 2]
    # theta+ first at every seat, theta- last at every seat
    ranks = {g.index: [1 if r == "theta+" else 3 if r == "theta-" else 2 for r in g.roles]
             for g in games}
    assert iteration_result(games, lambda g: ranks[g.index]) == 1.0
    # theta+ and theta- at one seat of one deal meet the same deal and seeds
    assert games[0].deal_seed == games[3].deal_seed and games[0].bot_seeds == games[3].bot_seeds
    assert games[0].bot_seeds != games[1].bot_seeds
