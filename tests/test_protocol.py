"""The protocol's messages and `coexist-ai serve`: transcripts against the
engine in process, then a real served process talking to our own client."""
import io
import json
import os
import shlex
import subprocess
import sys
import time

import pytest
from cli_process import PYTHON, package_env

from coexist_ai import _engine, _search
from coexist_ai.bots import make_bot
from coexist_ai.cards import default_card_set, loads_card_set
from coexist_ai.match import play_game
from coexist_ai.protocol import messages, server
from coexist_ai.protocol.client import ExternalBot
from coexist_ai.protocol.messages import ProtocolError, decode, encode
from coexist_ai.protocol.server import Engine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVE = [*PYTHON, "-m", "coexist_ai.protocol", "serve"]


@pytest.fixture(autouse=True)
def _importable(monkeypatch):
    """Served processes import coexist_ai from this source tree."""
    monkeypatch.setenv("PYTHONPATH", package_env()["PYTHONPATH"])


def observation(seed=1, moves=0, players=2):
    state = _engine.State.new(players=players, seed=seed)
    for _ in range(moves):
        state.apply(state.legal_actions()[0])
    return state, state.observation(state.current_player)


def move_request(obs, id_=7, **extra):
    return dict({"type": "move", "id": id_, "observation": json.loads(obs.to_json()),
                 "legal": obs.legal_moves(), "time": 1.0}, **extra)


def transcript(commands, spec="random", engine=None):
    """Every reply of the engine to `commands` (dicts, or raw text/bytes)."""
    out = io.BytesIO()
    engine = engine or Engine(spec, out)
    engine.output = out
    data = b"".join((c if isinstance(c, bytes) else
                     (c if isinstance(c, str) else json.dumps(c)).encode()) + b"\n"
                    for c in commands)
    engine.run(io.BytesIO(data))
    return [json.loads(line) for line in out.getvalue().splitlines()]


# -- messages -------------------------------------------------------------------------
def test_encode_writes_type_then_id_compactly_in_ascii():
    line = encode({"legal": ["end"], "id": 3, "type": "move", "x": "é"})
    assert line.startswith(b'{"type":"move","id":3,"legal":["end"]')
    assert line.endswith(b"\n") and b" " not in line and line.isascii()
    assert decode(line) == {"type": "move", "id": 3, "legal": ["end"], "x": "é"}


@pytest.mark.parametrize("line", [b"", b"nonsense", b"[1, 2]", b'{"id": 1}',
                                  b'{"type": 3}', b"\xff\xfe", b"[" * 100000])
def test_decode_refuses_what_is_not_a_message(line):
    with pytest.raises(ProtocolError):
        decode(line)


def test_card_set_payload_round_trips_and_is_checked():
    cs = default_card_set()
    payload = messages.card_set_payload(cs)
    assert messages.card_set_from_payload(payload) == cs
    payload["sha256"] = "0" * 64
    with pytest.raises(ProtocolError, match="does not match"):
        messages.card_set_from_payload(payload)


# -- serve, in process ----------------------------------------------------------------------
def test_hello_lists_the_bots_settings_as_options():
    [hello] = transcript([{"type": "hello", "id": "a", "protocol": 1}], "ismcts")
    assert hello["type"] == "hello" and hello["id"] == "a" and hello["protocol"] == 1
    assert hello["name"] == "coexist-ai ismcts" and hello["author"]
    options = {o["name"]: o for o in hello["options"]}
    assert options["iterations"]["type"] == "int" and options["iterations"]["default"] == 5000
    assert options["reward"]["choices"] == ["win", "rank", "margin"]
    assert all(messages.check_option(o) is None for o in hello["options"])


def test_a_game_of_moves_served_in_process():
    state = _engine.State.new(players=2, seed=4)
    engine = Engine("random", io.BytesIO())
    transcript([{"type": "newgame", "id": 1, "seat": 0, "players": 2, "seed": 9}],
               engine=engine)
    n = 0
    while not state.is_over() and n < 40:
        obs = state.observation(state.current_player)
        [reply] = transcript([move_request(obs, id_=n)], engine=engine)
        assert reply["type"] == "move" and reply["id"] == n
        state.apply(obs.parse_move(reply["move"]))
        n += 1


