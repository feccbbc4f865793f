"""Game records: complete, replayable, one flushed line per game, and a
records file that survives being killed, cut off, or confused with another.

The resume and refusal tests drive the real command (`coexist-ai duel`) in
a subprocess on real files, and compare files byte for byte: a refused file
must not change at all, a repaired one must keep its good lines exactly.
"""
import json
import os

import pytest

from coexist_ai._engine import State

from coexist_ai.cards import FAUNAS
from coexist_ai.bots import make_bot
from coexist_ai.cards import CardSetError, default_card_set
from coexist_ai.match import BotFailure, play_game
from coexist_ai.records import RecordsError, RecordWriter, read_records
from coexist_ai.repeats import GameSet
from coexist_ai.schedule import Entrant, derive_seed
from coexist_ai.tournament import Tournament, run
from cli_process import (ROOT, assert_clear_error, assert_ok, cli, killed_at_exit,
                         lines_of, wait_for_records)

CS = default_card_set()
ENTRANTS = [Entrant("random", "random"), Entrant("greedy", "greedy"),
            Entrant("search", "ismcts:iterations=20")]


@pytest.fixture(scope="module")
def three_player_records(tmp_path_factory):
    """The records file of a small 3-player round robin (one block)."""
    out = tmp_path_factory.mktemp("records") / "games.jsonl"
    t = Tournament("records", ENTRANTS, 3, "round-robin", 1, 5)
    run(t, str(out), jobs=1, progress=False, echo=lambda _: None)
    return t, out


def without_times(records):
    return [{k: v for k, v in r.items() if k != "times"} for r in records]


# -- what a record holds -------------------------------------------------------

def test_every_field_is_present(three_player_records):
    t, out = three_player_records
    records = read_records(out)
    assert len(records) == len(t.schedule) == 3
    for record in records:
        game = next(g for g in t.schedule.games() if g.index == record["game"])
        assert record["format"] == "coexist-game" and record["version"] == 1
        assert record["card_set"] == {"name": CS.name, "sha256": CS.sha256}
        assert record["run"] == t.run_id and record["tournament"] == "records"
        assert record["players"] == 3
        assert len(record["faunas"]) == 3 and set(record["faunas"]) <= set(FAUNAS)
        assert record["first_player"] in range(3)
        # the full initial order: every card of the faunas in play, once
        in_play = {c.id for c in CS.cards if c.fauna in record["faunas"]}
        assert sorted(record["deck"]) == sorted(in_play)
        assert record["entrants"] == [ENTRANTS[i].name for i in game.lineup]
        assert record["bots"] == [{"spec": ENTRANTS[i].spec,
                                   "seed": derive_seed(5, "bot", game.index, seat)}
                                  for seat, i in enumerate(game.lineup)]
        assert all(isinstance(seat, int) and isinstance(move, str)
                   for seat, move in record["moves"])
        assert len(record["times"]) == len(record["moves"])
        assert all(isinstance(s, float) and s >= 0 for s in record["times"])
        assert len(record["scores"]) == len(record["ranks"]) == 3
        assert sorted(record["ranks"])[0] == 1
        assert record["end"] == "normal" and record["forfeits"] == []


def test_a_game_replays_exactly_from_its_record(three_player_records):
    _, out = three_player_records
    for record in read_records(out):
        state = State.new(CS, players=record["players"], faunas=record["faunas"],
                          first_player=record["first_player"], deck=record["deck"])
        for seat, move in record["moves"]:
            assert state.current_player == seat
            state.push(move)
        assert state.is_over()
        assert state.scores() == record["scores"]
        assert state.ranks() == record["ranks"]
        assert [s.as_dict() for s in state.score_breakdown()] == record["breakdown"]
        assert state.rounds == record["rounds"]


class Failing:
    """A bot that gives up (BotFailure) or answers nonsense on its 3rd move."""

    def __init__(self, how):
        self.how, self.calls, self.inner = how, 0, make_bot("random", 1)

    def new_game(self, seat, num_players):
        pass

    def choose(self, observation):
        self.calls += 1
        if self.calls == 3:
            if self.how == "illegal":
                return 2 ** 26 + 12345
            raise BotFailure(self.how, "no answer in 10 s")
        return self.inner.choose(observation)


@pytest.mark.parametrize("how", ["time", "illegal"])
def test_a_forfeit_is_recorded_with_its_seat_kind_and_reason(how):
    bots = [make_bot("random", 0), Failing(how), make_bot("random", 2)]
    record = play_game(CS, 3, 8, bots, ["random", "failing", "random"], [0, 1, 2])
    assert record["end"] == "forfeit"
    assert [(f["seat"], f["kind"]) for f in record["forfeits"]] == [(1, how)]
    assert record["forfeits"][0]["reason"]
    assert record["ranks"][1] == 3 and sorted(record["ranks"][::2]) in ([1, 2], [1, 1])
    assert sum(1 for seat, _ in record["moves"] if seat == 1) == 2


