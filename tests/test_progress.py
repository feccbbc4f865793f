"""The progress line: whole on an 80-column terminal, plain lines
elsewhere, and an ETA that can be trusted from the first games.

The ETA is checked on the published tournaments, replayed from their
records in schedule order: the move times recorded are what each game
cost, so the true time left after each game is known.
"""
import io

import pytest

from coexist_ai.cli_tournament import load_config, tournament_from_config
from coexist_ai.live import LiveLine
from coexist_ai.ratings import compute
from coexist_ai.tables import interval_text
from coexist_ai.progress import Eta, Progress
from coexist_ai.records import read_records
from coexist_ai.results import Standings
from coexist_ai.schedule import Entrant
from coexist_ai.tournament import Tournament
from coexist_ai.sprt import Sprt
from cli_process import ROOT

RESULTS = ROOT / "tournaments" / "results"


def replay(name):
    config = ROOT / "tournaments" / f"{name}.toml"
    t = tournament_from_config(load_config(config), str(config))
    records = {r["game"]: r for r in read_records(RESULTS / f"{name}.jsonl")}
    return t, [records[g.index] for g in t.schedule.games()]


@pytest.mark.parametrize("name", ["ladder", "four", "quick"])
def test_the_eta_of_the_first_ten_games_is_steady_and_near_the_truth(name):
    t, records = replay(name)
    per_round = t.schedule.games_per_round
    eta = Eta([r["entrants"] for r in records[:per_round]], t.schedule.rounds, (), jobs=1)
    cost = [sum(r["times"]) for r in records]
    shown = []
    for k, r in enumerate(records[:10]):
        eta.observe(r)
        left = eta.seconds_left()
        if left is not None:
            shown.append(left)
            truth = sum(cost[k + 1:])
            # a few deals into a run its games' lengths are barely sampled:
            # near the truth means within 2.5x; the swing is held tighter below
            assert truth / 2.5 < left < truth * 2.5, (k, left, truth)
    assert shown, "no ETA in the first ten games"
    assert max(shown) / min(shown) < 2, shown


def test_no_eta_until_every_bot_still_to_play_has_played():
    game = {"game": 0, "entrants": ["a", "b"], "moves": [[0, "x"], [1, "y"]],
            "times": [1.0, 2.0]}
    eta = Eta([["a", "b"], ["b", "c"]], 1, (), jobs=2)
    eta.observe(game)
    assert eta.seconds_left() is None            # c has not played
    # 3 rounds of a, b then b, a; game 3 already played: 4 games left
    eta = Eta([["a", "b"], ["b", "a"]], 3, {3}, jobs=2)
    eta.observe(game)
    assert eta.seconds_left() == pytest.approx((0.002 + 1.0 + 2.0) * 4 / 2)


class Terminal(io.StringIO):
    def isatty(self):
        return True


def duel_standings(sprt=True):
    records = read_records(RESULTS / "duel-100k-greedy.jsonl")
    a, b = records[0]["entrants"]
    t = Tournament("duel", [Entrant(a, a), Entrant(b, b)], 2, "round-robin", 30, 3,
                   anchor=b)
    standings = Standings(t)
    if sprt:
        standings.sprt = Sprt(0, 50, 0.05, 0.05)
    return standings, records


def test_the_live_line_fits_an_80_column_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    standings, records = duel_standings()
    stream = Terminal()
    bar = Progress(len(records), 0, LiveLine(standings), None, stream=stream)
    for r in records:
        standings.add(r)
        bar.update(r)
    bar.close()
    text = stream.getvalue()
    assert text.endswith("\n") and "\r" in text
    drawn = [piece.rstrip() for piece in text.rstrip("\n").split("\r") if piece]
    assert drawn and all(len(piece) <= 79 for piece in drawn)
    last = drawn[-1]
    assert last.startswith("60/60 ismc") and "~" in last      # the long spec, cut
    table_row = compute(standings, standings.anchor).rows[0]
    assert f" 56-1-3 greedy Elo +462 {interval_text(table_row).replace(', ', ',')} LLR" in last


def test_off_a_terminal_the_line_is_printed_plain_twenty_times():
    standings, records = duel_standings(sprt=False)
    stream = io.StringIO()
    bar = Progress(len(records), 0, LiveLine(standings), None, stream=stream)
    for r in records:
        standings.add(r)
        bar.update(r)
    bar.close()
    lines = stream.getvalue().splitlines()
    assert "\r" not in stream.getvalue()
    assert len(lines) == 20 and lines[-1].startswith("60/60 ")
    assert all(len(line) <= 80 for line in lines)


def test_a_stopped_run_prints_its_last_count():
    standings, records = duel_standings(sprt=False)
    stream = io.StringIO()
    bar = Progress(len(records), 0, LiveLine(standings), None, stream=stream)
    for r in records[:7]:
        standings.add(r)
        bar.update(r)
    bar.close()
    assert stream.getvalue().splitlines()[-1].startswith("7/60 ")


def test_a_tournament_line_shows_the_standings_best_first():
    t, records = replay("ladder")
    standings = Standings(t, records)
    line = LiveLine(standings)(60)
    assert len(line) <= 60
    table = compute(standings, standings.anchor)
    best = sorted(table.rows, key=lambda r: -r.elo)[:2]
    assert line.startswith(", ".join(f"{r.name} {r.elo:+.0f}" for r in best)), line
