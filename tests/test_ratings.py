"""The rating table says what the games show and nothing more: the same
games give the same table in any order, intervals hold to the digit they
are printed with and are honest at the edges, bots that never met are not
put on one scale, one bot is one bot under any name.

Unit tests build Standings from small records in memory; the commands run
as real processes on real record files (the published ones, or played
here).
"""
import random
import re
import shlex

import numpy as np
import pytest

from coexist_ai import elo, ratings, tables
from coexist_ai.results import Standings
from coexist_ai.schedule import Entrant
from coexist_ai.tournament import Tournament
from cli_process import ROOT, assert_clear_error, assert_ok, cli
from test_cli_tournament import table_details, table_rows

RESULTS = ROOT / "tournaments" / "results"


def record(game, entrants, ranks, deal, run="r", specs=None, names=None, players=None):
    """A minimal game record: who sat where, how they finished, which deal."""
    bots = [{"spec": s} for s in (specs or entrants)]
    for entry, name in zip(bots, names or []):
        entry["name"] = name
    return {"run": run, "game": game, "round": deal, "entrants": list(entrants),
            "bots": bots, "ranks": list(ranks), "players": players or len(entrants),
            "faunas": ["sea", "air", "forest", "savannah"][:len(entrants)],
            "first_player": 0, "deck": [f"deal-{run}-{deal}"]}


def duel_records(a, b, results, run="r"):
    """2-game deals of a against b; each result is a's points in the deal
    (2, 1 or 0: won both, won one, lost both)."""
    out = []
    for deal, points in enumerate(results):
        first = [1, 2] if points >= 1 else [2, 1]
        second = [2, 1] if points == 2 else [1, 2]     # b's seat first
        out.append(record(2 * deal, [a, b], first, deal, run))
        out.append(record(2 * deal + 1, [b, a], second, deal, run))
    return out


def table_of(records, anchor=None, **kwargs):
    standings = Standings(None, records)
    return ratings.compute(standings, anchor, **kwargs), standings


# -- order, stability ------------------------------------------------------------

def test_the_same_games_in_another_order_give_the_same_table(tmp_path):
    """Regression: the bootstrap drew its resamples from blocks in the order
    records were read, with a fixed seed, so shuffled records gave other
    intervals (ismcts-1k in the ladder: [816, 1009] published, [809, 983]
    on an identical rerun)."""
    lines = (RESULTS / "ladder.jsonl").read_text().splitlines(keepends=True)
    random.Random(5).shuffle(lines)
    shuffled = tmp_path / "shuffled.jsonl"
    shuffled.write_text("".join(lines))
    first = cli("tournament", "ratings", RESULTS / "ladder.jsonl", "--anchor", "greedy")
    again = cli("tournament", "ratings", shuffled, "--anchor", "greedy")
    assert_ok(first)
    assert_ok(again)
    assert first.stdout == again.stdout
    assert "[+" in table_details(first.stdout)["ismcts-1k"][3]


def printed_ends(table):
    return {r.name: (tables.interval_text(r), r) for r in table.rows}


def test_intervals_are_stable_to_their_printed_digit(monkeypatch):
    """Another bootstrap seed moves a printed endpoint by at most the unit it
    is rounded to (with 200 resamples the ends moved by up to 7 Elo)."""
    standings = Standings(None, _published("ladder.jsonl"))
    seen = {}
    for seed in range(5):
        monkeypatch.setattr(standings, "seed_of", lambda keys, seed=seed: 1000 + seed)
        table = ratings.compute(standings, "greedy")
        for r in table.rows:
            if r.note == "":
                seen.setdefault(r.name, []).append((r.low, r.low_se, r.high, r.high_se))
    assert {"ismcts-10k", "ismcts-1k"} <= set(seen)
    for name, ends in seen.items():
        for k in (0, 2):
            units = {tables.rounding_unit(e[k + 1]) for e in ends}
            printed = [round(e[k] / max(units)) * max(units) for e in ends]
            assert max(printed) - min(printed) <= max(units), (name, printed)


def _published(name):
    from coexist_ai.records import read_records
    return read_records(RESULTS / name)


# -- honest edges ------------------------------------------------------------------

def test_one_deal_gives_no_interval_rather_than_a_zero_width_one():
    """Regression: after 2 games the bootstrap over one block gave an
    interval of zero width, as if the Elo were known exactly."""
    table, _ = table_of(duel_records("a", "b", [1]), "b")
    row = table.row("a")
    assert tables.interval_text(row) == "n/a" and "too few" in row.note


def test_a_perfect_score_has_a_one_sided_bound():
    """Regression: a bot that won 20 of 20 got an interval like [529, 529]:
    every resample is the same perfect score. Its difference has no upper
    bound; the lower one is what 20 straight wins prove (0.025^(1/20))."""
    table, _ = table_of(duel_records("a", "b", [2] * 10), "b")
    row = table.row("a")
    assert row.high == np.inf
    assert row.low == pytest.approx(elo.perfect_score_bound(20))
    assert tables.interval_text(row) == f"[+{row.low:.0f}, inf]"
    loser = table_of(duel_records("a", "b", [2] * 10), "a")[0].row("b")
    assert loser.low == -np.inf and loser.high == pytest.approx(-row.low)