def test_one_flushed_json_line_per_game(tmp_path, three_player_records):
    _, source = three_player_records
    records = read_records(source)
    path = tmp_path / "out.jsonl"
    writer = RecordWriter(str(path))
    try:
        for k, record in enumerate(records, 1):
            writer.write(record)
            data = path.read_bytes()   # another reader, before any close
            assert data.endswith(b"\n") and data.count(b"\n") == k
            assert json.loads(data.splitlines()[-1]) == record
    finally:
        writer.close()


def test_a_bad_line_is_named_by_file_and_line(tmp_path, three_player_records):
    _, source = three_player_records
    good = source.read_bytes().splitlines(keepends=True)
    for bad, words in ((b"hello\n", "not a JSON game record"),
                       (b'{"format": "coexist-state", "version": 1}\n', "not a 'coexist-game' record"),
                       (good[0].replace(b'"version":1', b'"version":9'), "record version 9")):
        path = tmp_path / "mixed.jsonl"
        path.write_bytes(good[0] + bad + good[1])
        with pytest.raises(RecordsError) as caught:
            read_records(str(path))
        assert str(caught.value).startswith(f"{path}:2: ")
        assert words in str(caught.value)


# -- resuming through the real command ------------------------------------------

def duel_args(out, *extra, bots=("random", "greedy"), games=4):
    return ("duel", *bots, "--games", games, "--jobs", 1, "--quiet", "--out", out, *extra)


def test_a_killed_run_resumes_to_exactly_the_full_set(tmp_path):
    out = tmp_path / "duel.jsonl"
    args = duel_args(out, "--seed", 3, bots=("ismcts:iterations=100", "random"), games=14)
    with killed_at_exit(*args) as proc:
        wait_for_records(proc, out, 3)
    killed = out.read_bytes()
    kept = killed[:killed.rfind(b"\n") + 1]
    played = kept.count(b"\n")
    assert 3 <= played < 14, "the run ended before it was killed"

    again = cli(*args)
    assert_ok(again)
    assert f"{played} games already played, {14 - played} to go" in again.stdout
    if len(kept) < len(killed):
        assert "removed a cut-off last line" in again.stdout
    assert out.read_bytes().startswith(kept)
    records = read_records(str(out))
    assert sorted(r["game"] for r in records) == list(range(14))
    for block in range(7):
        pair = [r for r in records if r["block"] == block]
        assert len({json.dumps([r["deck"], r["faunas"], r["first_player"]]) for r in pair}) == 1
        assert sorted(r["rotation"] for r in pair) == [0, 1]
    # the file is complete: one more run plays nothing
    assert "0 to go" in cli(*args).stdout
    assert sorted(r["game"] for r in read_records(str(out))) == list(range(14))


