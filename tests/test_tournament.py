"""Which games a tournament plays: blocks of one deal under every seat
rotation, seeds that depend only on the tournament seed and the game's place
in the schedule (so parallel runs and resumed runs play the same games).
"""
import itertools
import json
import tracemalloc
from collections import Counter

import pytest

from coexist_ai.bots import BotSpecError
from coexist_ai.records import read_records
from coexist_ai.schedule import Entrant, Schedule
from coexist_ai.tournament import Tournament, run
from cli_process import assert_ok, cli

SHAPES = [("round-robin", 2, 2), ("round-robin", 3, 2), ("round-robin", 4, 3),
          ("round-robin", 2, 3), ("round-robin", 2, 4), ("round-robin", 3, 4),
          ("gauntlet", 4, 2), ("gauntlet", 4, 3), ("chain", 6, 2), ("chain", 7, 4),
          ("chain", 3, 2)]


def entrants(n):
    return [Entrant(f"bot{i}", "random") for i in range(n)]


def blocks(games):
    out = {}
    for g in games:
        out.setdefault(g.block, []).append(g)
    return out


def quiet_run(t, out=None, jobs=1, **kw):
    return run(t, None if out is None else str(out), jobs=jobs, progress=False,
               echo=lambda _: None, **kw)


def strip(records):
    return sorted(({k: v for k, v in r.items() if k != "times"} for r in records),
                  key=lambda r: r["game"])


@pytest.mark.parametrize("mode, n, players", SHAPES)
def test_every_block_is_one_deal_under_every_rotation(mode, n, players):
    schedule = Schedule(mode, entrants(n), players, seed=3, rounds=2)
    games = list(schedule.games())
    assert [g.index for g in games] == list(range(len(schedule)))
    for block, members in blocks(games).items():
        # every seating of the table once: each rotation whose line-up is new
        table = members[0].lineup
        seatings = {tuple(table[(s + r) % players] for s in range(players))
                    for r in range(players)}
        assert sorted(g.lineup for g in members) == sorted(seatings)
        assert len({g.deal_seed for g in members}) == 1
        assert len({(g.round, g.table) for g in members}) == 1
        # each entrant of the table sits in each seat equally often
        seats = Counter((entrant, seat) for g in members for seat, entrant in enumerate(g.lineup))
        for entrant in set(members[0].lineup):
            assert len({seats[entrant, s] for s in range(players)}) == 1
        if mode == "gauntlet":
            assert all(0 in g.lineup for g in members)
    # every entrant plays, a new deal every round, fresh bot seeds every game
    assert {e for g in games for e in g.lineup} == set(range(n))
    assert len({g.deal_seed for g in games}) == 2
    assert len({s for g in games for s in g.bot_seeds}) == len(games) * players


def test_round_robin_meets_every_group_of_entrants():
    schedule = Schedule("round-robin", entrants(4), 3, seed=1, rounds=1)
    assert {tuple(sorted(t)) for t in schedule.tables} == \
        {(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)}
    assert len(schedule) == 4 * 3


def test_a_chain_meets_neighbours_only_and_ties_every_bot_twice():
    """Listed weakest first, each bot meets the next two (at 2 players): no
    far pair is played, and every bot but the ends meets four others, so
    the ratings hang together along two paths."""
    schedule = Schedule("chain", entrants(6), 2, seed=1, rounds=1)
    assert schedule.tables == [(0, 1), (0, 2), (1, 2), (1, 3), (2, 3), (2, 4),
                               (3, 4), (3, 5), (4, 5)]
    assert len(schedule) == 9 * 2
    four = Schedule("chain", entrants(6), 4, seed=1, rounds=1)
    assert all(max(t) - min(t) <= 4 for t in four.tables)
    assert {e for t in four.tables for e in t} == set(range(6))
    assert Schedule("chain", entrants(3), 2, seed=1, rounds=1).tables == \
        Schedule("round-robin", entrants(3), 2, seed=1, rounds=1).tables


def test_seeds_depend_on_the_tournament_seed_only():
    one = list(Schedule("round-robin", entrants(3), 2, seed=1, rounds=2).games())
    assert one == list(Schedule("round-robin", entrants(3), 2, seed=1, rounds=2).games())
    other = list(Schedule("round-robin", entrants(3), 2, seed=2, rounds=2).games())
    assert {g.deal_seed for g in one}.isdisjoint(g.deal_seed for g in other)
    # more rounds extend the schedule without changing its first games
    longer = list(Schedule("round-robin", entrants(3), 2, seed=1, rounds=3).games())
    assert longer[:len(one)] == one