def test_nothing_sent_stops_the_engine(monkeypatch):
    monkeypatch.setattr(server, "MAX_COMMAND_LINE", 4096)
    _, obs = observation()
    other = loads_card_set(_renamed_card_set_toml(), "other.toml")
    other_obs = _engine.State.new(other, players=2, seed=1).observation(0)
    over = _engine.State.new(players=2, seed=1)
    over.playout_random(1)
    wrong_seat = json.loads(obs.to_json())
    wrong_seat["viewer"] = 1 - obs.current_player
    bad = [
        b"not json at all", b"\xff\xfe\n", "[1, 2, 3]", '{"no": "type"}',
        "x" * 10000,                                                     # too long
        {"type": "frobnicate", "id": 1},
        {"type": "setoption", "id": 2, "name": "depth", "value": 3},
        {"type": "setoption", "id": 3, "name": "c", "value": "lots"},
        {"type": "setoption", "id": 4, "name": "c", "value": -1},
        {"type": "setoption", "id": 5, "name": "c", "value": float("nan")},
        {"type": "setoption", "id": 6, "name": "c"},
        {"type": "setoption", "id": 7, "name": "iterations", "value": 0},  # and time 0
        {"type": "newgame", "id": 8, "seat": 5, "players": 2},
        {"type": "newgame", "id": 9, "players": "two"},
        {"type": "newgame", "id": 10, "card_set": {"name": "x", "animal": "oops"}},
        {"type": "newgame", "id": 11, "seed": -2.5},
        {"type": "move", "id": 12},
        {"type": "move", "id": 13, "observation": "text"},
        move_request(other_obs, 14),                                     # unknown card set
        dict(move_request(obs, 15), observation=json.loads(over.observation(0).to_json()),
             legal=[]),                                                  # game over
        dict(move_request(obs, 16), observation=wrong_seat),
        move_request(obs, 17, legal=["pass"]),
        move_request(obs, 18, time=-1),
        move_request(obs, 19, time="soon"),
        dict(move_request(obs, 20), observation=dict(json.loads(obs.to_json()), supply=3)),
        {"type": "ping", "id": 21},
    ]
    replies = transcript(bad, "ismcts:iterations=50")
    assert len(replies) == len(bad)
    *errors, pong = replies
    assert pong == {"type": "pong", "id": 21}
    assert all(r["type"] == "error" and r["message"] for r in errors), errors
    assert [r.get("id") for r in errors[5:]] == list(range(1, 21))
    assert "longer than 4096" in errors[4]["message"]
    assert "unknown command 'frobnicate'" in errors[5]["message"]
    assert "no option 'depth'" in errors[6]["message"]
    assert "send it in newgame" in errors[18]["message"]
    assert "is over" in errors[19]["message"]


def _renamed_card_set_toml():
    with open(os.path.join(ROOT, "coexist_ai", "data", "reconstructed-v1.toml")) as f:
        text = f.read()
    return text.replace('name = "reconstructed-v1"', 'name = "other"', 1)


def test_a_card_set_sent_in_newgame_is_used():
    other = loads_card_set(_renamed_card_set_toml(), "other.toml")
    state = _engine.State.new(other, players=2, seed=3)
    obs = state.observation(state.current_player)
    replies = transcript([{"type": "newgame", "id": 1, "seat": 0, "players": 2,
                           "card_set": messages.card_set_payload(other)},
                          move_request(obs, 2)])
    assert [r["type"] for r in replies] == ["ok", "move"]
    assert replies[1]["move"] in obs.legal_moves()


def test_setoption_changes_the_served_bot():
    engine = Engine("ismcts", io.BytesIO())
    replies = transcript([{"type": "setoption", "id": 1, "name": "iterations", "value": 64},
                          {"type": "setoption", "id": 2, "name": "reuse", "value": False},
                          {"type": "setoption", "id": 3, "name": "reward", "value": "win"}],
                         engine=engine)
    assert [r["type"] for r in replies] == ["ok", "ok", "ok"]
    assert engine.bot.params["iterations"] == 64 and engine.bot.params["reuse"] is False
    _, obs = observation(seed=2)
    [reply] = transcript([move_request(obs, 4)], engine=engine)
    assert reply["info"]["iterations"] == 64
    assert all(isinstance(m, str) for m in reply["info"]["line"])
    assert 0 <= reply["info"]["value"] <= 1


def test_a_command_while_thinking_is_refused_but_ping_answered():
    _, obs = observation(seed=5, moves=2)
    replies = transcript([move_request(obs, 1, time=0.3), {"type": "newgame", "id": 2},
                          move_request(obs, 3), {"type": "ping", "id": 4}],
                         "ismcts:iterations=100000000")
    assert [(r["type"], r["id"]) for r in replies] == [
        ("error", 2), ("error", 3), ("pong", 4), ("move", 1)]
    assert "busy with move request 1" in replies[0]["message"]


