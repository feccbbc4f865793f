"""A tournament outlives whatever its bots do: a built-in bot that raises
forfeits that game (its reason in the record) and the run goes on with no
record lost."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from coexist_ai import _search
from coexist_ai.bots import BotSpecError, make_bot, parse_spec
from coexist_ai.bots.builtin import RandomBot
from coexist_ai.cards import default_card_set, dumps_card_set
from coexist_ai.match import play_game
from coexist_ai.records import read_records
from coexist_ai.results import BotsFailing
from coexist_ai.schedule import Entrant
from coexist_ai.tournament import Tournament, run
from cli_process import (PYTHON, ROOT, assert_clear_error, cli, killed_at_exit, package_env,
                         wait_for_records)

CS = default_card_set()


class Raising:
    """A bot whose `method` raises `error` on its `when`-th call."""

    def __init__(self, method, error, when=1):
        self.method, self.error, self.when = method, error, when
        self.calls, self.inner, self.closed = 0, make_bot("random", 1), False

    def _maybe_raise(self, method):
        if method == self.method:
            self.calls += 1
            if self.calls == self.when:
                raise self.error

    def new_game(self, seat, num_players):
        self._maybe_raise("new_game")

    def choose(self, observation):
        self._maybe_raise("choose")
        return self.inner.choose(observation)


@pytest.mark.parametrize("method, when", [("new_game", 1), ("choose", 1), ("choose", 4)])
def test_any_exception_of_a_bot_is_its_forfeit(method, when):
    bot = Raising(method, ValueError("max() arg is an empty sequence"), when)
    record = play_game(CS, 2, 3, [make_bot("random", 0), bot], ["random", "raising"], [0, 1])
    assert record["end"] == "forfeit"
    assert record["forfeits"] == [{"seat": 1, "kind": "crash",
                                   "reason": "ValueError: max() arg is an empty sequence"}]
    assert record["ranks"] == [1, 2]
    assert sum(1 for seat, _ in record["moves"] if seat == 1) == (when - 1 if method == "choose" else 0)


def test_a_very_long_failure_message_is_cut_in_the_record():
    bot = Raising("choose", RuntimeError("x" * 100_000))
    record = play_game(CS, 2, 3, [bot, make_bot("random", 0)], ["raising", "random"], [0, 1])
    reason = record["forfeits"][0]["reason"]
    assert reason.startswith("RuntimeError: xxx") and len(reason) <= 500


def quiet_run(t, out):
    return run(t, str(out), jobs=1, progress=False, echo=lambda _: None)


def test_a_tournament_goes_on_past_bots_that_raise(tmp_path, monkeypatch):
    """A random bot whose seed is a multiple of 3 raises at its 10th
    decision: about half the games are some seat's forfeit, and every game
    of the schedule is recorded."""
    choose = RandomBot.choose

    def flaky(self, observation):
        self.calls = getattr(self, "calls", 0) + 1
        if self.calls == 10 and self.params["seed"] % 3 == 0:
            raise ZeroDivisionError("division by zero")
        return choose(self, observation)

    monkeypatch.setattr(RandomBot, "choose", flaky)
    out = tmp_path / "flaky.jsonl"
    t = Tournament("flaky", [Entrant("a", "random"), Entrant("b", "random")], 2,
                   "round-robin", 6, 1)
    standings = quiet_run(t, out)
    records = read_records(str(out))
    assert sorted(r["game"] for r in records) == list(range(len(t.schedule)))
    assert standings.recorded == len(t.schedule)
    forfeited = [r for r in records if r["end"] == "forfeit"]
    assert 0 < len(forfeited) < len(records)
    for r in forfeited:
        assert [(f["kind"], f["reason"]) for f in r["forfeits"]] == \
            [("crash", "ZeroDivisionError: division by zero")]
        assert r["bots"][r["forfeits"][0]["seat"]]["seed"] % 3 == 0


def test_a_bot_that_cannot_be_made_forfeits_and_one_that_cannot_close_loses_nothing(
        tmp_path, monkeypatch):
    import coexist_ai.tournament as tm
    real = tm.make_bot

    def make(spec, seed=None):
        if spec.startswith("greedy"):
            raise MemoryError("cannot allocate the search")
        bot = real(spec, seed)
        bot.close = lambda: (_ for _ in ()).throw(OSError("close failed"))
        return bot

    t = Tournament("unmade", [Entrant("r", "random"), Entrant("g", "greedy")], 2,
                   "round-robin", 1, 1)
    monkeypatch.setattr(tm, "make_bot", make)
    out = tmp_path / "unmade.jsonl"
    # a bot that forfeits every game it has stops the run, its games recorded
    with pytest.raises(BotsFailing, match="MemoryError: cannot allocate the search"):
        quiet_run(t, out)
    records = read_records(str(out))
    assert len(records) == 2
    for r in records:
        seat = r["entrants"].index("g")
        assert r["forfeits"] == [{"seat": seat, "kind": "crash",
                                  "reason": "MemoryError: cannot allocate the search"}]
        assert r["moves"] == []


# -- specs that pass are bots that can move -------------------------------------

def test_the_duel_of_the_issue_plays_every_game(tmp_path):
    """16 nodes for 8 threads: 2 a thread, a root and a child. The root
    always gets its moves (cx_ismcts.c), so every game is played."""
    out = tmp_path / "tiny.jsonl"
    proc = cli("duel", "ismcts:iterations=50,max_nodes=16,threads=8", "random",
               "--games", 2, "--seed", 1, "--jobs", 1, "--quiet", "--out", out)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert [r["end"] for r in read_records(str(out))] == ["normal", "normal"]


def test_a_greedy_budget_the_compiled_bot_would_refuse_is_refused_when_parsed():
    """greedy_choose refuses more than GREEDY_MAX_NODES positions: a spec
    asking for more passed, and every game of that bot became a forfeit."""
    parse_spec(f"greedy:max_nodes={_search.GREEDY_MAX_NODES}")
    with pytest.raises(BotSpecError) as caught:
        parse_spec(f"greedy:max_nodes={_search.GREEDY_MAX_NODES + 1}")
    assert f"out of range 1..{_search.GREEDY_MAX_NODES}" in str(caught.value)


# -- workers end with their run -------------------------------------------------

def parents():
    """{pid: parent pid} of every process."""
    out = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            out[int(entry)] = int(fields[1])
    return out


def descendants(pid):
    ppid = parents()
    found, todo = set(), [pid]
    while todo:
        parent = todo.pop()
        children = {p for p, pp in ppid.items() if pp == parent}
        found |= children
        todo.extend(children)
    return found


def alive(pid):
    """Running (a zombie holds nothing and waits only to be reaped)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_gone(pids, seconds=10):
    """The processes of `pids` still running after `seconds` (killed then,
    so that a failing test leaves nothing behind)."""
    deadline = time.monotonic() + seconds
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    survivors = {p for p in pids if alive(p)}
    for pid in survivors:
        os.kill(pid, signal.SIGKILL)
    return survivors


