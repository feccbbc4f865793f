"""`tournament export`: the files are read back by programs that are not
ours. The PGN by python-chess's reader, and an independent rating fit of
its games (scipy's optimiser on the Bradley-Terry likelihood, written
here from the model, not from coexist_ai.elo) agrees with our ratings; the
CSV by the csv module; the JSON by json.
"""
import csv
import io
import json
import math

import chess.pgn
import numpy as np
import pytest
from scipy.optimize import minimize

from coexist_ai import merged
from coexist_ai.export import pgn
from coexist_ai.paths import write_replacing
from coexist_ai.records import RecordsError
from cli_process import ROOT, assert_clear_error, assert_ok, cli

RESULTS = ROOT / "tournaments" / "results"
SCORE = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def export(tmp_path, name, fmt, *extra):
    out = tmp_path / f"{name}.{fmt}"
    proc = cli("tournament", "export", RESULTS / f"{name}.jsonl", "--format", fmt,
               "--out", out, *extra)
    assert_ok(proc)
    return out.read_text()


def read_pgn(text):
    stream, games = io.StringIO(text), []
    while (game := chess.pgn.read_game(stream)) is not None:
        assert not game.errors, game.errors
        games.append(game.headers)
    return games


def scipy_elo(pairs, anchor, prior=1.0):
    """Maximum-likelihood Elo of (white, black, score) pairs under
    P(a beats b) = 1 / (1 + 10^((Rb - Ra) / 400)), with `prior` virtual
    drawn games per pair of bots that met; `anchor` at 0."""
    names = sorted({p[0] for p in pairs} | {p[1] for p in pairs})
    free = [n for n in names if n != anchor]
    met = {tuple(sorted(p[:2])) for p in pairs}
    virtual = [(a, b, 0.5) for a, b in met] * int(prior)
    games = pairs + virtual

    def rating(x, name):
        return 0.0 if name == anchor else x[free.index(name)]

    def loss(x):
        total = 0.0
        for a, b, s in games:
            d = (rating(x, a) - rating(x, b)) * math.log(10) / 400
            total -= s * -np.logaddexp(0, -d) + (1 - s) * -np.logaddexp(0, d)
        return total

    fitted = minimize(loss, np.zeros(len(free)), method="BFGS", options={"gtol": 1e-9})
    return {name: rating(fitted.x, name) for name in names}


@pytest.mark.parametrize("name, anchor", [("four", "random"), ("ladder", "greedy")])
def test_pgn_is_read_by_python_chess_and_refits_to_our_elo(tmp_path, name, anchor):
    games = read_pgn(export(tmp_path, name, "pgn"))
    table = json.loads(export(tmp_path, name, "json", "--anchor", anchor))
    pairings = sum(b["wins"] + b["draws"] + b["losses"] for b in table["bots"]) // 2
    assert len(games) == pairings == (60 * 6 if name == "four" else 400)
    assert {g["Result"] for g in games} <= set(SCORE)
    assert {g["White"] for g in games} == {b["name"] for b in table["bots"]}
    assert all(g["Deal"] and g["Game"] for g in games)
    pairs = [(g["White"], g["Black"], SCORE[g["Result"]]) for g in games]
    theirs = scipy_elo(pairs, anchor)
    for bot in table["bots"]:
        assert abs(bot["elo"] - theirs[bot["name"]]) < 1, (bot["name"], bot["elo"], theirs)


def test_pgn_white_is_the_seat_that_moved_first(tmp_path):
    text = export(tmp_path, "duel-10k-greedy", "pgn")
    records = [json.loads(line) for line in (RESULTS / "duel-10k-greedy.jsonl").open()]
    first_movers = [r["entrants"][r["first_player"]] for r in
                    sorted(records, key=lambda r: r["game"])]
    assert [g["White"] for g in read_pgn(text)] == first_movers


def test_csv_has_a_row_per_seat_of_every_game(tmp_path):
    rows = list(csv.DictReader(io.StringIO(export(tmp_path, "four", "csv"))))
    assert len(rows) == 60 * 4
    records = {r["game"]: r for r in map(json.loads, (RESULTS / "four.jsonl").open())}
    for row in rows:
        record = records[int(row["game"])]
        seat = int(row["seat"])
        assert int(row["score"]) == record["scores"][seat]
        assert int(row["rank"]) == record["ranks"][seat]
        assert row["bot"] == record["entrants"][seat]


def test_json_is_the_rating_table(tmp_path):
    table = json.loads(export(tmp_path, "duel-100k-random", "json"))
    assert table["format"] == "coexist-ratings" and table["games"] == 10
    best = table["bots"][0]
    assert best["wins"] == 10 and best["interval"] == "one-sided"
    assert best["high"] is None and best["low"] > 0
    assert table["bots"][1]["name"] == "random" and table["bots"][1]["interval"] == "anchor"


def test_export_refuses_what_it_cannot_do(tmp_path):
    assert_clear_error(cli("tournament", "export", RESULTS / "four.jsonl", "--format", "xml"),
                       "--format")
    assert_clear_error(cli("tournament", "export", tmp_path / "none.jsonl", "--format", "pgn"),
                       "no file")
    assert_clear_error(cli("tournament", "export", RESULTS / "four.jsonl", "--format", "pgn",
                           "--out", tmp_path / "no" / "dir.pgn"), "cannot write")


def test_a_file_changed_while_exported_is_an_error_and_the_old_export_stays(tmp_path):
    """An export reads its games again, one at a time, from their lines (no
    record is kept): a line that holds another game by then is refused,
    and the file at --out is replaced only by a whole export."""
    source = tmp_path / "duel.jsonl"
    source.write_bytes((RESULTS / "duel-100k-random.jsonl").read_bytes())
    standings, order = merged.load([str(source)], ordered=True)
    text = source.read_bytes()
    at = text.index(b'"times":[') + len(b'"times":[')
    digit = b"2" if text[at:at + 1] == b"1" else b"1"
    source.write_bytes(text[:at] + digit + text[at + 1:])     # one move time, same length
    out = tmp_path / "old.pgn"
    out.write_text("the old export\n")
    with pytest.raises(RecordsError, match="changed while it was read"):
        write_replacing(str(out), pgn(standings, order))
    assert out.read_text() == "the old export\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["duel.jsonl", "old.pgn"]
