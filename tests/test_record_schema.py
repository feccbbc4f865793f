"""Every field of a record is checked when it is read, by one schema
(coexist_ai/recordschema.py) behind every reader: a hand-edited record
gives one error naming the file, the line and the field, and what would be
valid; never a traceback, and never a game silently played twice."""
import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coexist_ai import export, merged, ratings, tables
from coexist_ai.cards import default_card_set
from coexist_ai.errors import CoexistError
from coexist_ai.play import gamefile
from coexist_ai.records import RecordsError, read_records
from cli_process import assert_clear_error, assert_ok, cli

CS = default_card_set()
DUEL = ("duel", "random", "greedy", "--games", 2, "--seed", 5, "--jobs", 1, "--quiet")


@pytest.fixture(scope="module")
def duel_file(tmp_path_factory):
    """The records file of a 2-game duel, and its lines."""
    out = tmp_path_factory.mktemp("schema") / "duel.jsonl"
    assert_ok(cli(*DUEL, "--out", out))
    return out, out.read_bytes().splitlines(keepends=True)


def edited(tmp_path, lines, change, line=2):
    """A copy of the file whose `line` (1-based) went through `change`."""
    record = json.loads(lines[line - 1])
    change(record)
    path = tmp_path / "edited.jsonl"
    out = list(lines)
    out[line - 1] = json.dumps(record).encode() + b"\n"
    path.write_bytes(b"".join(out))
    return path


def setter(key, value):
    def change(record):
        target, *rest = key.split(".")
        if rest:
            record[target][rest[0]] = value
        else:
            record[key] = value
    return change


def deleter(key):
    return lambda record: record.pop(key)


EDITS = [
    (setter("moves", None), "field 'moves': None is not a list"),
    (lambda r: r["moves"].__setitem__(0, [0, 17]), "field 'moves[0][1]': 17 is not a string"),
    (lambda r: r["moves"].__setitem__(0, [5, r["moves"][0][1]]), "field 'moves[0][0]': 5 is not a whole number in 0..1"),
    (lambda r: r["moves"].__setitem__(0, "pass"), "field 'moves[0]': 'pass' is not a pair [seat, move]"),
    (setter("players", 2**70), "field 'players': 1180591620717411303424 is not a whole number in 2..4"),
    (setter("players", True), "field 'players': True is not a whole number in 2..4"),
    (setter("card_set", "reconstructed-v1"), "field 'card_set': 'reconstructed-v1' is not an object with name, sha256"),
    (setter("card_set.sha256", "bc3b"), "field 'card_set.sha256': 'bc3b' is not a sha256"),
    (lambda r: r["bots"].__setitem__(0, "random"), "field 'bots[0]': 'random' is not an object with spec, seed"),
    (lambda r: r["bots"][1].update(name=7), "field 'bots[1].name': 7 is not a string"),
    (lambda r: r["bots"][1].pop("seed"), "field 'bots[1].seed' is missing (expected a whole number in 0..9223372036854775808)"),
    (deleter("game"), "field 'game' is missing (expected a whole number >= 0)"),
    (setter("game", [1]), "field 'game': [1] is not a whole number >= 0"),
    (setter("game", "1"), "field 'game': '1' is not a whole number >= 0"),
    (setter("game", 1.0), "field 'game': 1.0 is not a whole number >= 0"),
    (setter("game", -1), "field 'game': -1 is not a whole number >= 0"),
    (setter("scores", [3, 4, 5]), "field 'scores': [3, 4, 5] is not a list of 2"),
    (setter("ranks", ["1", "2"]), "field 'ranks[0]': '1' is not a whole number in 1..2"),
    (setter("ranks", [0, 1]), "field 'ranks[0]': 0 is not a whole number in 1..2"),
    (lambda r: r["times"].pop(), "field 'times': "),
    (lambda r: r["times"].__setitem__(0, float("nan")), "field 'times[0]': nan is not a number of seconds >= 0"),
    (setter("faunas", ["sea", "sea"]), "field 'faunas': ['sea', 'sea'] is not a list of distinct faunas"),
    (setter("faunas", ["sea", "moon"]), "field 'faunas[1]': 'moon' is not one of 'forest', 'air', 'sea', 'savannah'"),
    (setter("end", "won"), "field 'end': 'won' is not one of 'normal', 'forfeit', 'unfinished'"),
    (setter("forfeits", [{"seat": 9, "kind": "crash", "reason": ""}]), "field 'forfeits[0].seat': 9"),
    (setter("forfeits", [{"seat": 1, "kind": "crash", "reason": "x"}]), "field 'end': 'normal' is not 'forfeit'"),
    (lambda r: r["breakdown"][0].pop("total"), "field 'breakdown[0].total' is missing"),
    (setter("first_player", -1), "field 'first_player': -1 is not a whole number in 0..1"),
    (setter("rotation", 2), "field 'rotation': 2 is not a whole number in 0..1"),
    (setter("entrants", ["random", None]), "field 'entrants[1]': None is not a string"),
    (setter("seed", "5"), "field 'seed': '5' is not a whole number"),
    (setter("deck", None), "field 'deck': None is not a list"),
    (deleter("run"), "field 'run' is missing (expected a string)"),
]


