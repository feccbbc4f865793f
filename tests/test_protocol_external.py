"""External bots: real processes (the example bots, deliberately broken
ones in tests/protocol_broken_bot.py) in games, in a real tournament and
under the compliance checker."""
import json
import os
import shlex
import shutil
import sys
import time

import pytest
from cli_process import PYTHON, package_env
from click.testing import CliRunner

from coexist_ai import _core
from coexist_ai.bots import BotSpecError, make_bot, parse_spec
from coexist_ai.cards import default_card_set
from coexist_ai.cli import main
from coexist_ai.match import BotFailure, play_game
from coexist_ai.protocol.check import check_bot
from coexist_ai.protocol.client import ExternalBot
from coexist_ai.protocol.connection import STDERR_KEEP, Connection
from coexist_ai.records import read_records
from coexist_ai.ratings import compute
from coexist_ai.results import Standings
from coexist_ai.tables import rating_text
from coexist_ai.schedule import Entrant
from coexist_ai.tournament import Tournament, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "bots", "examples")
BROKEN = os.path.join(ROOT, "tests", "protocol_broken_bot.py")
PY = sys.executable


@pytest.fixture(autouse=True)
def _importable(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", package_env()["PYTHONPATH"])


@pytest.fixture(autouse=True)
def _no_bot_left_behind():
    """Every bot process a test starts is gone when it ends."""
    yield
    deadline = time.monotonic() + 2
    while _my_bot_processes() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _my_bot_processes()


def _my_bot_processes():
    """Live bot processes whose parent is this test process."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                state, parent = f.read().rsplit(")", 1)[1].split()[:2]
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, ValueError):
            continue
        if int(parent) == os.getpid() and state != "Z" and any(
                word in cmdline for word in ("protocol_broken_bot", "examples",
                                             "coexist_ai.protocol")):
            found.append((pid, cmdline))
    return found


def external_toml(tmp_path, name, command, move_time=0.5, start_timeout=1.0, margin=0.3,
                  **extra):
    """A TOML external-bot entry; returns its path (the spec)."""
    lines = ['bot = "external"', f"command = {json.dumps(command)}",
             f"move_time = {move_time}", f"start_timeout = {start_timeout}",
             f"time_margin = {margin}"]
    lines += [f"{k} = {json.dumps(v) if not isinstance(v, dict) else _inline(v)}"
              for k, v in extra.items()]
    path = tmp_path / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _inline(table):
    return "{ " + ", ".join(f"{k} = {json.dumps(v)}" for k, v in table.items()) + " }"


def broken(tmp_path, mode, *args, **settings):
    return external_toml(tmp_path, mode, [PY, BROKEN, mode, *map(str, args)], **settings)


def play(spec, seed=1, deal=5, opponent="random"):
    bots = [make_bot(spec, seed), make_bot(opponent, 2)]
    try:
        return play_game(default_card_set(), 2, deal, bots, [spec, opponent], [seed, 2]), bots
    finally:
        for bot in bots:
            bot.close()


# -- specs ---------------------------------------------------------------------------
def test_cmd_and_toml_specs(tmp_path):
    name, params = parse_spec("cmd:python3 'my bot.py' --fast")
    assert name == "external" and params["command"] == ["python3", "my bot.py", "--fast"]
    spec = external_toml(tmp_path, "x", ["perl", "b.pl"], move_time=2, cwd="/tmp",
                         options={"depth": 3, "style": "calm"}, seed=4)
    name, params = parse_spec(spec)
    assert params["command"] == ["perl", "b.pl"] and params["cwd"] == "/tmp"
    assert params["options"] == {"depth": 3, "style": "calm"}
    assert params["move_time"] == 2.0 and params["seed"] == 4
    bot = make_bot(spec, seed=9)
    assert isinstance(bot, ExternalBot) and bot.params["seed"] == 9
    assert bot.conn is None           # making a bot starts nothing
    bot.close()


@pytest.mark.parametrize("body, message", [
    ('bot = "external"\n', "'command' must be"),
    ('bot = "external"\ncommand = []\n', "'command' must be"),
    ('bot = "external"\ncommand = ["x"]\nmove_tme = 1\n', "unknown keys"),
    ('bot = "external"\ncommand = ["x"]\nmove_time = -1\n', "'move_time'"),
    ('bot = "external"\ncommand = ["x"]\noptions = 3\n', "'options'"),
    ('bot = "external"\ncommand = ["x"]\ncwd = 5\n', "'cwd'"),
])
def test_bad_external_entries_are_refused(tmp_path, body, message):
    path = tmp_path / "bad.toml"
    path.write_text(body)
    with pytest.raises(BotSpecError, match=message):
        parse_spec(str(path))


@pytest.mark.parametrize("spec", ["cmd:", "cmd:   ", "cmd:python3 'unclosed"])
def test_bad_cmd_specs_are_refused(spec):
    with pytest.raises(BotSpecError):
        parse_spec(spec)


# -- games -----------------------------------------------------------------------------
def test_example_bots_play_whole_games(tmp_path):
    specs = ["cmd:" + shlex.join([PY, os.path.join(EXAMPLES, "first_legal.py")]),
             external_toml(tmp_path, "thinker", [PY, "thinker.py"], cwd=EXAMPLES,
                           move_time=0.05, options={"share": 0.2, "seed": 3})]
    if shutil.which("perl"):
        specs.append(f"cmd:perl {os.path.join(EXAMPLES, 'random_legal.pl')}")
    if shutil.which("bash"):
        specs.append(f"cmd:bash {os.path.join(EXAMPLES, 'first_legal.sh')}")
    for spec in specs:
        record, bots = play(spec)
        assert record["end"] == "normal", (spec, record["forfeits"])
        assert bots[0].identity["name"]
    assert bots[0].conn is None       # closed


def test_the_bot_sees_observations_never_the_deck_order(tmp_path, monkeypatch):
    log = tmp_path / "received.jsonl"
    monkeypatch.setenv("COEXIST_TEST_RECORD", str(log))
    record, _ = play(broken(tmp_path, "good"), deal=21)
    assert record["end"] == "normal"
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    moves = [m for m in messages if m["type"] == "move"]
    assert len(moves) == sum(1 for seat, _ in record["moves"] if seat == 0)
    deck = record["deck"]
    for m in moves:
        assert "draw_pile_order" not in m["observation"]
        assert m["observation"]["format"] == "coexist-observation"
        assert m["observation"]["viewer"] == 0
        assert m["time"] == 0.5 and m["legal"]
        pile = m["observation"]["draw_pile_contents"]
        assert pile == sorted(pile, key=default_card_set().index_of)   # sorted, not dealt
    newgame = next(m for m in messages if m["type"] == "newgame")
    assert newgame["seat"] == 0 and newgame["players"] == 2 and newgame["seed"] == 1
    assert newgame["card_set"]["sha256"] == default_card_set().sha256
    assert deck and not any(json.dumps(deck[5:]) in line for line in log.read_text().splitlines())


EXPECTED = {   # mode: (kind, words in the reason)
    "crash_start": ("crash", ["exited with code 3", "cannot load my weights"]),
    "slow_start": ("stall", ["no reply to hello"]),
    "bad_version": ("illegal", ["protocol 2"]),
    "stall_newgame": ("stall", ["no reply to newgame"]),
    "crash_mid": ("crash", ["exited with code 1", "crash_mid: failing at move 3"]),
    "hang": ("time", ["no reply to the move request", "hang: failing"]),
    "late": ("time", ["0.5 s + 0.3 s margin"]),
    "garbage": ("illegal", ["unreadable reply", "this is not json"]),
    "illegal": ("illegal", ["'release no-such-animal' is not legal"]),
    "wrong_id": ("illegal", ["with id 'not-the-id'"]),
    "error_reply": ("illegal", ["with an error: 'I give up'"]),
    "huge": ("illegal", ["longer than 65536 bytes"]),
}


def test_a_tournament_of_broken_bots_records_every_failure(tmp_path):
    marker = f"coexist-test-child-{os.getpid()}-{time.time_ns()}"
    good = "cmd:" + shlex.join([PY, os.path.join(EXAMPLES, "first_legal.py")])
    entrants = [Entrant("good", good)] + [
        Entrant(mode, broken(tmp_path, mode, 3, marker if mode == "hang" else "-",
                             start_timeout=0.5))
        for mode in EXPECTED]
    t = Tournament("broken", entrants, 2, "gauntlet", 1, seed=3)
    out = tmp_path / "records.jsonl"
    start = time.monotonic()
    standings = run(t, str(out), jobs=2, progress=False, echo=lambda *a: None,
                    stop_failing=False)
    assert time.monotonic() - start < 30
    records = read_records(str(out))
    assert len(records) == len(t.schedule) == 2 * len(EXPECTED)
    assert sorted(r["game"] for r in records) == list(range(len(t.schedule)))
    for r in records:
        [forfeit] = r["forfeits"]
        mode = r["entrants"][forfeit["seat"]]
        kind, words = EXPECTED[mode]
        assert r["end"] == "forfeit" and forfeit["kind"] == kind, (mode, forfeit)
        for word in words:
            assert word in forfeit["reason"], (mode, forfeit["reason"])
        assert r["ranks"][forfeit["seat"]] == 2 and r["ranks"][1 - forfeit["seat"]] == 1
    table = rating_text(compute(standings), standings)
    assert "0/0/0/0" in next(line for line in table.splitlines() if line.startswith("good"))
    again = Standings(t, records)
    totals = {k: sum(again.failures[i][k] for i in range(len(entrants)))
              for k in ("time", "illegal", "crash", "stall")}
    assert totals == {"time": 4, "illegal": 12, "crash": 4, "stall": 4}
    assert not _processes_with(marker)      # the hung bot's child was killed too


def _processes_with(marker):
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if marker.encode() in f.read():
                    found.append(pid)
        except OSError:
            pass
    return found


def test_a_crashed_bot_forfeits_and_starts_afresh_next_game(tmp_path):
    bot = make_bot(broken(tmp_path, "good"))
    state = _core.State.new(players=2, seed=1)
    bot.new_game(0, 2)
    bot.choose(state.observation(0))
    first = bot.conn.proc
    first.kill()
    first.wait()
    with pytest.raises(BotFailure) as failure:
        bot.choose(state.observation(0))
    assert failure.value.kind == "crash" and "killed by signal SIGKILL" in failure.value.detail
    assert bot.conn is None
    bot.new_game(0, 2)
    assert bot.choose(state.observation(0)) in state.legal_actions()
    assert bot.conn.proc is not first
    proc = bot.conn.proc
    bot.close()
    assert proc.poll() is not None


def test_quit_kills_a_bot_that_ignores_it():
    conn = Connection([PY, "-c", "import time; time.sleep(60)"])
    conn.start()
    start = time.monotonic()
    assert conn.quit(grace=0.3) is None          # it did not leave by itself
    assert conn.proc.poll() is not None and time.monotonic() - start < 2


def test_stderr_is_kept_only_as_a_tail(tmp_path):
    bot = make_bot(broken(tmp_path, "huge_stderr"))
    bot.new_game(0, 2)
    state = _core.State.new(players=2, seed=1)
    bot.choose(state.observation(0))
    time.sleep(0.3)
    assert len(bot.conn._stderr) <= 2 * STDERR_KEEP
    assert bot.conn.stderr_tail().endswith("huge_stderr: the end of it")
    bot.close()


# -- the compliance checker ----------------------------------------------------------------
def run_check(command, **settings):
    lines = []
    passed = check_bot(command, echo=lines.append, **settings)
    return passed, lines


@pytest.mark.parametrize("command", [
    [PY, os.path.join(EXAMPLES, "first_legal.py")],
    ["perl", os.path.join(EXAMPLES, "random_legal.pl")],
    ["bash", os.path.join(EXAMPLES, "first_legal.sh")],
    [PY, os.path.join(EXAMPLES, "thinker.py")],
    [*PYTHON, "-m", "coexist_ai.protocol", "serve", "ismcts:iterations=1000000"],
])
def test_the_examples_and_a_served_bot_pass_the_check(command):
    if not shutil.which(command[0]):
        pytest.skip(f"no {command[0]} here")
    passed, lines = run_check(command, move_time=0.2, max_moves=6)
    assert passed, "\n".join(lines)
    assert not [line for line in lines if line.startswith(("FAIL", "WARN"))], lines
    assert lines[-1].startswith("result: PASS")


@pytest.mark.parametrize("mode, failing", [
    ("crash_start", "FAIL  handshake"),
    ("bad_version", "FAIL  handshake"),
    ("illegal", "FAIL  games"),
    ("slow_think", "FAIL  games: ping while thinking"),
    ("hang", "FAIL  games"),
])
def test_the_check_fails_broken_bots(mode, failing):
    passed, lines = run_check([PY, BROKEN, mode], move_time=0.5, time_margin=0.2,
                              ping_timeout=0.2, start_timeout=2, max_moves=3)
    assert not passed
    assert any(line.startswith(failing) for line in lines), lines
    assert lines[-1].startswith("result: FAIL")


def test_the_check_of_a_bot_that_never_starts_leaves_no_process():
    passed, lines = run_check([PY, BROKEN, "slow_start"], start_timeout=0.3)
    assert not passed and lines[0].startswith("FAIL  handshake: no reply to hello")
    assert [line.split(":")[0] for line in lines[-3:-1]] == ["WARN  end of input",
                                                            "WARN  bad input"]


def test_protocol_check_command_exit_codes():
    runner = CliRunner()
    good = runner.invoke(main, ["protocol", "check", "--max-moves", "5", "--",
                                PY, os.path.join(EXAMPLES, "first_legal.py")])
    assert good.exit_code == 0, good.output
    assert "result: PASS" in good.output
    bad = runner.invoke(main, ["protocol", "check", "--move-time", "0.3", "--",
                               PY, BROKEN, "garbage", "1"])
    assert bad.exit_code == 1 and "unreadable reply" in bad.output