def test_a_cut_off_last_line_is_repaired(tmp_path):
    out = tmp_path / "duel.jsonl"
    assert_ok(cli(*duel_args(out)))
    full = out.read_bytes()
    lines = full.splitlines(keepends=True)
    assert len(lines) == 4
    good = b"".join(lines[:3])
    out.write_bytes(good + lines[3][:len(lines[3]) // 2])
    proc = cli(*duel_args(out))
    assert_ok(proc)
    assert "removed a cut-off last line" in proc.stdout
    assert "3 games already played, 1 to go" in proc.stdout
    repaired = out.read_bytes()
    assert repaired.startswith(good)
    assert without_times(read_records(str(out))) == without_times(
        [json.loads(line) for line in lines])


def variant_card_set(tmp_path):
    """The default cards under another name: another card set (sha256)."""
    text = (ROOT / "coexist_ai" / "data" / "reconstructed-v1.toml").read_text()
    assert 'name = "reconstructed-v1"' in text
    path = tmp_path / "variant.toml"
    path.write_text(text.replace('name = "reconstructed-v1"', 'name = "variant-v1"', 1))
    return path


@pytest.mark.parametrize("cut_off_tail", [False, True])
def test_records_of_another_card_set_are_refused_untouched(tmp_path, cut_off_tail):
    out = tmp_path / "duel.jsonl"
    assert_ok(cli(*duel_args(out, "--cards", variant_card_set(tmp_path), games=2)))
    if cut_off_tail:
        out.write_bytes(out.read_bytes() + b'{"format":"coexist-game","ver')
    before = out.read_bytes()
    proc = cli(*duel_args(out, games=2))
    assert_clear_error(proc, str(out), "card set", "another --out file")
    assert out.read_bytes() == before


@pytest.mark.parametrize("cut_off_tail", [False, True])
def test_records_of_another_tournament_are_refused_untouched(tmp_path, cut_off_tail):
    out = tmp_path / "duel.jsonl"
    assert_ok(cli(*duel_args(out, "--seed", 1, games=2)))
    if cut_off_tail:
        out.write_bytes(out.read_bytes() + b'{"format":"coexist-game","ver')
    before = out.read_bytes()
    proc = cli(*duel_args(out, "--seed", 2, games=2))
    assert_clear_error(proc, str(out), "another tournament")
    assert out.read_bytes() == before


@pytest.mark.parametrize("bad", [b"hello\n", b'{"format":"coexist-state","version":1}\n'])
def test_a_line_that_is_no_game_record_is_refused_untouched(tmp_path, bad):
    out = tmp_path / "duel.jsonl"
    assert_ok(cli(*duel_args(out, games=2)))
    first, second = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(first + bad + second + b'{"format":"coexist-game","ver')
    before = out.read_bytes()
    proc = cli(*duel_args(out, games=2))
    assert_clear_error(proc, f"{out}:2:")
    assert out.read_bytes() == before


def test_a_file_that_holds_no_records_is_not_cut(tmp_path):
    """--out naming some other file (here: notes without a final newline)
    must not lose that file's last line as a "cut-off record"."""
    out = tmp_path / "notes.txt"
    for text in (b"my notes\nlast line", b"one line only"):
        out.write_bytes(text)
        proc = cli(*duel_args(out, games=2))
        assert_clear_error(proc, str(out))
        assert out.read_bytes() == text


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_an_out_file_that_is_a_device_is_refused():
    # reading /dev/full never ends: a records loader that tries must fail
    # here (MemoryError, a traceback), not take the machine's memory
    proc = cli(*duel_args("/dev/full", games=2), timeout=60, max_memory=2 << 30)
    assert_clear_error(proc, "/dev/full is a character device, not a regular file")


def test_an_out_file_in_a_missing_directory_is_a_clear_error(tmp_path):
    out = tmp_path / "no" / "such" / "dir.jsonl"
    assert_clear_error(cli(*duel_args(out, games=2)), f"cannot write to {out}")


# -- one run per records file -------------------------------------------------------

def test_a_second_run_on_the_same_out_is_refused(tmp_path):
    out = tmp_path / "duel.jsonl"
    args = duel_args(out, "--seed", 4, bots=("random", "random"), games=3000)
    with killed_at_exit(*args) as first:
        wait_for_records(first, out, 2)
        second = cli(*args)
        assert_clear_error(second, str(out), "being written by another run")
        assert first.poll() is None          # the first run goes on
    games = [r["game"] for r in read_records(str(out))]
    assert len(games) == len(set(games))     # nobody else wrote the file


def test_a_repeated_game_is_reported_and_counted_once(tmp_path):
    """A file two runs wrote at once (before the lock) holds every game
    twice: a resume and `tournament ratings` name each repeat and count
    each game once."""
    out = tmp_path / "twice.jsonl"
    assert_ok(cli(*duel_args(out, "--seed", 6)))
    lines = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(lines[0] + lines[1] + lines[0] + lines[2] + lines[1] + lines[3])
    game = json.loads(lines[0])["game"]
    run_id = json.loads(lines[0])["run"]
    for proc in (cli(*duel_args(out, "--seed", 6)), cli("tournament", "ratings", out)):
        assert_ok(proc)
        said = proc.stdout + proc.stderr
        assert f"warning: {out}:3: game {game} of run {run_id} repeats {out}:1; counted once" \
            in said
        assert f"warning: {out}:5: " in said
        assert "4 games (2 players) over 2 deals;" in proc.stdout
        assert "8 games" not in proc.stdout
    assert "4 games already played, 0 to go" in cli(*duel_args(out, "--seed", 6)).stdout


def test_the_games_seen_are_a_bit_each_and_every_one_is_kept():
    """A resume remembers the games done as bits (a set of a million ints
    took 60 MB): each index is in once, whatever its size."""
    seen = GameSet()
    indices = [0, 7, 8, 9, 1000, 999_999, GameSet.DENSE - 1, GameSet.DENSE, 2**62]
    assert all(seen.add(i) for i in indices)
    assert not any(seen.add(i) for i in indices)
    assert list(seen) == indices and len(seen) == len(indices)
    assert all(i in seen for i in indices)
    assert not any(i in seen for i in (1, 6, 10, 998, 10**6, GameSet.DENSE + 1, 2**61))
    assert len(seen._bits) <= GameSet.DENSE // 8     # the far ones are no bits


def test_a_record_the_schedule_does_not_hold_is_refused_untouched(tmp_path):
    out = tmp_path / "duel.jsonl"
    assert_ok(cli(*duel_args(out, "--seed", 7)))
    lines = out.read_bytes().splitlines(keepends=True)
    record = json.loads(lines[1])
    record["entrants"] = record["entrants"][::-1]    # seats swapped by hand
    out.write_bytes(lines[0] + json.dumps(record).encode() + b"\n" + b"".join(lines[2:]))
    before = out.read_bytes()
    proc = cli(*duel_args(out, "--seed", 7))
    assert_clear_error(proc, f"{out}:2: game {record['game']}",
                       "not the game this tournament's schedule has", "entrants")
    assert out.read_bytes() == before


def test_a_card_set_file_edited_during_the_run_stops_it(tmp_path, monkeypatch):
    cards = variant_card_set(tmp_path)
    t = Tournament("edited", [Entrant("a", "random"), Entrant("b", "random")], 2,
                   "round-robin", 3, 1, cards=str(cards))
    cards.write_text(cards.read_text().replace('"variant-v1"', '"variant-v2"'))
    out = tmp_path / "edited.jsonl"
    with pytest.raises(CardSetError, match="changed during the run"):
        run(t, str(out), jobs=1, progress=False, echo=lambda _: None)
    assert read_records(str(out)) == []