def test_the_time_a_request_allows_caps_the_search():
    _, obs = observation(seed=5, moves=2)
    start = time.monotonic()
    [reply] = transcript([move_request(obs, 1, time=0.25)], "ismcts:iterations=100000000")
    # the iteration budget alone would take minutes; the bounds leave room
    # for a loaded machine
    assert time.monotonic() - start < 5
    assert reply["type"] == "move" and reply["info"]["seconds"] < 1
    assert reply["info"]["iterations"] < 100000000


def test_serve_refuses_an_external_bot():
    with pytest.raises(Exception, match="built-in"):
        Engine("cmd:python3 x.py", io.BytesIO())


# -- serve, as a process ----------------------------------------------------------------
class Served:
    """A `serve` process driven line by line."""

    def __init__(self, spec):
        self.proc = subprocess.Popen(SERVE + [spec], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, cwd=ROOT)

    def send(self, message):
        self.proc.stdin.write(encode(message))
        self.proc.stdin.flush()

    def read(self):
        return json.loads(self.proc.stdout.readline())

    def close(self):
        self.proc.kill()
        self.proc.wait()


def test_ping_is_answered_while_the_served_bot_thinks():
    served = Served("ismcts:iterations=1000000000")
    try:
        served.send({"type": "hello", "id": 0})
        assert served.read()["type"] == "hello"
        _, obs = observation(seed=8, moves=4)
        served.send(move_request(obs, 1, time=6.0))
        time.sleep(0.1)
        sent = time.monotonic()
        served.send({"type": "ping", "id": 2})
        pong = served.read()
        assert pong == {"type": "pong", "id": 2}
        # well before the move, which would come after 4.8 s of search
        assert time.monotonic() - sent < 3
        served.send({"type": "stop"})
        move = served.read()
        assert move["type"] == "move" and move["id"] == 1 and move["move"] in obs.legal_moves()
        assert move["info"]["iterations"] > 0
    finally:
        served.close()


def test_end_of_input_while_thinking_still_sends_the_move():
    _, obs = observation(seed=8, moves=4)
    lines = encode({"type": "hello", "id": 0}) + encode(move_request(obs, 1, time=0.3))
    result = subprocess.run(SERVE + ["ismcts:iterations=1000000000"], input=lines,
                            capture_output=True, cwd=ROOT, timeout=20)
    replies = [json.loads(x) for x in result.stdout.splitlines()]
    assert result.returncode == 0
    assert [r["type"] for r in replies] == ["hello", "move"]


def test_stop_answers_the_move_being_computed_at_once():
    served = Served("ismcts:iterations=1000000000")
    try:
        served.send({"type": "hello", "id": 0})
        served.read()
        served.send({"type": "stop"})       # nothing to stop: no reply
        served.send({"type": "ping", "id": 1})
        assert served.read() == {"type": "pong", "id": 1}
        _, obs = observation(seed=8, moves=4)
        served.send(move_request(obs, 2, time=60.0))
        time.sleep(0.2)
        start = time.monotonic()
        served.send({"type": "stop"})
        move = served.read()
        # without stop the search would run for 48 of the 60 s allowed
        assert time.monotonic() - start < 10
        assert move["type"] == "move" and move["id"] == 2 and move["move"] in obs.legal_moves()
        assert 0 < move["info"]["iterations"] < 1000000000
        # the next request thinks fully again
        served.send({"type": "setoption", "id": 3, "name": "iterations", "value": 500})
        assert served.read()["type"] == "ok"
        served.send(move_request(obs, 4, time=60.0))
        move = served.read()
        assert move["id"] == 4 and move["info"]["iterations"] == 500
    finally:
        served.close()


def test_quit_while_thinking_leaves_at_once():
    served = Served("ismcts:iterations=1000000000")
    try:
        served.send({"type": "hello", "id": 0})
        served.read()
        _, obs = observation(seed=8, moves=4)
        served.send(move_request(obs, 1, time=30.0))
        time.sleep(0.1)
        start = time.monotonic()
        served.send({"type": "quit"})
        assert served.proc.wait(5) == 0
        assert time.monotonic() - start < 2
    finally:
        served.close()


