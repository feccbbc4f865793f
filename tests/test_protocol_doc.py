"""docs/protocol.md cannot drift from the code: its transcript is replayed
against `coexist-ai serve`, its example lines are the ones a frontend
writes, and a bot written from the documents alone
(tests/protocol_doc_bot.py, which checks their promises on every message)
plays whole games and passes the compliance check."""
import json
import os
import re
import shlex
import sys
import time

import pytest
from cli_process import PYTHON, package_env

from coexist_ai.bots import make_bot
from coexist_ai.cards import default_card_set
from coexist_ai.match import play_game
from coexist_ai.protocol.check import check_bot
from coexist_ai.protocol.connection import Connection, PeerFailure
from coexist_ai.protocol.messages import decode, encode

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "protocol.md")
DOC_BOT = os.path.join(ROOT, "tests", "protocol_doc_bot.py")
ANY = "…"
REPLY_WAIT = 60         # seconds: generous; nothing here is a timing test


@pytest.fixture(autouse=True)
def _importable(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", package_env()["PYTHONPATH"])


def doc_section(title):
    text = open(DOC, encoding="utf-8").read()
    return text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def transcript():
    """The transcript as [(line sent, [replies expected])], and the spec served."""
    section = doc_section("A full transcript")
    spec = re.search(r"`coexist-ai serve\s+([^`]+)`", section).group(1).strip()
    block = section.split("```\n", 2)[1]
    exchanges = []
    for line in block.splitlines():
        direction, _, text = line.partition(" ")
        if direction == ">":
            exchanges.append((text, []))
        else:
            assert direction == "<" and exchanges, line
            exchanges[-1][1].append(json.loads(text))
    return spec, exchanges


def matches(expected, actual):
    """Equal, except that "…" matches any value and ends a list early."""
    if expected == ANY:
        return True
    if isinstance(expected, dict):
        return (isinstance(actual, dict) and set(expected) == set(actual)
                and all(matches(v, actual[k]) for k, v in expected.items()))
    if isinstance(expected, list):
        cut = bool(expected) and expected[-1] == ANY
        head = expected[:-1] if cut else expected
        return (isinstance(actual, list) and (len(actual) >= len(head) if cut
                                              else len(actual) == len(head))
                and all(matches(e, a) for e, a in zip(head, actual)))
    return type(expected) is type(actual) and expected == actual


def test_the_transcript_replays_against_serve():
    spec, exchanges = transcript()
    assert len(exchanges) > 10 and spec.startswith("ismcts")
    conn = Connection([*PYTHON, "-m", "coexist_ai.protocol", "serve", spec])
    conn.start()
    try:
        for sent, expected in exchanges:
            conn.send_raw(sent.encode("utf-8") + b"\n", time.monotonic() + REPLY_WAIT)
            got = [conn.receive(time.monotonic() + REPLY_WAIT, sent[:60], "stall")
                   for _ in expected]
            unmatched = list(expected)
            for reply in got:        # in any order within the group
                found = next((e for e in unmatched if matches(e, reply)), None)
                assert found is not None, (sent[:80], reply, unmatched)
                unmatched.remove(found)
        assert conn.proc.wait(REPLY_WAIT) == 0          # the last line is quit
        with pytest.raises(PeerFailure) as end:         # ...which has no reply
            conn.receive(time.monotonic() + REPLY_WAIT, "quit", "stall")
        assert end.value.kind == "crash" and "exited with code 0" in end.value.message
    finally:
        conn.kill()


def test_the_transcript_shows_every_command_and_what_it_promises():
    _, exchanges = transcript()
    kinds = {json.loads(sent)["type"] for sent, _ in exchanges if sent.startswith("{")}
    assert kinds == {"hello", "setoption", "newgame", "move", "ping", "stop", "quit", "dance"}
    stops = [replies for sent, replies in exchanges if sent == '{"type":"stop"}']
    assert [] in stops and any(r and r[0]["type"] == "move" for r in stops)


def example_lines():
    """Every JSON line of the document's json and transcript blocks."""
    text = open(DOC, encoding="utf-8").read()
    lines = []
    for block in re.findall(r"```json\n(.*?)```", text, re.S):
        lines += block.splitlines()
    _, exchanges = transcript()
    lines += [sent for sent, _ in exchanges if sent.startswith("{")]
    return lines


def test_every_example_line_is_written_as_a_frontend_writes_it():
    """Compact, ASCII, "type" first and "id" second: what the document
    promises and a pattern-reading bot (random_legal.pl) relies on."""
    lines = example_lines()
    assert len(lines) > 20
    for line in lines:
        if "…" in line:
            continue
        assert encode(decode(line)).decode("ascii").rstrip("\n") == line, line


def test_the_document_bot_plays_whole_games(tmp_path, monkeypatch):
    log = tmp_path / "requests.jsonl"
    monkeypatch.setenv("DOC_BOT_LOG", str(log))
    spec = "cmd:" + shlex.join(["move_time=0.5", "option.offset=2", sys.executable, DOC_BOT])
    for players, deal in ((2, 1), (3, 2), (4, 3), (2, 4)):
        bots = [make_bot(spec, 2**63 - 1 - deal)] + [make_bot("greedy:max_nodes=200", s)
                                                     for s in range(1, players)]
        specs = [spec] + ["greedy"] * (players - 1)
        try:
            record = play_game(default_card_set(), players, deal, bots, specs,
                               list(range(players)))
        finally:
            for bot in bots:
                bot.close()
        assert record["end"] == "normal", record["forfeits"]
    requests = [json.loads(line) for line in log.read_text().splitlines()]
    assert all(r["time"] == 0.5 for r in requests)
    assert any(r["legal"] == 1 for r in requests)     # single-move decisions are sent too


def test_the_document_bot_passes_the_check():
    lines = []
    assert check_bot([sys.executable, DOC_BOT], echo=lines.append, max_moves=20,
                     move_time=0.2, players=3), lines
    assert not [line for line in lines if line.startswith(("FAIL", "WARN"))], lines


def test_the_document_bot_refuses_a_broken_promise():
    """Its checks can fail: a discard pile out of card-set order, a seed
    string that is not the seed, a card set whose hash is not its content."""
    from coexist_ai import _engine, _search
    from coexist_ai.protocol.messages import card_set_payload, move_command, newgame_command
    state = _engine.State.new(players=2, seed=3)
    while state.current_player != 0 or len(json.loads(state.observation(0).to_json())
                                           ["discard"]) < 2:
        state.apply(state.legal_actions()[-1])
    payload = card_set_payload(default_card_set())
    request = move_command(state.observation(0), 1.0, 0.5)
    request["observation"]["discard"].reverse()
    bad_hash = dict(payload, name="renamed")
    cases = [(newgame_command(0, 2, 7, payload), request, "Order of lists"),
             (dict(newgame_command(0, 2, 7, payload), seed_string="8"), None, "seed_string"),
             (newgame_command(0, 2, 7, bad_hash), None, "sha256")]
    for newgame, move, promise in cases:
        conn = Connection([sys.executable, DOC_BOT])
        conn.start()
        try:
            if move:                  # a good newgame first, then the bad request
                conn.request(newgame, REPLY_WAIT, "newgame", "stall", "ok")
            conn.send(dict(move or newgame, id=99), time.monotonic() + REPLY_WAIT)
            reply = conn.receive(time.monotonic() + REPLY_WAIT, "it", "stall")
            assert reply["type"] == "error" and promise in reply["message"], (promise, reply)
        finally:
            conn.kill()
