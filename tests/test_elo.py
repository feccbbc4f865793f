"""Ratings: the Elo fit is the Bradley-Terry maximum-likelihood fit, anchored;
intervals and likelihoods of superiority behave; games decompose into the
right pairwise results.

The reference fit here is written independently of coexist_ai.elo (which
uses a minorize-maximize iteration): Newton's method on the log-likelihood,
in plain numpy.

"""
import math

import numpy as np
import pytest

from coexist_ai import elo

ELO = 400 / math.log(10)


def newton_bradley_terry(wins, games):
    """Maximum-likelihood Elo ratings (bot 0 at 0) by Newton's method:
    P(i beats j) = 1 / (1 + exp(t_j - t_i)); a draw counts half a win."""
    n = len(wins)
    theta = np.zeros(n)
    for _ in range(200):
        p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))
        gradient = wins.sum(axis=1) - (games * p).sum(axis=1)
        weight = games * p * (1 - p)
        information = np.diag(weight.sum(axis=1)) - weight
        # fix bot 0 at 0: solve for the others
        step = np.linalg.solve(information[1:, 1:], gradient[1:])
        theta[1:] += step
        if np.abs(step).max() < 1e-12:
            break
    return theta * ELO


def synthetic(true_elo, pairs, games_per_pair, seed, draw_share=0.1):
    """wins/games matrices of simulated results, with some draws."""
    rng = np.random.default_rng(seed)
    n = len(true_elo)
    wins, games = np.zeros((n, n)), np.zeros((n, n))
    for i, j in pairs:
        p = elo.elo_to_score(true_elo[i] - true_elo[j])
        draws = rng.binomial(games_per_pair, draw_share)
        won = rng.binomial(games_per_pair - draws, p)
        won = min(max(won, 1), games_per_pair - draws - 1)   # a finite MLE
        wins[i, j] += won + draws / 2
        wins[j, i] += games_per_pair - won - draws / 2
        games[i, j] += games_per_pair
        games[j, i] += games_per_pair
    return wins, games


ALL_PAIRS = [(i, j) for i in range(5) for j in range(i + 1, 5)]
CHAIN = [(i, i + 1) for i in range(4)]


@pytest.mark.parametrize("true_elo, pairs, seed", [
    ([0, 50, -120, 300, 10], ALL_PAIRS, 1),
    ([0, 50, -120, 300, 10], ALL_PAIRS, 2),
    ([0, 400, 800, 1200, 1600], CHAIN, 3),          # slow for minorize-maximize
    ([0, -30, 20, 0, 45], CHAIN, 4),
])
def test_ratings_are_the_bradley_terry_maximum_likelihood(true_elo, pairs, seed):
    wins, games = synthetic(true_elo, pairs, 60, seed)
    ours = elo.fit(wins, games, anchor=0, prior=0.0)
    reference = newton_bradley_terry(wins, games)
    assert np.abs(ours - reference).max() < 0.5, (ours, reference)


def test_ratings_from_pairwise_results():
    # 2-player games: a beats b 7-3, b beats c 6-4, a beats c 8-2
    results = [(0, 1, 1.0)] * 7 + [(0, 1, 0.0)] * 3 + [(1, 2, 1.0)] * 6 + \
        [(1, 2, 0.0)] * 4 + [(2, 0, 0.0)] * 8 + [(2, 0, 1.0)] * 2 + [(0, 2, 0.5)] * 2
    wins, games = elo.score_matrices(results, 3)
    assert wins[0, 2] == 9 and wins[2, 0] == 3 and games[0, 2] == 12
    ours = elo.fit(wins, games, anchor=0, prior=0.0)
    assert np.abs(ours - newton_bradley_terry(wins, games)).max() < 0.5
    assert ours[0] == 0 and ours[1] < 0 and ours[2] < ours[1]


def test_anchoring_moves_the_scale_not_the_differences():
    wins, games = synthetic([0, 50, -120, 300, 10], ALL_PAIRS, 40, 5)
    base = elo.fit(wins, games, anchor=0, prior=0.0)
    for anchor in range(5):
        moved = elo.fit(wins, games, anchor=anchor, prior=0.0)
        assert moved[anchor] == 0
        assert np.allclose(moved - moved[0], base, atol=1e-6)


def test_a_prior_pulls_ratings_together():
    wins, games = synthetic([0, 200, -200], [(0, 1), (0, 2), (1, 2)], 10, 6)
    pure = elo.fit(wins, games, 0, prior=0.0)
    shrunk = elo.fit(wins, games, 0, prior=4.0)
    assert np.ptp(shrunk) < np.ptp(pure)


def test_many_score_matrices_are_fitted_at_once_as_one_by_one():
    stack = [synthetic([0, 50, -120, 300, 10], ALL_PAIRS, 20, seed) for seed in range(6)]
    wins, games = np.array([w for w, _ in stack]), np.array([g for _, g in stack])
    together = elo.fit(wins, games, anchor=2)
    for k, (w, g) in enumerate(stack):
        assert np.allclose(together[k], elo.fit(w, g, anchor=2), atol=1e-9)


