"""Conformance: random games checked after every action, as OpenSpiel checks
every game it ships.

Seeded random games at 2, 3 and 4 players (COEXIST_CONFORMANCE_GAMES per
player count, 600 by default) are played in a Python loop so that every
step can be checked:

- the legal list is non-empty until the game ends, has no duplicates, and
  each move round-trips through the notation (move_name -> parse_move);
- copy-then-apply (checked) equals apply_unchecked, and a copy is independent
  of its original;
- check_invariants() == 0 (token totals, every card in one place, tracks);
- a non-legal action is refused by is_legal; on a subsample apply() raises
  IllegalMoveError and leaves the state byte-identical;
- every game ends, within max_rounds; scores() is the sum of
  score_breakdown(); ranks follow scores and the tie-break.

The costlier checks run on a subsample of steps (every JSON_STRIDE-th step of
every JSON_GAME_STRIDE-th game, and the last position of every game): JSON
round trips of states and observations, the real parse_move path, and the
hidden-information checks (observations do not depend on the hidden order;
determinize keeps the observation and the public hash). Statistical tests at
the end check that determinize is uniform.
"""
import itertools
import json
import math
import os
import random
from collections import Counter

import pytest

from coexist_ai import notation
from coexist_ai.vocabulary import ActionKind
from coexist_ai._engine import Observation, State
from coexist_ai.cards import default_card_set
from coexist_ai.errors import IllegalMoveError
from coexist_ai.state_json import observation_from_json

GAMES = int(os.environ.get("COEXIST_CONFORMANCE_GAMES", "600"))
JSON_GAME_STRIDE = 50      # games whose steps get the costly checks
JSON_STRIDE = 5            # ... on every 5th step
ILLEGAL_STRIDE = 7         # apply() of an illegal action, every 7th step
MAX_ACTIONS = 20_000       # far above any real game (about 300..900 actions)
P_MIN = 1e-4               # significance threshold of the uniformity tests

CS = default_card_set()
MAX_ROUNDS = CS.rules["max_rounds"]


# ---- helpers ---------------------------------------------------------------

class NotationCache:
    """move_name and the position-free parse of each action int, computed
    once: the per-step check then does what parse_legal_move does (the first
    candidate of the text that is legal) without re-parsing the text."""

    def __init__(self):
        self.names, self.candidates = {}, {}
        # every action met so far, to draw non-legal actions from; seeded
        # with moves of every kind that need no card
        self.seen = [notation.make_action(kind) for kind in range(ActionKind.RECRUIT)]
        self.seen += [notation.make_action(ActionKind.RECRUIT, x) for x in range(5)]

    def check(self, state, legal, legal_set):
        for a in legal:
            name = self.names.get(a)
            if name is None:
                name = self.names[a] = state.move_name(a)
                self.seen.append(a)
                self.candidates[a] = notation.parse_move(CS, name)
            found = next((c for c in self.candidates[a] if c in legal_set), None)
            assert found == a, f"{name!r} parses to {found}, not {a}"


def expected_ranks(scores, tracks):
    return [1 + sum(scores[q] > scores[p] or (scores[q] == scores[p] and tracks[q] < tracks[p])
                    for q in range(len(scores)))
            for p in range(len(scores))]


def tracks_of(state):
    raw = state._referee_raw()
    return [raw["players"][p]["track"] for p in range(state.num_players)]


def check_scores(state):
    scores = state.scores()
    parts = state.score_breakdown()
    assert scores == [p.total for p in parts]
    assert scores == [p.conservation + p.reputation + p.specialty for p in parts]
    assert state.ranks() == expected_ranks(scores, tracks_of(state))


def check_json(state, seat):
    """State and observation JSON round trips, exact both ways (observations
    of all seats differ only in their viewer: one seat is enough)."""
    text = state.to_json()
    back = State.from_json(text)
    assert back == state, "state -> JSON -> state changed the state"
    assert back.to_json() == text, "JSON -> state -> JSON changed the text"
    obs = state.observation(seat)
    otext = obs.to_json()
    oback = observation_from_json(otext)
    assert oback == obs and oback.viewer == seat
    assert oback.to_json() == otext
    return text


def check_hidden(state, rng, state_text):
    """Observations carry nothing of the real draw order."""
    seat = rng.randrange(state.num_players)
    obs = state.observation(seat)
    doc = json.loads(obs.to_json())
    assert "draw_pile_order" not in doc
    assert doc["draw_pile_contents"] == sorted(doc["draw_pile_contents"], key=CS.index_of)
    assert not hasattr(obs, "referee_draw_pile") and not hasattr(obs, "_referee_raw")
    assert obs.draw_pile_contents() == state.draw_pile_contents()
    k = rng.randrange(1 << 62)
    other = obs.determinize(k)
    # same public position, possibly another hidden order
    assert sorted(other.referee_draw_pile()) == sorted(state.referee_draw_pile())
    assert other.check_invariants() == 0
    assert other.public_hash() == state.public_hash() == obs.public_hash()
    assert other.observation(seat) == obs
    assert other.observation(seat).to_json() == obs.to_json()
    assert other.legal_actions() == state.legal_actions()
    assert json.loads(other.to_json())["draw_pile_contents"] == \
        json.loads(state_text)["draw_pile_contents"]
    # determinize reads only the observation: from the other hidden order's
    # observation it gives the very same State
    assert other.observation(seat).determinize(k) == other