@pytest.mark.parametrize("spec", ["random", "greedy:max_nodes=2000"])
def test_a_served_bot_plays_exactly_as_in_process(spec):
    """Same seeds, same moves: the observation crosses the protocol whole
    and the served bot gets the game's seed in newgame."""
    cs = default_card_set()
    served_spec = "cmd:" + shlex.join(SERVE + [spec])
    seeds = [11, 12]
    records = []
    for first in (served_spec, spec):
        bots = [make_bot(first, seeds[0]), make_bot("random", seeds[1])]
        try:
            records.append(play_game(cs, 2, 99, bots, [first, "random"], seeds))
        finally:
            for bot in bots:
                bot.close()
    assert isinstance(make_bot(served_spec), ExternalBot)
    assert records[0]["end"] == "normal" and records[0]["forfeits"] == []
    assert records[0]["moves"] == records[1]["moves"]
    assert records[0]["scores"] == records[1]["scores"]


def test_fuzzed_requests_each_get_one_reply_and_the_engine_reads_on():
    """Valid requests with one value swapped for junk, at random."""
    import random
    rng = random.Random(2024)
    junk = [None, True, -1, 0, 2**70, 1e308, float("inf"), "", "x" * 50, [], [1, "a"],
            {}, {"a": {"b": []}}, "recruit Q", -0.0]
    _, obs = observation(seed=3, moves=5)
    base = [{"type": "hello", "protocol": 1},
            {"type": "setoption", "name": "max_nodes", "value": 500},
            {"type": "newgame", "seat": 1, "players": 2, "seed": 5},
            move_request(obs)]
    commands = []
    for i in range(300):
        message = json.loads(json.dumps(rng.choice(base)))
        target = message
        if message["type"] == "move" and rng.random() < 0.7:
            target = message["observation"]
            if rng.random() < 0.5:
                target = rng.choice(target["seats"])
        key = rng.choice(sorted(target))
        target[key] = rng.choice(junk)
        message["id"] = i
        commands.append(message)
    engine = Engine("greedy:max_nodes=500", io.BytesIO())
    for message in commands:              # one at a time: a move is never pending
        replies = transcript([message], engine=engine)
        assert len(replies) == 1 and replies[0].get("id", message["id"]) == message["id"], \
            (message, replies)
        assert replies[0]["type"] in ("hello", "ok", "move", "error")
    assert transcript([{"type": "ping", "id": "end"}], engine=engine) == [
        {"type": "pong", "id": "end"}]


def test_the_seed_option_holds_exactly_the_signed_64_bit_range():
    [hello, top, over] = transcript([
        {"type": "hello", "id": 1, "protocol": 1},
        {"type": "setoption", "id": 2, "name": "seed", "value": 2**63 - 1},
        {"type": "setoption", "id": 3, "name": "seed", "value": 2**63}])
    seed = next(o for o in hello["options"] if o["name"] == "seed")
    assert (seed["min"], seed["max"]) == (0, 2**63 - 1)
    assert top["type"] == "ok" and over["type"] == "error"


def test_newgame_takes_the_exact_seed_string_over_a_rounded_seed():
    """A JavaScript frontend writes 4615434279091906027 as ...6000."""
    _, obs = observation(seed=6, moves=3)
    exact, rounded = 4615434279091906027, 4615434279091906000
    def moves(newgame):
        engine = Engine("ismcts:iterations=300", io.BytesIO())
        replies = transcript([newgame, move_request(obs, 2)], engine=engine)
        assert replies[0]["type"] == "ok", replies
        return replies[1]["move"], replies[1]["info"]["value"]
    by_string = moves({"type": "newgame", "id": 1, "seed": rounded,
                       "seed_string": str(exact)})
    assert by_string == moves({"type": "newgame", "id": 1, "seed": exact})
    [error] = transcript([{"type": "newgame", "id": 1, "seed_string": "12x"}])
    assert error["type"] == "error" and "seed_string" in error["message"]


def test_card_sets_sent_in_newgame_are_kept_for_the_16_most_recent():
    engine = Engine("random", io.BytesIO())
    sets = [loads_card_set(_renamed_card_set_toml().replace('name = "other"',
                                                            f'name = "set-{k}"'), "x.toml")
            for k in range(server.SENT_CARD_SETS + 2)]
    for k, card_set in enumerate(sets):
        transcript([{"type": "newgame", "id": k, "card_set": messages.card_set_payload(card_set)}],
                   engine=engine)
    assert len(engine.sent_card_sets) == server.SENT_CARD_SETS
    first = _engine.State.new(sets[0], players=2, seed=1).observation(0)
    last = _engine.State.new(sets[-1], players=2, seed=1).observation(0)
    [forgotten, known] = transcript([move_request(first, 1), move_request(last, 2)],
                                    engine=engine)
    assert forgotten["type"] == "error" and "send it in newgame" in forgotten["message"]
    assert known["type"] == "move"
