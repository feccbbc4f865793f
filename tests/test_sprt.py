"""The SPRT of a duel keeps the error rates it promises.

A fast statistical simulation, not real games: thousands of duels at once,
each a sequence of block outcomes drawn from a distribution with the
expected score of the true Elo, tested after every complete block the way
the stop rule tests a real duel. The block distributions are exponential
tilts of a few base shapes (independent games with draws, deals that decide
most games, a 4-player duel's 32 pairings a block), so the mean is exactly
the expected score of the Elo asked for.

Then the stop rule itself, on real Standings: only complete deals count.
"""
import numpy as np
import pytest

from coexist_ai import sprt
from coexist_ai.results import Standings
from coexist_ai.schedule import Entrant
from coexist_ai.tournament import Tournament


def tilt(values, base, mean):
    """The distribution q ~ base * exp(t * value) with mean `mean`."""
    lo, hi = -60.0, 60.0
    for _ in range(200):
        t = (lo + hi) / 2
        q = base * np.exp(t * (values - 0.5))
        q /= q.sum()
        lo, hi = (t, hi) if q @ values < mean else (lo, t)
    return q


def simulate(values, probs, elo0, elo1, alpha, beta, runs, seed, max_blocks=20000):
    """Share of runs accepting H1 (and of runs still undecided)."""
    rng = np.random.default_rng(seed)
    lower, upper = sprt.bounds(alpha, beta)
    counts = np.zeros((runs, len(values)))
    active, accepted = np.arange(runs), np.zeros(runs, bool)
    cumulative = np.cumsum(probs)
    for _ in range(max_blocks):
        outcome = np.minimum(np.searchsorted(cumulative, rng.random(len(active))),
                             len(values) - 1)
        counts[active, outcome] += 1
        llr = sprt.llr_counts(values, counts[active], elo0, elo1)
        accepted[active[llr >= upper]] = True
        active = active[(llr > lower) & (llr < upper)]
        if not len(active):
            break
    return accepted.mean(), len(active) / runs


PENTANOMIAL = np.linspace(0, 1, 5)            # a 2-player block: 0, 1/4 ... 1
GAME = np.array([0.49, 0.02, 0.49])           # loss, draw, win: 2% draws
INDEPENDENT = np.convolve(GAME, GAME)
DEAL_DECIDES = np.array([0.03, 0.04, 0.86, 0.04, 0.03])
FOUR_PLAYERS = np.linspace(0, 1, 33)           # 32 pairings of a 4-player block
FOUR_BASE = np.exp(-((FOUR_PLAYERS - 0.5) ** 2) / (2 * 0.15 ** 2))

CASES = [  # values, base, elo0, elo1, alpha, beta
    (PENTANOMIAL, INDEPENDENT, 0, 50, 0.05, 0.05),
    (PENTANOMIAL, INDEPENDENT, 0, 100, 0.05, 0.05),
    (PENTANOMIAL, DEAL_DECIDES, 0, 50, 0.05, 0.05),
    (PENTANOMIAL, INDEPENDENT, 0, 100, 0.05, 0.10),
    (FOUR_PLAYERS, FOUR_BASE / FOUR_BASE.sum(), 0, 50, 0.05, 0.05),
]
RUNS = 3000


@pytest.mark.parametrize("values, base, elo0, elo1, alpha, beta", CASES)
def test_equal_bots_accept_h1_at_most_alpha(values, base, elo0, elo1, alpha, beta):
    probs = tilt(values, base, sprt.expected_score(elo0))
    assert probs @ values == pytest.approx(0.5)
    accepted, undecided = simulate(values, probs, elo0, elo1, alpha, beta, RUNS, seed=11)
    assert undecided == 0
    assert accepted <= alpha + 0.01, accepted


@pytest.mark.parametrize("values, base, elo0, elo1, alpha, beta", CASES)
def test_at_elo1_the_power_is_at_least_one_minus_beta(values, base, elo0, elo1, alpha, beta):
    probs = tilt(values, base, sprt.expected_score(elo1))
    accepted, undecided = simulate(values, probs, elo0, elo1, alpha, beta, RUNS, seed=12)
    assert undecided == 0
    assert accepted >= 1 - beta - 0.01, accepted