def test_a_schedule_without_tables_is_refused():
    with pytest.raises(ValueError, match="no table"):
        Schedule("gauntlet", entrants(1), 2, seed=1, rounds=1)


def test_a_bad_spec_is_refused_before_any_game():
    with pytest.raises(BotSpecError, match="unknown bot 'nosuch'"):
        Tournament("t", [Entrant("a", "random"), Entrant("b", "nosuch")], 2,
                   "round-robin", 1, 1)


MIXED = [Entrant("random", "random"), Entrant("greedy", "greedy"),
         Entrant("search", "ismcts:iterations=20")]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A 3-bot round robin at 2 players (6 blocks), played with --jobs 1."""
    out = tmp_path_factory.mktemp("tournament") / "one.jsonl"
    t = Tournament("mixed", MIXED, 2, "round-robin", 2, 7)
    quiet_run(t, out, jobs=1)
    return t, read_records(str(out))


def test_records_of_a_block_share_the_deal(played):
    t, records = played
    assert len(records) == len(t.schedule) == 12
    by_block = {}
    for r in records:
        by_block.setdefault(r["block"], []).append(r)
    assert len(by_block) == 6
    for members in by_block.values():
        assert len({json.dumps([r["faunas"], r["deck"], r["first_player"]])
                    for r in members}) == 1
        assert sorted(r["rotation"] for r in members) == [0, 1]
        a, b = (sorted(members, key=lambda r: r["rotation"]))
        assert a["entrants"] == b["entrants"][::-1]   # the bots swapped seats


def test_the_same_seed_plays_the_same_games_whatever_the_jobs(played, tmp_path):
    t, records = played
    out = tmp_path / "two.jsonl"
    quiet_run(Tournament("mixed", MIXED, 2, "round-robin", 2, 7), out, jobs=2)
    assert strip(read_records(str(out))) == strip(records)
    # and another seed plays other games
    other = tmp_path / "other.jsonl"
    quiet_run(Tournament("mixed", MIXED, 2, "round-robin", 1, 8), other, jobs=1)
    decks = {json.dumps(r["deck"]) for r in records}
    assert decks.isdisjoint(json.dumps(r["deck"]) for r in read_records(str(other)))


def test_more_rounds_extend_a_run_and_play_only_the_new_games(played, tmp_path):
    t, records = played
    out = tmp_path / "grow.jsonl"
    quiet_run(Tournament("mixed", MIXED, 2, "round-robin", 1, 7), out)
    first = out.read_bytes()
    assert first.count(b"\n") == 6
    messages, counted = [], []
    standings = run(Tournament("mixed", MIXED, 2, "round-robin", 2, 7), str(out), jobs=1,
                    progress=False, echo=messages.append, count=counted.append)
    assert out.read_bytes().startswith(first)
    assert any("6 games already played, 6 to go" in m for m in messages)
    assert strip(read_records(str(out))) == strip(records)
    assert standings.recorded == 12
    # count() sees every game the standings count, those read back included
    assert strip(counted) == strip(records)


def test_a_stop_rule_ends_the_run_early(tmp_path):
    out = tmp_path / "stop.jsonl"
    t = Tournament("stop", MIXED[:2], 2, "round-robin", 10, 1)
    standings = quiet_run(t, out, stop_rule=lambda s: s.recorded >= 3)
    assert standings.recorded == 3
    assert len(read_records(str(out))) == 3


@pytest.mark.parametrize("n, players, per_round", [(2, 2, 2), (2, 3, 6), (2, 4, 2),
                                                   (3, 4, 12), (3, 3, 3), (4, 4, 4)])
def test_each_distinct_seating_is_played_once_a_round(n, players, per_round):
    """A duel at 4 players seats A B A B: turned by two seats it is the same
    line-up on the same deal, the same game again. Each round plays every
    distinct seating once."""
    schedule = Schedule("round-robin", entrants(n), players, seed=3, rounds=3)
    assert schedule.games_per_round == per_round
    games = list(schedule.games())
    assert len(games) == len(schedule) == 3 * per_round
    for rnd in range(3):
        lineups = [g.lineup for g in games if g.round == rnd]
        assert len(set(lineups)) == len(lineups) == per_round


def test_a_four_player_duel_plays_distinct_games_and_counts_them(tmp_path):
    out = tmp_path / "four.jsonl"
    proc = cli("duel", "greedy", "random", "--players", 4, "--games", 4, "--seed", 2,
               "--jobs", 1, "--quiet", "--out", out)
    assert_ok(proc)
    assert "4 games at 4 players" in proc.stdout
    records = read_records(str(out))
    assert len(records) == 4
    seatings = {(r["round"], tuple(r["entrants"])) for r in records}
    assert len(seatings) == 4      # no game is a repeat of another


# -- a schedule costs nothing until its games are played -------------------------

def test_games_are_made_from_their_index_alone():
    schedule = Schedule("round-robin", entrants(3), 2, seed=5, rounds=10**12)
    assert len(schedule) == 6 * 10**12        # arithmetic, nothing listed
    games = schedule.games()
    assert iter(games) is games               # an iterator, not a list
    first = [next(games) for _ in range(8)]
    assert first == [schedule.game(k) for k in range(8)]
    assert list(Schedule("round-robin", entrants(3), 2, seed=5, rounds=2).games()) == \
        [schedule.game(k) for k in range(12)]
    assert [g.index for g in itertools.islice(schedule.games(skip={0, 2}), 3)] == [1, 3, 4]


def peak_bytes_to_start(rounds, tmp_path):
    """Peak Python memory of a run that stops after its first two games."""
    t = Tournament("big", entrants(2), 2, "round-robin", rounds, 1)
    tracemalloc.start()
    try:
        run(t, str(tmp_path / f"big{rounds}.jsonl"), jobs=1, progress=False,
            echo=lambda _: None, stop_rule=lambda s: s.recorded >= 2)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_starting_a_run_costs_the_same_whatever_its_length(tmp_path):
    small = peak_bytes_to_start(1, tmp_path)
    huge = peak_bytes_to_start(50_000, tmp_path)     # 100,000 games
    assert huge < small + 256 * 1024, (small, huge)


def _with_former_defaults(monkeypatch, only=None):
    """The bots as they were before any default changed (Param.former),
    or only the parameter named `only`."""
    from dataclasses import replace
    from coexist_ai.bots.spec import BOT_TYPES
    for name, (cls, help_text, params) in list(BOT_TYPES.items()):
        monkeypatch.setitem(BOT_TYPES, name, (cls, help_text, [
            replace(p, default=p.former_value()) if only in (None, p.name) else p
            for p in params]))


def test_a_run_relying_on_a_changed_default_is_another_run(monkeypatch):
    """A run begun before a default changed (prior 0, eval hand, policy light) and
    resumed after would rate two bots as one: its id includes the defaults
    it relies on that changed. A run that spells them out, or whose bots
    have no changed default, keeps its id."""
    # eval spelled out: the model identity alone would tell a learned bot
    # from the hand one; the prior's default is what tells these apart
    entrants = [Entrant("a", "ismcts:iterations=10,eval=hand"), Entrant("b", "greedy")]
    spelled = [Entrant("a", "ismcts:iterations=10,eval=hand,prior=0,policy=fitted"),
               Entrant("b", "greedy")]
    plain = [Entrant("a", "random"), Entrant("b", "greedy")]
    now = [Tournament("t", e, 2, "round-robin", 1, 3).run_id for e in (entrants, spelled, plain)]
    _with_former_defaults(monkeypatch)
    then = [Tournament("t", e, 2, "round-robin", 1, 3).run_id for e in (entrants, spelled, plain)]
    assert now[0] != then[0]
    assert now[1:] == then[1:]


def test_four_rounds_of_rollout_are_another_run_only_where_they_are_not_8_turns(monkeypatch):
    """rollout_depth=-1 (four rounds) plays as the former default, 8 turns,
    at 2 players: the published 2-player runs keep their ids; at 3 and 4
    players it plays 12 and 16 turns, so a run begun before is another."""
    entrants = [Entrant("a", "ismcts:iterations=10"), Entrant("b", "greedy")]
    def ids():
        return {n: Tournament("t", entrants, n, "round-robin", 1, 3).run_id for n in (2, 3, 4)}
    now = ids()
    _with_former_defaults(monkeypatch, only="rollout_depth")
    then = ids()
    assert now[2] == then[2]
    assert now[3] != then[3] and now[4] != then[4]


def test_a_learned_bot_that_names_its_model_alone_makes_a_tournament(tmp_path):
    """`model=` without `eval=` is a learned bot now (eval's default), but
    read as it was meant before (eval=hand) it is refused: the identity's
    reading of the old defaults must not refuse a bot that plays today
    (it made every such tournament and duel an error)."""
    from coexist_ai.learn.model import shipped_path
    spec = f"ismcts:iterations=10,model={shipped_path('v1')}"
    t = Tournament("t", [Entrant("a", spec), Entrant("b", "random")], 2, "round-robin", 1, 3)
    assert t.defaults[spec] == {"eval": "learned", "prior": 3.0, "policy": "fitted"}
