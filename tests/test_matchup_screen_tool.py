"""tools/matchup_screen.py, run as a process: the balance pilots that rank
levers on one pairing of specialties are played by it, so its games must
seat the pairing as it says, replay from the seed and resume from the file."""
import json
import subprocess
import sys

from cli_process import ROOT

SCRIPT = str(ROOT / "tools" / "matchup_screen.py")


def screen(out, games, *extra):
    return subprocess.run([sys.executable, SCRIPT, "reconstructed-v4", "air", "savannah",
                           "--games", str(games), "--bot", "greedy", "--out", str(out), *extra],
                          capture_output=True, text=True, timeout=120)


def records(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_the_pairing_alternates_first_seat_and_the_summary_counts_the_games(tmp_path):
    out = tmp_path / "a.jsonl"
    done = screen(out, 4)
    assert done.returncode == 0, done.stderr
    games = records(out)
    assert [g["faunas"] for g in games] == [["air", "savannah"], ["savannah", "air"]] * 2
    assert all(sorted(g["ranks"]) in ([1, 2], [1, 1]) for g in games)
    air_won = 0.0
    for game in games:
        air = game["faunas"].index("air")
        ours, theirs = game["ranks"][air], game["ranks"][1 - air]
        air_won += 1.0 if ours < theirs else 0.5 if ours == theirs else 0.0
    assert done.stdout.startswith(f"4 games: air won {100 * air_won / 4:.1f}% [")


def test_same_seed_same_games_and_a_rerun_resumes(tmp_path):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert screen(first, 2).returncode == 0
    assert screen(first, 4).returncode == 0
    assert screen(second, 4).returncode == 0
    assert records(first) == records(second)
    assert [g["game"] for g in records(first)] == [0, 1, 2, 3]
    other = tmp_path / "c.jsonl"
    assert screen(other, 4, "--seed", "5000").returncode == 0
    assert records(other) != records(first)


def test_a_fauna_outside_the_set_is_refused_without_a_traceback(tmp_path):
    done = subprocess.run([sys.executable, SCRIPT, "reconstructed-v4", "air", "desert",
                           "--games", "2", "--bot", "greedy", "--out", str(tmp_path / "x.jsonl")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "two different faunas of forest, air, sea, savannah" in done.stderr
    assert "Traceback" not in done.stderr