@pytest.mark.parametrize("change, words", EDITS, ids=[w for _, w in EDITS])
def test_a_wrong_field_is_named_with_its_file_and_line(tmp_path, duel_file, change, words):
    _, lines = duel_file
    path = edited(tmp_path, lines, change)
    with pytest.raises(RecordsError) as caught:
        read_records(str(path))
    message = str(caught.value)
    assert message.startswith(f"{path}:2: field "), message
    assert words in message


def test_a_record_as_written_reads_back(duel_file):
    out, lines = duel_file
    assert read_records(str(out)) == [json.loads(line) for line in lines]


@pytest.mark.parametrize("command", ["resume", "ratings", "replay"])
def test_every_reader_refuses_a_game_index_written_as_a_string(tmp_path, duel_file, command):
    """A resumed duel took "game": "5" for a game not yet played and
    played game 5 again."""
    _, lines = duel_file
    path = edited(tmp_path, lines, setter("game", "1"))
    before = path.read_bytes()
    args = {"resume": (*DUEL, "--out", path), "ratings": ("tournament", "ratings", path),
            "replay": ("replay", path, "--game", 1, "--to-end")}[command]
    assert_clear_error(cli(*args), f"{path}:2: field 'game': '1' is not a whole number")
    assert path.read_bytes() == before


# -- any edit: a record, or a RecordsError ----------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 2**64) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                  max_size=3),
    max_leaves=6)


def mutate(data, record):
    """Replace or delete one value somewhere in `record`, at any depth."""
    node = record
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            return
        key = data.draw(st.sampled_from(keys))
        child = node[key]
        if isinstance(child, (dict, list)) and child and data.draw(st.booleans()):
            node = child
            continue
        if data.draw(st.booleans()):
            del node[key]
        else:
            node[key] = data.draw(JSON)
        return


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_property_any_edit_loads_or_is_a_records_error(tmp_path, duel_file, data):
    _, lines = duel_file
    record = json.loads(lines[1])
    record["bots"][0]["name"] = "first-legal"    # as an external bot's entry
    for _ in range(data.draw(st.integers(1, 3))):
        mutate(data, record)
    path = tmp_path / "fuzzed.jsonl"
    path.write_bytes(lines[0] + json.dumps(record).encode() + b"\n")
    try:
        records = read_records(str(path))
    except RecordsError:
        return
    # what loads is safe for every reader: the tables and the replay
    # either work or refuse with a CoexistError
    try:
        standings, order = merged.load([str(path)], ordered=True, warn=lambda _: None)
        tables.rating_text(ratings.compute(standings, samples=3), standings)
        "".join(export.pgn(standings, order)), "".join(export.csv_chunks(standings, order))
        for r in records:
            gamefile.seat_names(r), gamefile.human_seats(r)
            gamefile.replay_states(copy.deepcopy(r), CS)
    except CoexistError:
        pass


def test_a_game_whose_seats_share_one_name_is_rated_without_a_crash(tmp_path, duel_file):
    """Both seats under one name: a bot that met only itself in that game,
    so its group has no pairwise result to resample (the bootstrap divided
    by zero; found by the property test above)."""
    _, lines = duel_file
    path = edited(tmp_path, lines, lambda r: r.__setitem__("entrants", ["", ""]))
    proc = cli("tournament", "ratings", path)
    assert_ok(proc)
    assert "Traceback" not in proc.stderr and "random" in proc.stdout


def test_a_replay_that_cannot_be_played_names_the_file_and_game(tmp_path, duel_file):
    _, lines = duel_file
    path = edited(tmp_path, lines, lambda r: r["moves"].__setitem__(3, [r["moves"][3][0], "fly"]))
    assert_clear_error(cli("replay", path, "--game", 2, "--to-end"),
                       f"{path}: game 2: move 4 ('fly') cannot be played")