def test_deals_that_all_score_alike_claim_no_interval():
    table, _ = table_of(duel_records("a", "b", [1] * 8), "b")
    row = table.row("a")
    assert row.elo == pytest.approx(0, abs=1e-6)
    assert tables.interval_text(row) == "n/a" and "same rating" in row.note


def test_no_printed_interval_has_zero_width_in_the_published_results():
    for path in sorted(RESULTS.glob("*.jsonl")):
        table, _ = table_of(_published(path.name))
        for r in table.rows:
            text = tables.interval_text(r)
            if text.startswith("["):
                low, high = text[1:-1].split(", ")
                assert low != high, (path.name, r.name, text)


# -- groups, names, anchors ------------------------------------------------------------

def test_bots_that_never_met_are_rated_in_their_own_groups():
    """Regression: a and b met, c and d met, nobody else: the table printed
    one scale and likelihoods of superiority between a and c, made up by
    the fit's normalisation."""
    records = duel_records("a", "b", [2, 1, 1, 2, 0], run="one") + \
        duel_records("c", "d", [0, 1, 1, 0, 1], run="two")
    table, standings = table_of(records, "a")
    assert len(table.groups) == 2
    # the other group: its most-played bot, the first by name of equals
    assert {table.names[g.anchor] for g in table.groups} == {"a", "c"}
    by_name = {r.name: r for r in table.rows}
    assert by_name["a"].elo == 0 and by_name["c"].elo == 0
    index = {n: i for i, n in enumerate(table.names)}
    assert np.isnan(table.los[index["a"], index["c"]])
    assert not np.isnan(table.los[index["a"], index["b"]])
    text = tables.rating_text(table, standings)
    assert "group 1 of 2" in text and "group 2 of 2" in text and "anchored at c = 0" in text
    backwards, again = table_of(records[::-1], "a")
    assert tables.rating_text(backwards, again) == text


def test_the_same_bot_under_two_names_is_one_bot():
    """Regression: ismcts-10k in the ladder and ismcts:iterations=10000 in a
    duel were two rows, each with its own Elo."""
    proc = cli("tournament", "ratings", RESULTS / "ladder.jsonl",
               RESULTS / "duel-10k-1k-v6.jsonl", "--anchor", "greedy")
    assert_ok(proc)
    rows = table_rows(proc.stdout)
    assert set(rows) == {"ismcts-10k", "ismcts-1k", "ismcts-1k-light", "greedy", "random"}
    assert rows["ismcts-10k"][1] == rows["ismcts-1k"][1] == 160 + 200
    assert "ismcts-10k: ismcts:iterations=10000" in proc.stdout


def test_records_of_two_card_sets_are_not_rated_together():
    """The ladder is played on the default set (v6), the duel of the same
    bots on v2: one table of both would mix two different games."""
    proc = cli("tournament", "ratings", RESULTS / "ladder.jsonl",
               RESULTS / "duel-10k-1k.jsonl", "--anchor", "greedy")
    assert_clear_error(proc, "duel-10k-1k.jsonl", "mixes card sets", "one card set")


def test_two_entrants_of_one_spec_in_a_run_stay_two_bots():
    records = duel_records("random#1", "random#2", [2, 0, 1], run="self")
    for r in records:
        r["bots"] = [{"spec": "random"}, {"spec": "random"}]
    table, _ = table_of(records)
    assert sorted(r.name for r in table.rows) == ["random#1", "random#2"]


def test_a_spec_named_twice_late_in_a_file_is_two_bots_whatever_the_order(tmp_path):
    """No record is kept, so a run whose spec shows a second entrant name
    only after games of the first were counted (random#2 first met here in
    the last line) is read again with every name declared: the same table
    as the file in schedule order."""
    out = tmp_path / "t.jsonl"
    assert_ok(cli("tournament", "run", "--bots", "random,random,greedy", "--rounds", 3,
                  "--seed", 4, "--jobs", 1, "--quiet", "--out", out))
    lines = out.read_text().splitlines(keepends=True)
    both = [line for line in lines if '"entrants":["random#1","random#2"]' in line]
    alone = [line for line in lines if "random#2" not in line]
    late = tmp_path / "late.jsonl"
    late.write_text("".join(alone + [line for line in lines if line not in alone]))
    assert both and late.read_text().index(both[0]) > late.read_text().index(alone[-1])
    first, again = cli("tournament", "ratings", out), cli("tournament", "ratings", late)
    assert_ok(first)
    assert_ok(again)
    assert set(table_rows(again.stdout)) == {"random#1", "random#2", "greedy"}
    assert again.stdout == first.stdout


