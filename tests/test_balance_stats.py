"""The balance laboratory's statistics are right: its intervals cover the
truth as often as they claim, its unfairness flags fire on a set that
favours one specialty and stay quiet when the specialty cannot matter, and
the facts it reads from a replayed record agree with the engine's own
scoring."""
import dataclasses
import math
import random

import numpy as np
import pytest

from balance_sets import identical_faunas
from coexist_ai.balance import intervals, stats, study
from coexist_ai.balance.facts import HOUSED, game_facts
from coexist_ai.cards import packaged_card_set

# ---- the interval formulas -------------------------------------------------


def test_wilson_interval_matches_the_textbook_case():
    # 81 successes in 263 trials: Wilson's 95% interval is [0.2553, 0.3662]
    low, high = intervals.wilson(81, 263)
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)
    assert intervals.wilson(0, 20)[0] == 0.0 and intervals.wilson(20, 20)[1] == 1.0
    assert all(math.isnan(x) for x in intervals.wilson(0, 0))


def test_a_wilson_interval_always_holds_its_share_despite_rounding():
    # at k = 0 or k = n the computed ends once fell a rounding error short of
    # the share, and the report's error bars then had a negative length
    for n in range(1, 400):
        for k in (0, n, n / 3, n / 2):
            low, high = intervals.wilson(k, n)
            assert low <= k / n <= high, (k, n)


def test_holm_stops_at_the_first_hypothesis_it_cannot_reject():
    # 0.01 <= 0.05/4 is rejected; 0.03 > 0.05/3 stops the procedure
    assert intervals.holm([0.01, 0.04, 0.03, 0.5]) == [True, False, False, False]
    assert intervals.holm([0.001, 0.02, 0.01, math.nan]) == [True, True, True, False]


def _coverage(make_study, truth, replicates=400, seed=1):
    rng = np.random.default_rng(seed)
    covered = 0
    for _ in range(replicates):
        low, high = make_study(rng)
        covered += low <= truth <= high
    return covered / replicates


def test_wilson_intervals_cover_a_share_95_percent_of_the_time():
    def one(rng):
        return intervals.wilson(rng.binomial(300, 0.25), 300)
    assert 0.925 <= _coverage(one, 0.25) <= 0.975


def test_clustered_difference_covers_the_true_difference_95_percent_of_the_time():
    """Four seats a game, one winner: a seat "with the card" (chosen at
    random in 60% of games) wins half the time, the other seats share the
    rest; in the other games every seat wins a quarter of the time. The
    others' win rate is (0.4 * 4 * 1/4 + 0.6 * 3 * 1/6) / (0.4 * 4 + 0.6 * 3)
    = 0.7 / 3.4. The seats of one game are dependent (one's win is the
    others' loss), which the game-clustered variance must account for."""
    truth = 0.5 - 0.7 / 3.4

    def one(rng, games=400):
        y1, n1, y0, n0 = (np.zeros(games) for _ in range(4))
        for g in range(games):
            holder = rng.integers(4) if rng.random() < 0.6 else None
            if holder is None:
                winner = rng.integers(4)
                y0[g], n0[g] = 1, 4
                continue
            winner = holder if rng.random() < 0.5 else rng.choice(
                [s for s in range(4) if s != holder])
            y1[g], n1[g] = float(winner == holder), 1
            y0[g], n0[g] = float(winner != holder), 3
        d = intervals.clustered_difference(y1, n1, y0, n0)
        return d.low, d.high
    assert 0.925 <= _coverage(one, truth) <= 0.975


def test_a_difference_on_too_few_seats_claims_no_interval():
    d = intervals.clustered_difference(np.ones(5), np.ones(5), np.zeros(5), np.full(5, 3.0))
    assert math.isnan(d.low) and math.isnan(d.high) and d.value == 1.0


# ---- specialty flags on real games ------------------------------------------

GAMES = 240


@pytest.fixture(scope="module")
def identical_games():
    return _facts(identical_faunas(), 3)


def _facts(card_set, players, games=GAMES):
    s = study.Study(card_set, card_set, (players,), "random", {players: games}, 5, None)
    run = study.play(s, 1, progress=False, echo=lambda text: None)[players]
    facts, forfeits = study.facts_of(run.records, card_set)
    assert forfeits == 0
    return facts


def _row(rows, fauna):
    return next(r for r in rows if r["fauna"] == fauna)


def test_a_large_bonus_to_one_specialty_is_flagged_with_a_significant_interval(
        identical_games):
    """Two more Survival tokens a protection fill the tracks, which is what
    savannah scores: the same games' figures before and after the bonus."""
    cs = identical_faunas()
    before = _row(stats.specialty_shares(identical_games, cs.faunas()), "savannah")
    bonus = identical_faunas(protect_survival=2)
    after = _row(stats.specialty_shares(_facts(bonus, 3), bonus.faunas()), "savannah")
    assert not before["differs"] and before["low"] <= 1 / 3 <= before["high"]
    assert after["differs"] and after["low"] > 1 / 3 and after["share"] > 0.4
    assert after["p_value"] < 0.001


