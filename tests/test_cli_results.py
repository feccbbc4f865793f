"""What the run commands print when things go wrong or are cut short,
driven as real processes: failures with their reasons (with or without
--out), a bot that cannot play stopping the run, Ctrl-C, and the help of
every tournament command."""
import itertools
import os
import shlex
import signal
import subprocess
import sys
import time

import pytest

from cli_process import ROOT, assert_clear_error, assert_ok, child_setup, cli, cli_argv, cli_env

FLAKY = f"cmd:{shlex.join([sys.executable, str(ROOT / 'tests' / 'seat_failing_bot.py'), '1'])}"


def test_failures_and_their_reasons_are_shown_without_out():
    """Regression: a forfeit's reason was only in the record, so a duel
    without --out lost it."""
    proc = cli("duel", FLAKY, "random", "--games", 6, "--seed", 1, "--jobs", 1, "--quiet")
    assert_ok(proc)
    lines = proc.stdout.splitlines()
    start = lines.index("failures (forfeited games; kind: reason):")
    reasons = list(itertools.takewhile(lambda line: line.startswith("  "), lines[start + 1:]))
    assert len(reasons) == 3 and all("x illegal: move 'fly away' is not legal" in r
                                     for r in reasons)
    row = next(line for line in lines if line.startswith("seat-failing "))
    assert row.endswith("0/3/0/0")


def test_a_bot_that_cannot_play_stops_the_run_with_an_error(tmp_path):
    """Regression: `duel "cmd:nonexistent-program" greedy` played every game
    as a forfeit and exited 0."""
    out = tmp_path / "d.jsonl"
    proc = cli("duel", "cmd:nonexistent-program", "greedy", "--games", 20, "--jobs", 1,
               "--quiet", "--out", out)
    line = assert_clear_error(proc, "'cmd:nonexistent-program'",
                              "forfeited each of its first 3 games", "nonexistent-program")
    assert "No such file" in line
    assert out.read_text().count("\n") == 3      # what was played is kept


def test_ctrl_c_prints_the_standings_and_the_command_that_resumes(tmp_path):
    out = tmp_path / "d.jsonl"
    args = ["duel", "greedy", "random", "--games", 100000, "--seed", 4, "--jobs", 2,
            "--out", out]
    proc = subprocess.Popen(cli_argv(*args), cwd=ROOT, env=cli_env(), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, preexec_fn=child_setup(None))
    deadline = time.monotonic() + 120
    while (not out.exists() or out.read_text().count("\n") < 6) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert proc.poll() is None, proc.communicate()
    os.killpg(proc.pid, signal.SIGINT)       # what Ctrl-C does: the whole group
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    played = out.read_text().count("\n")
    assert f"{played} games (2 players)" in stdout and "greedy" in stdout
    command = "coexist-ai " + shlex.join(map(str, args))
    assert f"interrupted after {played} games; they are in {out}: resume with\n  {command}" \
        in stderr


@pytest.mark.parametrize("command", [["duel"], ["tournament"], ["tournament", "run"],
                                     ["tournament", "ratings"], ["tournament", "export"],
                                     ["tournament", "report"]])
def test_every_tournament_command_has_help_with_an_example(command):
    proc = cli(*command, "--help")
    assert_ok(proc)
    assert "Example" in proc.stdout
    example = proc.stdout[proc.stdout.index("Example"):]
    assert f"coexist-ai {' '.join(command)}" in example or command == ["tournament"]


def test_an_external_bot_is_shown_under_its_protocol_name(tmp_path):
    out = tmp_path / "d.jsonl"
    spec = f"cmd:{shlex.join([sys.executable, str(ROOT / 'bots' / 'examples' / 'first_legal.py')])}"
    proc = cli("duel", spec, "greedy", "--games", 4, "--seed", 1, "--jobs", 1, "--quiet",
               "--out", out)
    assert_ok(proc)
    lines = proc.stdout.splitlines()
    head = next(k for k, line in enumerate(lines) if line.startswith("bot "))
    rows = [line.split()[0] for line in lines[head + 1:head + 3]]
    assert sorted(rows) == ["first-legal", "greedy"]
    assert f"first-legal: {spec}" in proc.stdout        # and what it stands for
    again = cli("tournament", "ratings", out)
    assert_ok(again)
    assert "first-legal" in again.stdout