def test_an_external_bots_protocol_name_is_shown():
    records = duel_records("cmd:python3 mine.py", "greedy", [2, 1, 1])
    for r in records:
        for entry in r["bots"]:
            if entry["spec"].startswith("cmd:"):
                entry["name"] = "my-bot"
    table, standings = table_of(records, "greedy")
    assert sorted(r.name for r in table.rows) == ["greedy", "my-bot"]
    assert "my-bot: cmd:python3 mine.py" in tables.rating_text(table, standings)


def test_the_first_entrant_is_bot_zero_whatever_game_finishes_first():
    """The duel's SPRT and live line read bot 0 as the first entrant; with
    parallel jobs the first record in may have the other bot in seat 0."""
    t = Tournament("duel", [Entrant("a", "greedy"), Entrant("b", "random")], 2,
                   "round-robin", 1, seed=1, anchor="b")
    standings = Standings(t, [record(1, ["b", "a"], [2, 1], 0, run=t.run_id,
                                     specs=["random", "greedy"])])
    assert standings.names[:2] == ["a", "b"]
    assert standings.pair_scores(0) == (1, 0, 0)


def test_an_unknown_anchor_is_an_error():
    proc = cli("tournament", "ratings", RESULTS / "ladder.jsonl", "--anchor", "stockfish")
    assert_clear_error(proc, "--anchor 'stockfish'", "ismcts-10k", "random")


def test_an_unknown_anchor_in_a_config_is_an_error(tmp_path):
    config = tmp_path / "t.toml"
    config.write_text('anchor = "nobody"\n[[bot]]\nspec = "random"\n[[bot]]\nspec = "greedy"\n')
    assert_clear_error(cli("tournament", "run", config), "anchor = 'nobody'", "random, greedy")


def test_mixing_player_counts_is_refused_unless_asked():
    files = [RESULTS / "ladder.jsonl", RESULTS / "four.jsonl"]
    assert_clear_error(cli("tournament", "ratings", *files), "2 players", "4 players",
                       "--mix-players")
    mixed = cli("tournament", "ratings", *files, "--mix-players")
    assert_ok(mixed)
    assert "400 at 2 players, 60 at 4 players" in mixed.stdout


# -- what the table shows ---------------------------------------------------------------

def test_the_table_has_games_wdl_score_elo_interval_los_and_the_pair_matrix():
    proc = cli("tournament", "ratings", RESULTS / "duel-10k-greedy.jsonl")
    assert_ok(proc)
    rows = table_details(proc.stdout)
    elo_, games, (w, d, l), interval = rows["ismcts:iterations=10000"]
    assert games == 200 and w + d + l == 200 and d == 3     # 3 draws in the 10k duel
    assert interval.startswith("[+") and elo_ > 0
    assert "89.2%/200" in proc.stdout and "10.8%/200" in proc.stdout
    head = next(line for line in proc.stdout.splitlines() if line.startswith("bot "))
    for column in ("games", "W", "D", "L", "score", "Elo", "95% interval", "LOS", "fails"):
        assert column in head


def test_the_bot_column_is_as_wide_as_the_longest_name():
    table, standings = table_of(duel_records("a-rather-long-bot-name", "b", [2, 1, 0, 1]))
    lines = tables.rating_text(table, standings).splitlines()
    head = next(line for line in lines if line.startswith("bot "))
    assert head.index("games") == len("a-rather-long-bot-name") + 2


def test_the_live_figure_is_the_final_figure(tmp_path):
    """Regression: the live line's Elo came from the raw score (+2400 after
    a 1-0 start, +301 at the end) while the table said +280."""
    proc = cli("duel", "greedy:max_nodes=200", "greedy", "--games", 12, "--seed", 2,
               "--jobs", 1)
    assert_ok(proc)
    live = [line for line in proc.stderr.splitlines() if line.startswith("12/12 ")]
    assert live, proc.stderr
    final = table_rows(proc.stdout)["greedy:max_nodes=200"][0]
    assert f" Elo {tables.signed(final)} " in live[-1]


def test_plain_lines_off_a_terminal_and_within_80_columns(tmp_path):
    proc = cli("tournament", "run", "--bots", "random,greedy,greedy:max_nodes=50,"
               "greedy:max_nodes=100", "--rounds", 2, "--jobs", 1, "--seed", 1)
    assert_ok(proc)
    assert "\r" not in proc.stderr
    progress = proc.stderr.splitlines()
    assert len(progress) >= 12 and all(len(line) <= 80 for line in progress)
    assert progress[-1].startswith("24/24 ") and "greedy" in progress[-1]
    assert progress[-1].endswith("ETA 0:00")


def test_the_published_tables_are_what_the_records_give():
    """Each table in tournaments/results/README.md is the output of the
    `coexist-ai tournament ratings` command written above it."""
    text = (RESULTS / "README.md").read_text()
    pairs = re.findall(r"`coexist-ai (tournament ratings [^`]+)`\n\n```\n(.*?)\n```", text, re.S)
    assert len(pairs) >= 9
    for command, table in pairs:
        proc = cli(*shlex.split(command))
        assert_ok(proc)
        assert proc.stdout.rstrip("\n") == table, command
