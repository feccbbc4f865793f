"""External bots: real processes (the example bots, deliberately broken
ones in tests/protocol_broken_bot.py) in games, in a real tournament and
under the compliance checker."""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

import pytest
from cli_process import PYTHON, cli_argv, cli_env, package_env
from click.testing import CliRunner

from coexist_ai import _engine, _search
from coexist_ai.bots import BotSpecError, make_bot, parse_spec
from coexist_ai.cards import default_card_set
from coexist_ai.cli import main
from coexist_ai.match import BotFailure, play_game
from coexist_ai.protocol.check import check_bot
from coexist_ai.protocol.client import ExternalBot
from coexist_ai.protocol.connection import STDERR_KEEP, Connection, PeerFailure
from coexist_ai.protocol.specs import typed_option
from coexist_ai.records import read_records
from coexist_ai.ratings import compute
from coexist_ai.results import Standings
from coexist_ai.tables import rating_text
from coexist_ai.schedule import Entrant
from coexist_ai.tournament import Tournament, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "bots", "examples")
BROKEN = os.path.join(ROOT, "tests", "protocol_broken_bot.py")
STARVED = os.path.join(ROOT, "tests", "protocol_starved_bot.py")
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


def external_toml(tmp_path, name, command, move_time=0.5, start_timeout=5.0, margin=0.3,
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
    assert params["move_time"] == 1.0 and params["cwd"] is None
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


def test_cmd_specs_carry_settings_and_options_before_the_command():
    name, params = parse_spec("cmd:move_time=2.5 time_margin=0 start_timeout=3 cwd=/tmp "
                              "option.depth=3 'option.style=very calm' python3 bot.py x=1")
    assert params["command"] == ["python3", "bot.py", "x=1"]      # only leading words
    assert (params["move_time"], params["time_margin"], params["start_timeout"]) == (2.5, 0, 3)
    assert params["cwd"] == "/tmp" and params["options"] == {"depth": "3", "style": "very calm"}


@pytest.mark.parametrize("spec, message", [
    ("cmd:movetime=2 python3 bot.py", "unknown setting 'movetime'"),
    ("cmd:FOO=1 ./bot", "cmd:env FOO=..."),
    ("cmd:move_time=soon python3 bot.py", "'move_time' must be a number of seconds"),
    ("cmd:move_time=0 python3 bot.py", "in 0.001..3600"),
    ("cmd:move_time=nan python3 bot.py", "'move_time'"),
    ("cmd:move_time=2", "no command"),
])
def test_bad_cmd_settings_are_refused(spec, message):
    with pytest.raises(BotSpecError, match=re.escape(message)):
        parse_spec(spec)


def test_options_given_as_text_take_the_type_the_bot_declares():
    declared = {"n": {"type": "int"}, "x": {"type": "float"}, "b": {"type": "bool"},
                "s": {"type": "string"}}
    assert typed_option("3", declared["n"]) == 3
    assert typed_option("2", declared["x"]) == 2.0 and typed_option("0.25", declared["x"]) == 0.25
    assert typed_option("off", declared["b"]) is False and typed_option("true", declared["b"])
    assert typed_option("3", declared["s"]) == "3" and typed_option("3", None) == "3"
    assert typed_option("lots", declared["n"]) == "lots"      # the bot refuses it, saying why
    assert typed_option("nan", declared["x"]) == "nan" and typed_option(7, declared["x"]) == 7


def test_a_cmd_bot_gets_its_move_time_and_options_from_the_spec(tmp_path, monkeypatch):
    log = tmp_path / "received.jsonl"
    monkeypatch.setenv("COEXIST_TEST_RECORD", str(log))
    record, _ = play("cmd:" + shlex.join(["move_time=0.05", "time_margin=0.25",
                                          PY, BROKEN, "good"]))
    assert record["end"] == "normal", record["forfeits"]
    moves = [json.loads(line) for line in log.read_text().splitlines()
             if json.loads(line)["type"] == "move"]
    assert moves and all((m["time"], m["time_margin"]) == (0.05, 0.25) for m in moves)
    # thinker.py refuses an option value of the wrong type: "0.2" must arrive as 0.2
    record, _ = play("cmd:" + shlex.join(["move_time=0.05", "option.share=0.2",
                                          "option.seed=3",
                                          PY, os.path.join(EXAMPLES, "thinker.py")]))
    assert record["end"] == "normal", record["forfeits"]


def test_toml_paths_are_relative_to_the_toml_file(tmp_path):
    folder = tmp_path / "bots"
    folder.mkdir()
    spec = external_toml(folder, "rel", ["./bot.sh", "data.txt"], cwd="work")
    _, params = parse_spec(spec)
    assert params["command"] == [str(folder / "bot.sh"), "data.txt"]   # arguments untouched
    assert params["cwd"] == str(folder / "work")
    _, params = parse_spec(external_toml(folder, "here", ["perl", "bot.pl"]))
    assert params["command"] == ["perl", "bot.pl"] and params["cwd"] == str(folder)


def test_the_example_entries_work_from_any_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("random_legal_perl.toml", "thinker.toml"):
        if name.startswith("random_legal_perl") and not shutil.which("perl"):
            continue
        bot = make_bot(os.path.join(EXAMPLES, name), seed=1)
        state = _engine.State.new(players=2, seed=3)
        bot.new_game(state.current_player, 2)
        try:
            for _ in range(3):
                state.apply(bot.choose(state.observation(state.current_player)))
        finally:
            bot.close()
    if shutil.which("perl"):
        proc = subprocess.run(cli_argv("duel", os.path.join(EXAMPLES, "random_legal_perl.toml"),
                                       "random", "--games", 2, "--quiet", "--seed", 1),
                              cwd=tmp_path, env=cli_env(), capture_output=True, text=True,
                              timeout=120)
        assert proc.returncode == 0, proc.stderr
        # the table shows the bot by the name it gives in hello
        row = next(line for line in proc.stdout.splitlines() if "random-legal-perl" in line
                   and "%" in line)
        assert row.split()[-1] == "0/0/0/0", proc.stdout


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
        Entrant(mode, broken(tmp_path, mode, 3, marker if mode == "hang" else "-"))
        for mode in EXPECTED]
    t = Tournament("broken", entrants, 2, "gauntlet", 1, seed=3)
    out = tmp_path / "records.jsonl"
    start = time.monotonic()
    standings = run(t, str(out), jobs=2, progress=False, echo=lambda *a: None,
                    stop_failing=False)
    # the stalling bots sleep 30 s: waiting them out would take 60 s or more
    assert time.monotonic() - start < 50
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
    state = _engine.State.new(players=2, seed=1)
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
    state = _engine.State.new(players=2, seed=1)
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
    ("slow_think", "FAIL  ping while thinking"),
    ("hang", "FAIL  games"),
])
def test_the_check_fails_broken_bots(mode, failing):
    passed, lines = run_check([PY, BROKEN, mode], move_time=0.5, time_margin=0.2,
                              ping_timeout=0.2, start_timeout=2, max_moves=3)
    assert not passed
    assert any(line.startswith(failing) for line in lines), lines
    assert lines[-1].startswith("result: FAIL")