def test_a_two_player_matchup_is_counted_from_both_seats_and_flagged_when_lopsided():
    """Forest beats air in 80 of 100 games, half of them with forest in the
    second seat; sea and savannah split theirs. Only the lopsided pairing
    is flagged, its share counted whichever seat forest had."""
    base = _facts(identical_faunas(), 2, games=1)[0]
    faunas = identical_faunas().faunas()

    def game(pair, first_wins, swap):
        wins = (1.0, 0.0) if first_wins else (0.0, 1.0)
        return dataclasses.replace(base, faunas=pair[::-1] if swap else pair,
                                   wins=wins[::-1] if swap else wins)
    facts = [game(("forest", "air"), k % 5 != 0, k % 2 == 1) for k in range(100)]
    facts += [game(("sea", "savannah"), k % 2 == 0, k % 4 < 2) for k in range(100)]
    rows = {tuple(r["faunas"]): r for r in stats.matchup_shares(facts, faunas)}
    assert set(rows) == {("forest", "air"), ("sea", "savannah")}
    assert rows["forest", "air"]["share"] == 0.8 and rows["forest", "air"]["differs"]
    assert rows["sea", "savannah"]["share"] == 0.5 and not rows["sea", "savannah"]["differs"]
    assert rows["forest", "air"]["games"] == 100


def test_matchups_are_only_for_two_players(identical_games):
    assert stats.matchup_shares(identical_games, identical_faunas().faunas()) == []


def _relabelled(facts, rng):
    """The same games with the specialties dealt again at random to the
    seats: a labelling that by construction cannot affect who won."""
    out = []
    for f in facts:
        faunas = list(f.faunas)
        rng.shuffle(faunas)
        out.append(dataclasses.replace(f, faunas=tuple(faunas)))
    return out


def test_a_labelling_that_cannot_matter_is_flagged_at_most_five_percent_of_the_time(
        identical_games):
    """The symmetric case. Identical decks do not make the specialties
    equal (their scoring rules differ: sea wins most of these very games),
    so the symmetric set is the same real games with the specialties
    redealt at random after play. Over 300 redeals the Holm-corrected flags
    fire in at most 5% (family-wise) and each interval covers the fair
    share in about 95% of them."""
    faunas = identical_faunas().faunas()
    rng = random.Random(3)
    flagged, covered, tests = 0, 0, 0
    for _ in range(300):
        rows = stats.specialty_shares(_relabelled(identical_games, rng), faunas)
        flagged += any(r["differs"] for r in rows)
        covered += sum(r["low"] <= r["fair"] <= r["high"] for r in rows)
        tests += len(rows)
    assert flagged / 300 <= 0.06
    assert 0.92 <= covered / tests <= 0.98
    real = stats.specialty_shares(identical_games, faunas)
    assert _row(real, "sea")["differs"]          # the unrelabelled games are not fair


def test_the_verdict_needs_every_share_close_and_known_well_enough():
    rows = [{"fauna": f, "share": s, "low": s - h, "high": s + h, "fair": 0.25,
             "differs": False} for f, s, h in (("a", 0.26, 0.02), ("b", 0.24, 0.02),
                                                ("c", 0.27, 0.04), ("d", 0.23, 0.02))]
    v = stats.verdict(rows, 0.03)
    assert v["within_tolerance"] and not v["precise_enough"]
    assert round(v["max_deviation"], 9) == 0.02 and round(v["max_half_width"], 9) == 0.04


def test_a_share_exactly_on_the_tolerance_is_within_it():
    """53 wins of 100 at 2 players is 3 points from fair: within 3 (the
    float 0.53 - 0.5 is a hair above 0.03); 54 is not."""
    for wins, within in ((53, True), (54, False)):
        rows = [{"fauna": "a", "share": wins / 100, "low": 0.5, "high": 0.56, "fair": 0.5,
                 "differs": False}]
        assert stats.verdict(rows, 0.03)["within_tolerance"] is within


# ---- facts read from records agree with the engine's scores -----------------

def test_card_fates_add_up_to_what_the_engine_scored():
    """Replayed facts against the score breakdown the record holds: the
    conservation of the cards each seat released, the forest animals
    released and air animals protected by anyone, the best animal left on a
    board (sea) for the seats of those specialties."""
    cs = packaged_card_set("reconstructed-v1")
    for players in (2, 4):
        s = study.Study(cs, cs, (players,), "greedy", {players: 6}, 11, None)
        for record in study.play(s, 1, progress=False, echo=lambda text: None)[players].records:
            f = game_facts(record, cs)
            animals = cs.animals()
            for seat, part in enumerate(record["breakdown"]):
                assert part["conservation"] == sum(
                    a.conservation for a, (fate, by) in zip(animals, f.fates)
                    if fate == "released" and by == seat)
                assert f.parts[seat] == (part["conservation"], part["reputation"],
                                         part["specialty"])
                count = {"forest": sum(a.fauna == "forest" and fate == "released"
                                       for a, (fate, _) in zip(animals, f.fates)),
                         "air": sum(a.fauna == "air" and fate == "protected"
                                    for a, (fate, _) in zip(animals, f.fates)),
                         "sea": max([a.conservation for a, (fate, _) in zip(animals, f.fates)
                                     if fate == "board"], default=0)}
                if f.faunas[seat] in count:
                    assert part["specialty"] == count[f.faunas[seat]]
            housed_by = [by for fate, by in f.fates if fate in HOUSED]
            assert all(by in range(players) for by in housed_by)
            discards = sum(move.startswith("discard ") and move.split()[1] in cs.by_id
                           for _, move in record["moves"])
            assert discards == sum(fate == "discarded" for fate, _ in f.fates)
            releases = [sum(fate == "released" and by == p for fate, by in f.fates)
                        for p in range(players)]
            if f.end == "release goal":
                assert max(releases) >= cs.rules["release_goal"]
            else:
                assert f.end == "draw pile" and all(fate != "deck" for fate, _ in f.fates)