def test_sigkill_of_a_run_ends_its_workers_and_the_resource_tracker(tmp_path):
    out = tmp_path / "killed.jsonl"
    with killed_at_exit("duel", "random", "random", "--games", 100_000, "--seed", 1,
                        "--jobs", 2, "--quiet", "--out", out) as proc:
        wait_for_records(proc, out, 20)
        family = descendants(proc.pid)
        # two workers and multiprocessing's resource tracker
        assert len(family) >= 3, family
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        assert wait_gone(family) == set()


# a parent whose child runs the watchdog only (the parent's pid passed to
# it, as the pool passes it: the parent may be gone before the child runs)
WATCHED = """
import os, subprocess, sys, time
child = subprocess.Popen([sys.executable, "-P", "-c", '''
import sys, threading, time
from coexist_ai.worker_pool import _watch_parent
threading.Thread(target=_watch_parent, args=(int(sys.argv[1]),), daemon=True).start()
print("watching", flush=True)
time.sleep(120)
''', str(os.getpid())])
print(child.pid, flush=True)
time.sleep(120)
"""


def test_without_the_kernel_signal_the_watchdog_ends_an_orphan():
    """Where PR_SET_PDEATHSIG is not there (not Linux), the watchdog thread
    alone ends a worker whose parent died."""
    parent = subprocess.Popen([*PYTHON, "-c", WATCHED], stdout=subprocess.PIPE,
                              text=True, env=package_env())
    try:
        child = int(parent.stdout.readline())
        assert parent.stdout.readline() == "watching\n"
        assert alive(child)
        parent.kill()
        parent.wait()
        assert wait_gone({child}) == set()
    finally:
        parent.kill()
        parent.stdout.close()


def test_a_worker_that_dies_is_a_clear_error_and_loses_no_record(tmp_path):
    out = tmp_path / "crashed.jsonl"
    with killed_at_exit("duel", "random", "random", "--games", 100_000, "--seed", 1,
                        "--jobs", 2, "--quiet", "--out", out) as proc:
        wait_for_records(proc, out, 20)
        worker = min(p for p in descendants(proc.pid) if b"spawn_main" in
                     open(f"/proc/{p}/cmdline", "rb").read())
        os.kill(worker, signal.SIGSEGV)
        proc.wait(timeout=60)
        stderr = proc.stderr.read().decode()
    assert proc.returncode == 2 and "Traceback" not in stderr, stderr
    assert "error: a worker process died abruptly" in stderr
    games = [r["game"] for r in read_records(str(out))]   # every line whole
    assert len(games) >= 20 and len(set(games)) == len(games)


# -- memory stays flat over a long run -----------------------------------------------

def test_a_worker_playing_hundreds_of_games_with_a_cards_file_stays_flat(tmp_path):
    """A worker loads --cards FILE for every game; each load once kept its
    card set alive (46 KB a game: 4.6 GB a worker per 100,000 games)."""
    cards = tmp_path / "cards.toml"
    cards.write_text(dumps_card_set(CS))
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "memory_probe.py"),
                           "--games", "600", "--cards", str(cards)],
                          capture_output=True, text=True, env=package_env(), timeout=300)
    assert proc.returncode == 0, proc.stderr
    figures = json.loads(proc.stdout)
    growth = figures["rss_end"] - figures["rss_start"]
    # 550 games after the warm-up: a leak of even 8 KB a game shows
    assert growth < 4 << 20, figures
