"""The real `coexist-ai` command, run in a subprocess as a user runs it.

Subprocesses import the same coexist_ai package as the tests: the installed
one in CI, the in-place build in a developer's tree. `PACKAGE_HOME` (the
folder holding that package) goes first on PYTHONPATH, and `-P` keeps the
working directory off sys.path, so a source checkout without its compiled
module never shadows the installed package. The command is the same `run()`
entry point the console script calls, so exit codes and error formatting are
the installed ones.
"""
import contextlib
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import coexist_ai

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_HOME = str(Path(coexist_ai.__file__).resolve().parent.parent)
PYTHON = [sys.executable, "-P"]
ENTRY = "from coexist_ai.cli import run; run()"


def package_env(**extra):
    """The environment for a subprocess that imports the tested package."""
    path = os.environ.get("PYTHONPATH")
    return dict(os.environ, PYTHONPATH=PACKAGE_HOME + (os.pathsep + path if path else ""),
                **extra)


def cli_env():
    return package_env()


def cli_argv(*args):
    return [*PYTHON, "-c", ENTRY, *map(str, args)]


def child_setup(max_memory):
    """A preexec_fn capping the address space at `max_memory` bytes (None:
    no cap), for commands that would eat the machine's memory if a bug
    came back. It also gives the command Ctrl-C as a terminal does (the
    default SIGINT): a suite started in the background (nohup, `&` in a
    script) passes SIGINT ignored to its children, and the tests of Ctrl-C
    would then see a command that cannot be interrupted."""
    def prepare():
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if max_memory:
            resource.setrlimit(resource.RLIMIT_AS, (max_memory, max_memory))
    return prepare


def cli(*args, timeout=120, max_memory=None):
    """Run one command to its end; returns the CompletedProcess (text)."""
    return subprocess.run(cli_argv(*args), cwd=ROOT, env=cli_env(), capture_output=True,
                          stdin=subprocess.DEVNULL,
                          text=True, timeout=timeout, preexec_fn=child_setup(max_memory))


def start_cli(*args, max_memory=None):
    """Start a command without waiting (for killing it mid-run)."""
    return subprocess.Popen(cli_argv(*args), cwd=ROOT, env=cli_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            preexec_fn=child_setup(max_memory))


def lines_of(path):
    return path.read_bytes().count(b"\n") if path.exists() else 0


def wait_for_records(proc, path, count, seconds=60):
    """Wait until `path` holds `count` complete lines while `proc` runs
    (fails if it ends first, or after `seconds`: a guard, not a measure)."""
    deadline = time.monotonic() + seconds
    while lines_of(path) < count:
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() < deadline, f"fewer than {count} records in {seconds} s"
        time.sleep(0.01)


@contextlib.contextmanager
def killed_at_exit(*args, max_memory=None):
    """A started command (see start_cli), SIGKILLed when the block ends."""
    proc = start_cli(*args, max_memory=max_memory)
    try:
        yield proc
    finally:
        proc.kill()
        proc.wait()
        proc.stderr.close()


def assert_ok(proc):
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr


def assert_clear_error(proc, *needles):
    """Exit code 2, no traceback, one error line naming what was wrong
    (ours read "error: ...", click's usage errors "Error: ...")."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [line for line in proc.stderr.splitlines()
             if line.startswith(("error:", "Error:"))]
    assert len(lines) == 1, proc.stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]
