"""tools/build-baseline.sh refuses what it cannot build with one error line
and exit status 2, before building anything (a whole build, a minute of
compiling, is run by hand: README, "Measuring a change")."""
import subprocess

from cli_process import ROOT

SCRIPT = str(ROOT / "tools" / "build-baseline.sh")


def run(*args):
    return subprocess.run(["bash", SCRIPT, *map(str, args)], capture_output=True,
                          text=True, timeout=60)


def test_it_needs_a_commit_and_a_new_folder(tmp_path):
    usage = run("HEAD")
    assert usage.returncode == 2 and "usage:" in usage.stderr
    taken = run("HEAD", tmp_path)
    assert taken.returncode == 2 and f"error: {tmp_path} exists" in taken.stderr
    bad = run("no-such-commit", tmp_path / "new")
    assert bad.returncode == 2 and "error: no-such-commit is not a commit" in bad.stderr
    assert not (tmp_path / "new").exists()
