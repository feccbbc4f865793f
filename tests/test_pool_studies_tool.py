"""tools/pool_studies.py, run as a process on real studies' records: the
pooled games and wins are the sum of the studies' own, a game held by two
files counts once, and a file of another card set is refused."""
import json
import re
import subprocess
import sys

import pytest

from cli_process import ROOT, assert_ok, cli, package_env

SCRIPT = str(ROOT / "tools" / "pool_studies.py")
SHARE = re.compile(r"^   [ *](\w+) +([\d.]+) \[[\d.]+, [\d.]+\] +of (\d+) games")


def pool(*args):
    return subprocess.run([sys.executable, SCRIPT, *map(str, args)], cwd=ROOT,
                          env=package_env(), capture_output=True, text=True, timeout=120)


def study(folder, cards, seed, bot="greedy"):
    assert_ok(cli("balance", cards, "--players", "2", "--games", "10", "--bot", bot,
                  "--jobs", "1", "--seed", str(seed), "--out", folder, "--quiet"))
    return folder / "games-2p.jsonl"


@pytest.fixture(scope="module")
def studies(tmp_path_factory):
    root = tmp_path_factory.mktemp("pool")
    return [study(root / f"s{seed}", "reconstructed-v5", seed) for seed in (7, 8)]


def shares(stdout):
    """{fauna: (share %, games)} of the pooled text."""
    rows = [SHARE.match(line) for line in stdout.splitlines()]
    return {row[1]: (float(row[2]), int(row[3])) for row in rows if row}


def wins_of(records):
    report = json.loads((records.parent / "report.json").read_text())["counts"][0]
    return {s["fauna"]: (s["wins"], s["games"]) for s in report["specialties"]}


def test_the_pool_adds_the_studies_games_and_wins(studies):
    done = pool("reconstructed-v5", *studies)
    assert done.returncode == 0, done.stderr
    assert "2 players, 20 games" in done.stdout
    assert "every seat played by 'greedy'" in done.stdout
    pooled = shares(done.stdout)
    first, second = (wins_of(records) for records in studies)
    assert set(pooled) == {"forest", "air", "sea", "savannah"}
    for fauna, (share, games) in pooled.items():
        wins = first[fauna][0] + second[fauna][0]
        assert games == first[fauna][1] + second[fauna][1]
        assert share == pytest.approx(100 * wins / games, abs=0.05)


def test_a_game_in_two_files_counts_once(studies, tmp_path):
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes(studies[0].read_bytes())
    done = pool("reconstructed-v5", studies[0], copy, studies[1])
    assert done.returncode == 0, done.stderr
    assert "2 players, 20 games" in done.stdout


def test_records_of_another_card_set_are_refused_by_name(studies, tmp_path):
    other = study(tmp_path / "v4", "reconstructed-v4", 7)
    done = pool("reconstructed-v5", studies[0], other)
    assert done.returncode == 1
    assert "played on card set 'reconstructed-v4'" in done.stderr
    assert "Traceback" not in done.stderr
    missing = pool("reconstructed-v5", tmp_path / "none.jsonl")
    assert missing.returncode == 1 and "none.jsonl" in missing.stderr


def test_studies_of_different_bots_are_named_with_their_games(studies, tmp_path):
    weak = study(tmp_path / "random", "reconstructed-v5", 9, bot="random")
    done = pool("reconstructed-v5", studies[0], weak)
    assert done.returncode == 0, done.stderr
    assert "played by different bots" in done.stdout
    assert "'greedy' 10 games" in done.stdout and "'random' 10 games" in done.stdout