def test_llr_moves_with_the_evidence():
    lower, upper = sprt.bounds(0.05, 0.05)
    assert lower == pytest.approx(np.log(0.05 / 0.95))
    assert upper == pytest.approx(np.log(0.95 / 0.05))
    assert sprt.llr([], 0, 10) == 0.0
    strong = [1.0, 0.75, 0.5, 1.0, 0.75, 0.5, 0.25, 1.0] * 20
    weak = [1 - x for x in strong]
    even = [1.0, 0.0, 0.5, 0.5, 0.25, 0.75, 0.5, 0.5] * 20
    assert sprt.llr(strong, 0, 10) > upper and sprt.llr(weak, 0, 10) < lower
    # equal bots: the evidence is for the hypothesis nearer their true 0 Elo
    assert sprt.llr(even, 0, 10) < 0 < sprt.llr(even, -10, 0)
    assert sprt.llr(strong * 2, 0, 10) > sprt.llr(strong, 0, 10) > 0


def test_llr_is_the_same_on_any_grid_of_outcomes():
    """Outcomes never seen in the middle of the scale change nothing: the
    LLR of the observed values alone equals that on the full grid."""
    scores = [0.5, 0.75, 1.0, 0.5, 0.5, 0.25]
    values, counts = sprt.categories(scores)
    grid = np.linspace(0, 1, 9)
    on_grid = np.array([[scores.count(v) for v in grid]], float)
    assert sprt.llr(scores, 0, 50) == pytest.approx(
        sprt.llr_counts(grid, on_grid, 0, 50)[0], abs=1e-9)


def test_regression_sprt_accepts_h1_on_two_blocks():
    """Regression (elo.sprt_llr): two blocks scoring 1.0 each had variance
    0, floored at 1e-4, so the LLR was ~141 and H1 was accepted after 4
    games. Between equal bots two 2-game blocks are both won with
    probability 1/16 > alpha = 0.05."""
    lower, upper = sprt.bounds(0.05, 0.05)
    assert sprt.llr([1.0, 1.0], 0, 10) < upper
    assert sprt.llr([1.0, 1.0], 0, 50) < upper
    assert sprt.llr([1.0] * 5, 0, 100) < upper


def record(game, entrants, specs, ranks, deal):
    """A minimal record: who sat where, how they finished, which deal."""
    return {"run": "r", "game": game, "round": game // 2, "entrants": entrants,
            "bots": [{"spec": s} for s in specs], "ranks": ranks, "players": 2,
            "faunas": ["sea", "air"], "first_player": 0, "deck": [f"deal-{deal}"]}


def test_regression_sprt_decides_on_unfinished_blocks():
    """Regression (cli_tournament.sprt_rule): the stop rule took the block
    scores of every block with a game in, so a duel stopped after 5 games
    decided on a block played in one seat order only. Only deals whose
    games are all played count: here 2 of 3."""
    t = Tournament("duel", [Entrant("a", "random"), Entrant("b", "greedy")], 2,
                   "round-robin", 3, seed=1, anchor="b")
    games = list(t.schedule.games())
    standings = Standings(t)
    for g in games[:5]:
        won = [1, 2] if g.lineup[0] == 0 else [2, 1]
        entrants, specs = zip(*[(t.entrants[i].name, t.entrants[i].spec) for i in g.lineup])
        standings.add(dict(record(g.index, entrants, specs, won, g.round), **t.meta(g)))
    assert standings.complete_deal_scores(0) == [1.0, 1.0]
    assert standings.complete_deal_games() == 4
    test = sprt.Sprt(0, 50, 0.05, 0.05)
    test.update(standings.complete_deal_scores(0), standings.complete_deal_games())
    assert test.blocks == 2 and test.games == 4
    assert f"{test.games} games in 2 complete deals" in test.summary()
