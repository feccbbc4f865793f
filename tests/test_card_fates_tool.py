"""tools/card_fates.py, run as a process on a real study's records: the
places it splits a card's games into must add up to the study's games, and
the specialty's wins over those places to the specialty's wins the study
reports."""
import json
import re
import subprocess
import sys

import pytest

from cli_process import ROOT, assert_ok, cli, package_env

SCRIPT = str(ROOT / "tools" / "card_fates.py")
LINE = re.compile(r"^  (\S+(?: of \S+)?) +(\d+) +([\d.]+)% +([\d.]+) \[")


def fates(*args):
    return subprocess.run([sys.executable, SCRIPT, *map(str, args)], cwd=ROOT,
                          env=package_env(), capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    out = tmp_path_factory.mktemp("fates") / "v4"
    assert_ok(cli("balance", "reconstructed-v4", "--players", "4", "--games", "12",
                  "--bot", "greedy", "--jobs", "1", "--seed", "7", "--out", out, "--quiet"))
    return out


def test_the_places_add_up_to_the_study_and_its_specialty_wins(study):
    done = fates("reconstructed-v4", study / "games-4p.jsonl", "forest-brown-bear", "sea")
    assert done.returncode == 0, done.stderr
    rows = [LINE.match(line) for line in done.stdout.splitlines()[1:]]
    assert rows and all(rows), done.stdout
    games = sum(int(row[2]) for row in rows)
    sea_wins = sum(int(row[2]) * float(row[4]) / 100 for row in rows)
    report = json.loads((study / "report.json").read_text())["counts"][0]
    sea = next(s for s in report["specialties"] if s["fauna"] == "sea")
    assert games == report["games"] == 12
    assert sea_wins == pytest.approx(sea["wins"], abs=0.01)
    places = {row[1] for row in rows}
    assert places <= {"released", "protected", "discarded", "deck", "mission", "out",
                      "board of forest", "board of air", "board of sea", "board of savannah"}


def test_a_card_or_specialty_that_is_not_there_is_one_clear_error(study):
    records = study / "games-4p.jsonl"
    for args, needle in (((records, "forest-grizzly", "sea"), "no animal 'forest-grizzly'"),
                         ((records, "forest-brown-bear", "desert"), "one of forest, air"),
                         ((study / "none.jsonl", "forest-brown-bear", "sea"), "none.jsonl")):
        done = fates("reconstructed-v4", *args)
        assert done.returncode == 1
        assert needle in done.stderr
        assert "Traceback" not in done.stderr