def test_a_perfect_score_stays_finite_with_the_prior_and_matches_its_closed_form():
    # two bots, 10-0: with one virtual draw the fit is the score 10.5 / 11
    wins, games = elo.score_matrices([(0, 1, 1.0)] * 10, 2)
    rating = elo.fit(wins, games, anchor=1)
    assert rating[0] == pytest.approx(elo.score_to_elo(10.5 / 11), abs=1e-6)


def test_bots_without_games_or_not_linked_to_the_anchor_have_no_rating():
    # bots 0-1 met, 2-3 met, 4 never played
    wins, games = elo.score_matrices([(0, 1, 1.0), (0, 1, 0.0), (2, 3, 1.0)], 5)
    rating = elo.fit(wins, games, anchor=0)
    assert rating[0] == 0 and np.isfinite(rating[1])
    assert np.isnan(rating[2:]).all()


UNITS = [[(0, 1, 1.0), (0, 1, 1.0)], [(0, 1, 1.0), (0, 1, 0.0)],
         [(1, 2, 1.0), (1, 2, 0.5)], [(0, 2, 1.0), (0, 2, 1.0)],
         [(1, 2, 0.0), (1, 2, 1.0)], [(0, 2, 0.0), (0, 2, 1.0)]]


def test_bootstrap_interval_contains_the_estimate_and_narrows_with_more_units():
    widths = []
    for repeats in (2, 8):
        units = UNITS * repeats
        unit_wins, unit_games = elo.unit_matrices(units, 3)
        point = elo.fit(unit_wins.sum(axis=0), unit_games.sum(axis=0), anchor=2)
        low, high, low_se, high_se = elo.percentile_interval(
            elo.bootstrap(unit_wins, unit_games, 2, 4000, seed=1))
        assert (low[:2] <= point[:2]).all() and (point[:2] <= high[:2]).all()
        assert low[2] == high[2] == 0   # the anchor
        assert (low_se[:2] > 0).all() and (low_se[:2] < (high - low)[:2] / 10).all()
        widths.append(high - low)
    assert widths[1][0] < widths[0][0] and widths[1][1] < widths[0][1]


def test_likelihood_of_superiority_is_a_probability_matrix():
    unit_wins, unit_games = elo.unit_matrices(UNITS * 3, 3)
    los = elo.likelihood_of_superiority(elo.bootstrap(unit_wins, unit_games, 0, 2000, 0))
    assert los.shape == (3, 3)
    off = ~np.eye(3, dtype=bool)
    assert ((0 <= los[off]) & (los[off] <= 1)).all() and np.isnan(np.diag(los)).all()
    assert np.allclose((los + los.T)[off], 1)
    assert los[0, 1] > 0.5 and los[0, 2] > 0.5      # a won most of its games


def test_finite_differences_need_points_taken_both_ways():
    # 0 and 1 traded wins, 1 drew 2, 3 lost everything to 0
    wins, _ = elo.score_matrices([(0, 1, 1.0), (0, 1, 0.0), (1, 2, 0.5), (0, 3, 1.0)], 4)
    finite = elo.finite_with(wins)
    assert finite[0, 1] and finite[0, 2] and finite[1, 2]
    assert not finite[0, 3] and not finite[3, 1]


def test_perfect_score_bound():
    # 10 of 10: the expected score is at least 0.025^(1/10) = 0.69 (97.5%)
    assert elo.elo_to_score(elo.perfect_score_bound(10)) == pytest.approx(0.025 ** 0.1)
    assert 0 < elo.perfect_score_bound(10) < elo.perfect_score_bound(40)


def test_pairwise_decomposition_of_a_four_player_game_with_a_shared_place():
    record = {"ranks": [2, 1, 2, 4]}
    results = elo.pairwise_results(record, [10, 11, 12, 13])
    assert sorted(results) == sorted([
        (10, 11, 0.0), (10, 12, 0.5), (10, 13, 1.0),
        (11, 12, 1.0), (11, 13, 1.0), (12, 13, 1.0)])


def test_seats_of_the_same_bot_are_not_paired():
    record = {"ranks": [1, 2, 3, 4]}
    assert sorted(elo.pairwise_results(record, [0, 1, 0, 1])) == \
        [(0, 1, 1.0), (0, 1, 1.0), (0, 1, 1.0), (1, 0, 1.0)]


def test_regression_bootstrap_rates_bots_absent_from_a_resample():
    """Regression (elo.bootstrap): a resample that leaves out every block of a bot
    still gives that bot a rating (its strength stays at the starting value,
    then the mean-zero normalization puts it somewhere), and that arbitrary
    rating enters its interval and the LOS matrix. In a gauntlet where b
    drew 1-1 with the anchor a and c won 2-0, the table says b is above a in
    ~78% of resamples: every resample without b's block."""
    unit_wins, unit_games = elo.unit_matrices(
        [[(0, 1, 1.0), (0, 1, 0.0)], [(0, 2, 0.0), (0, 2, 0.0)]], 3)
    boot = elo.bootstrap(unit_wins, unit_games, 0, 400, seed=0)
    los = elo.likelihood_of_superiority(boot)
    assert abs(los[1, 0] - los[0, 1]) < 0.2, los