def illegal_candidate(rng, pool, legal_set):
    for _ in range(8):
        a = rng.choice(pool)
        if a not in legal_set:
            return a
    return -1   # no action has a negative number


# ---- random games, every step checked ---------------------------------------

def play_checked_game(players, game, cache, stats):
    seed = players * 1_000_003 + game
    rng = random.Random(seed)
    state = State.new(players=players, seed=seed, first_player=game % players)
    costly = game % JSON_GAME_STRIDE == 0
    assert state.check_invariants() == 0
    step = 0
    while not state.is_over():
        assert step < MAX_ACTIONS, f"game {seed}: no end after {step} actions"
        legal = state.legal_actions()
        legal_set = set(legal)
        assert legal, f"game {seed} step {step}: no legal action in {state.phase!r}"
        assert len(legal_set) == len(legal), f"game {seed}: duplicates in {legal}"
        cache.check(state, legal, legal_set)

        bad = illegal_candidate(rng, cache.seen, legal_set)
        assert not state.is_legal(bad)
        if step % ILLEGAL_STRIDE == 0:
            before = state.referee_bytes()
            with pytest.raises(IllegalMoveError):
                state.apply(bad)
            assert state.referee_bytes() == before
            stats["illegal"] += 1

        if costly and step % JSON_STRIDE == 0:
            text = check_json(state, step % players)
            check_hidden(state, rng, text)
            for a in legal:
                assert state.parse_move(state.move_name(a)) == a
            check_scores(state)
            stats["json"] += 1

        assert legal == sorted(legal), f"game {seed} step {step}: not ascending"
        action = rng.choice(legal)
        before = state.referee_bytes()
        snapshot = state.copy()
        checked = state.copy()
        checked.apply(action)
        state.apply_unchecked(action)
        assert checked == state, f"game {seed} step {step}: apply != apply_unchecked"
        assert snapshot.referee_bytes() == before, "a copy changed with its original"
        assert state.check_invariants() == 0, (
            f"game {seed} step {step}: invariant {state.check_invariants()} broken "
            f"by {state.move_name(action)!r}")
        step += 1

    assert state.legal_actions() == [] and state.phase == "over"
    assert state.rounds <= MAX_ROUNDS
    assert state.end_triggered or state.rounds == MAX_ROUNDS
    check_scores(state)
    if costly or game % 10 == 0:
        text = check_json(state, game % players)
        check_hidden(state, rng, text)
        stats["json"] += 1
    with pytest.raises(IllegalMoveError):
        state.apply(rng.choice(cache.seen))
    stats["steps"] += step
    stats["rounds"][state.rounds] += 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_every_step(players):
    cache = NotationCache()
    stats = {"steps": 0, "json": 0, "illegal": 0, "rounds": Counter()}
    for game in range(GAMES):
        play_checked_game(players, game, cache, stats)
    # the subsample really ran, over many distinct moves
    assert stats["json"] >= GAMES // 10 and stats["illegal"] >= GAMES
    assert len(cache.names) > 100


@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_playouts_in_c_end_consistently(players):
    """Ten times more games, played out in C, checked at the end only."""
    for game in range(GAMES * 10):
        state = State.new(players=players, seed=10**9 + game,
                          first_player=game % players)
        played = state.playout_random(game)
        assert state.is_over() and 0 < played < MAX_ACTIONS
        assert state.check_invariants() == 0
        assert state.rounds <= MAX_ROUNDS
        scores = state.scores()
        assert state.ranks() == expected_ranks(scores, tracks_of(state))


def test_every_faunas_combination_and_first_player_deals():
    for players in (2, 3, 4):
        for faunas in itertools.permutations(("forest", "air", "sea", "savannah"), players):
            for first in range(players):
                state = State.new(players=players, faunas=faunas, first_player=first, seed=7)
                assert state.check_invariants() == 0
                assert state.current_player == first == state.first_player
                assert state.draw_pile_size() == 20 * players - 5
                assert json.loads(state.to_json())["seats"][0]["fauna"] == faunas[0]
                state.playout_random(first)
                assert state.is_over() and state.check_invariants() == 0


# ---- hidden information: determinize is uniform ------------------------------

def chi_square_p(observed, expected):
    """Upper tail of the chi-square statistic (regularized gamma Q)."""
    stat = sum((o - e) ** 2 / e for o, e in zip(observed, expected))
    return gamma_q((len(observed) - 1) / 2, stat / 2)