def test_the_check_pings_during_the_search_and_catches_a_starved_reader():
    """The starved bot answers a ping sent at once after the move request;
    pings spread over the move time meet its search."""
    passed, lines = run_check([PY, STARVED], move_time=1.0, ping_timeout=0.5, max_moves=2)
    assert not passed
    [line] = [x for x in lines if x.startswith("FAIL")]
    assert line.startswith("FAIL  ping while thinking:") and "worst" in line, lines
    worst = float(line.split("worst ")[1].split(" s")[0])
    assert worst > 0.5


CHECKS = ["handshake", "ping", "unknown command", "options", "unknown option",
          "integer for float", "games", "info", "ping while thinking", "stop", "quit",
          "end of input", "bad input"]


def test_the_check_reports_every_check_it_makes():
    passed, lines = run_check([*PYTHON, "-m", "coexist_ai.protocol", "serve",
                               "ismcts:iterations=1000000"], move_time=0.3, max_moves=3)
    assert passed, lines
    assert [line.split(":")[0].split(None, 1)[1] for line in lines[:-1]] == CHECKS
    assert all(line.startswith("PASS") for line in lines[:-1]), lines
    _, lines = run_check([PY, os.path.join(EXAMPLES, "first_legal.py")], max_moves=2)
    reported = {line.split(":")[0].split(None, 1)[1]: line.split()[0] for line in lines[:-1]}
    assert reported == dict.fromkeys(CHECKS, "PASS") | {
        "integer for float": "SKIP", "info": "SKIP", "stop": "SKIP"}


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


@pytest.mark.parametrize("code, status", [
    ("import sys; sys.exit(3)", "exited with code 3"),
    ("import os, signal; os.kill(os.getpid(), signal.SIGSEGV)", "killed by signal SIGSEGV"),
])
def test_the_frontend_sees_the_bots_own_exit_status(code, status):
    """On Linux the bot runs under the launcher, which leaves the way the
    bot did."""
    conn = Connection([PY, "-c", code])
    conn.start()
    try:
        with pytest.raises(PeerFailure) as failure:
            conn.request({"type": "hello", "protocol": 1}, 10, "hello", "stall", "hello")
        assert failure.value.kind == "crash" and status in failure.value.message
    finally:
        conn.kill()


def test_a_command_that_cannot_start_is_a_crash_that_says_why(tmp_path):
    bot = make_bot("cmd:" + str(tmp_path / "no-such-bot"))
    bot.new_game(0, 2)
    with pytest.raises(BotFailure) as failure:
        bot.choose(_engine.State.new(players=2, seed=1).observation(0))
    assert failure.value.kind == "crash"
    assert "cannot start" in failure.value.detail and "No such file" in failure.value.detail
