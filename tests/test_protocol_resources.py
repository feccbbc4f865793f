"""Resources stay flat over long runs: hundreds of games against external
bots (one of which leaves a setsid child and a daemon behind), and a
`serve` process fed hundreds of newgames carrying card sets.

The memory bounds come from measurement, not from a timing: after a warm-up,
200 external games grew this process by 0-64 KB and 300 newgame+move rounds
grew `serve` by 4-20 KB (several runs; `python tests/soak_external.py` for
a longer run). The leaks these tests guard against were 75 KB a game (two
reader threads and their pipes per external game) and 42 KB a newgame (every
card set sent kept for ever); a 1 MB bound catches either within 25 games
and leaves 15x the measured noise."""
import json
import os
import subprocess
import threading
import time

import pytest
import soak_external
from cli_process import PYTHON, package_env

from coexist_ai import _engine, _search
from coexist_ai.cards import default_card_set, dumps_card_set, loads_card_set
from coexist_ai.protocol.connection import Connection
from coexist_ai.protocol.messages import card_set_payload, encode

MEMORY_BOUND_KB = 1024
WARM_UP = 20


@pytest.fixture(autouse=True)
def _importable(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", package_env()["PYTHONPATH"])


def marker():
    return f"coexist-test-spawn-{os.getpid()}-{time.time_ns()}"


def test_a_bot_whose_children_left_its_session_is_killed_with_them():
    mark = marker()
    left = mark + "-left-behind"
    before = soak_external.live_processes(mark)
    threads = threading.active_count()
    conn = Connection([*PYTHON, soak_external.SPAWNING, mark])
    conn.start()
    try:
        conn.request({"type": "hello", "protocol": 1}, 10, "hello", "stall", "hello")
        deadline = time.monotonic() + 10       # the daemon starts after its double fork
        while len(soak_external.marked_processes(left)) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(soak_external.marked_processes(left)) == 2   # the setsid child, the daemon
        fds = len(os.listdir("/proc/self/fd"))
    finally:
        conn.kill()
    assert set(soak_external.live_processes(mark)) <= set(before)
    assert len(os.listdir("/proc/self/fd")) == fds - 3      # stdin, stdout, stderr
    assert threading.active_count() == threads


def test_hundreds_of_external_games_leave_nothing_behind():
    mark = marker()
    held = []           # (fds, threads) after each game; a tuple of ints keeps no memory

    def after(game, record, snap):
        assert record["end"] == "normal", record["forfeits"]
        assert snap["processes"] == 0, (game, snap)
        held.append((snap["fds"], snap["threads"], snap["rss_kb"]))

    soak_external.play_games(200, mark, after)
    warm = held[WARM_UP]
    assert {h[:2] for h in held[WARM_UP:]} == {warm[:2]}, held
    assert held[-1][2] - warm[2] <= MEMORY_BOUND_KB, (warm, held[-1])


@pytest.mark.parametrize("distinct", [False, True], ids=["same set", "a new set each time"])
def test_serve_memory_stays_flat_over_newgames_carrying_card_sets(distinct):
    served = subprocess.Popen([*PYTHON, "-m", "coexist_ai.protocol", "serve", "random"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    text = dumps_card_set(default_card_set())
    sizes = []
    try:
        ask(served, {"type": "hello", "id": 0, "protocol": 1})
        for game in range(300):
            card_set = default_card_set() if not distinct else loads_card_set(
                text.replace('name = "reconstructed-v1"', f'name = "set-{game}"'), "x.toml")
            reply = ask(served, {"type": "newgame", "id": 1, "seat": 0, "players": 2,
                                 "seed": game, "card_set": card_set_payload(card_set)})
            assert reply["type"] == "ok", reply
            state = _engine.State.new(card_set, players=2, seed=game)
            obs = state.observation(state.current_player)
            reply = ask(served, {"type": "move", "id": 2, "observation": json.loads(obs.to_json()),
                                 "legal": obs.legal_moves(), "time": 1.0})
            assert reply["type"] == "move" and reply["move"] in obs.legal_moves(), reply
            sizes.append(rss_kb(served.pid))
    finally:
        served.kill()
        served.wait()
    assert sizes[-1] - sizes[WARM_UP] <= MEMORY_BOUND_KB, (sizes[WARM_UP], sizes[-1])


def ask(proc, message):
    proc.stdin.write(encode(message))
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        return int(next(line for line in f if line.startswith("VmRSS:")).split()[1])


FRONTEND = """
import sys, time
from coexist_ai.protocol.connection import Connection
conn = Connection(sys.argv[1:])
conn.start()
conn.request({"type": "hello", "protocol": 1}, 10, "hello", "stall", "hello")
print("ready", flush=True)
time.sleep(600)
"""


def test_a_bot_and_its_children_die_with_a_frontend_that_was_killed():
    mark = marker()
    frontend = subprocess.Popen([*PYTHON, "-c", FRONTEND, *PYTHON, soak_external.SPAWNING,
                                 mark], stdout=subprocess.PIPE, text=True)
    try:
        assert frontend.stdout.readline() == "ready\n"
        def bots():               # the launcher, the bot, the two it left behind
            return set(soak_external.marked_processes(mark)) - {frontend.pid}
        wait_for(lambda: len(bots()) == 4)
        assert len(bots()) == 4
    finally:
        frontend.kill()           # SIGKILL: no finalizer runs
        frontend.wait()
    wait_for(lambda: not soak_external.marked_processes(mark))
    assert soak_external.marked_processes(mark) == []


def wait_for(condition, seconds=20):
    """Until `condition()` holds, or `seconds` have passed (the caller then
    asserts it, so a slow machine only waits longer)."""
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)