def gamma_q(a, x):
    if x <= 0:
        return 1.0
    if x < a + 1:   # series for P, then Q = 1 - P
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - math.lgamma(a)))
    # continued fraction (Lentz) for Q
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def test_chi_square_helper():
    assert chi_square_p([100, 100, 100, 100], [100] * 4) == pytest.approx(1.0)
    # reference values of the chi-square upper tail
    assert gamma_q(23 / 2, 35.172 / 2) == pytest.approx(0.05, abs=5e-4)
    assert gamma_q(1 / 2, 6.635 / 2) == pytest.approx(0.01, abs=2e-4)
    assert gamma_q(34 / 2, 20.0 / 2) == pytest.approx(0.9730, abs=2e-3)
    assert chi_square_p([200, 0, 0, 0], [50] * 4) < 1e-10


def position_with_pile(size):
    """A mid-game position whose draw pile holds exactly `size` cards."""
    for seed in range(1000):
        state = State.new(players=2, seed=seed)
        rng = random.Random(seed)
        while not state.is_over():
            if state.draw_pile_size() == size:
                return state
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError(f"no position with a draw pile of {size}")


def test_determinize_uniform_over_the_orders_of_a_small_pile():
    state = position_with_pile(4)
    obs = state.observation(state.current_player)
    cards = sorted(state.referee_draw_pile())
    orders = list(itertools.permutations(cards))
    samples = 24 * 400
    seen = Counter(tuple(obs.determinize(seed).referee_draw_pile())
                   for seed in range(samples))
    assert set(seen) == set(orders), "some order of the pile is never dealt"
    p = chi_square_p([seen[o] for o in orders], [samples / 24] * 24)
    assert p > P_MIN, f"orders of a 4-card pile not uniform (p = {p:.2e}): {seen}"


def test_determinize_uniform_over_a_full_pile():
    state = State.new(players=2, seed=5)
    obs = state.observation(0)
    cards = sorted(state.referee_draw_pile())
    n = len(cards)
    samples = n * 300
    first, last, fox_at = Counter(), Counter(), Counter()
    watched = cards[n // 2]
    for seed in range(samples):
        pile = obs.determinize(seed).referee_draw_pile()
        first[pile[0]] += 1
        last[pile[-1]] += 1
        fox_at[pile.index(watched)] += 1
    for name, counter in (("first card", first), ("last card", last)):
        p = chi_square_p([counter[c] for c in cards], [samples / n] * n)
        assert p > P_MIN, f"{name} of the pile not uniform (p = {p:.2e})"
    p = chi_square_p([fox_at[i] for i in range(n)], [samples / n] * n)
    assert p > P_MIN, f"position of one card not uniform (p = {p:.2e})"


def test_determinize_seeds():
    state = State.new(players=3, seed=9)
    obs = state.observation(1)
    piles = [tuple(obs.determinize(seed).referee_draw_pile()) for seed in range(50)]
    assert len(set(piles)) == 50, "different seeds gave the same order"
    assert obs.determinize(17) == obs.determinize(17), "a seed must give one order"


def test_observation_is_the_same_whatever_the_hidden_order():
    state = position_with_pile(12)
    deck_orders = set()
    for seed in range(20):
        other = state.observation(0).determinize(seed)
        deck_orders.add(tuple(other.referee_draw_pile()))
        for seat in range(state.num_players):
            assert other.observation(seat) == state.observation(seat)
            assert other.observation(seat).to_json() == state.observation(seat).to_json()
            assert other.observation(seat)._public_raw() == state.observation(seat)._public_raw()
        assert other.public_hash() == state.public_hash()
    assert len(deck_orders) > 1


def test_observation_hides_the_order():
    state = position_with_pile(12)
    obs = state.observation(1)
    doc = json.loads(obs.to_json())
    assert doc["format"] == "coexist-observation" and doc["viewer"] == 1
    assert "draw_pile_order" not in doc
    assert doc["draw_pile_contents"] == sorted(doc["draw_pile_contents"], key=CS.index_of)
    assert len(doc["draw_pile_contents"]) == doc["draw_pile_size"] == 12
    assert isinstance(obs, Observation) and not isinstance(obs, State)
    for name in ("referee_draw_pile", "_referee_raw", "referee_bytes", "apply",
                 "apply_unchecked", "push"):
        assert not hasattr(obs, name), f"Observation.{name} exists"
    raw = obs._public_raw()
    hidden = raw["deck"][raw["deck_pos"]:raw["deck_len"]]
    assert hidden == sorted(hidden) == obs.draw_pile_contents()
    # the observation of a state is the same for every seat but the viewer
    assert state.observation(0) == state.observation(1)
    # the real order is not what the observation's determinize returns
    assert obs.determinize(0).referee_draw_pile() != state.referee_draw_pile() or \
        obs.determinize(1).referee_draw_pile() != state.referee_draw_pile()
