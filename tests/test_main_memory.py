"""The main process of a long run, and `tournament ratings` on a long
records file, keep the figures of the games, never their records: a
random-vs-random record is about 59 KB of Python objects (its moves and
times), the statistics the ratings need about 240 bytes a game (the
pairwise results and content hash of each deal's games), so memory is
bounded by the deals, not by every game's moves.

Figures of a 20,000-game duel: tests/main_memory_probe.py and the README.
"""
import json
import os
import subprocess
import sys
import tracemalloc

from coexist_ai.schedule import Entrant
from coexist_ai.tournament import Tournament, run
from cli_process import ROOT, assert_ok, cli, cli_argv, cli_env

RANDOM_DUEL = [Entrant("random#1", "random"), Entrant("random#2", "random")]
# Measured over 2,000 games (two runs): the lowest traced size grew 233 and
# 244 bytes a game, kept records 59,232. A quarter of a record's kilobyte
# would be 4 times what the statistics take: any record kept, or any list
# growing by a game's worth of its fields, crosses it.
BYTES_A_GAME = 1024


def test_a_long_runs_main_process_keeps_no_record():
    """Regression: Standings kept every record (59 KB a random game: 59 GB
    for a million games). The traced size of the main process (the games
    are played by two workers) is taken after every game; its lowest over
    games 500-1000 and over the last 500 are compared, as the records of a
    chunk of games in flight (up to 64, 3.8 MB) come and go in between."""
    games = 3000
    t = Tournament("memory", RANDOM_DUEL, 2, "round-robin", games // 2, seed=1)
    traced = []

    def sample(_standings):
        traced.append(tracemalloc.get_traced_memory()[0])
        return False

    tracemalloc.start()
    try:
        run(t, None, jobs=2, progress=False, stop_rule=sample, echo=lambda _: None)
    finally:
        tracemalloc.stop()
    assert len(traced) == games
    growth = min(traced[-500:]) - min(traced[500:1000])
    assert growth < BYTES_A_GAME * (games - 1000), growth


# The peak of a command, reported by a small process that starts it: a
# process's peak counts the memory of the process it was forked from (Linux
# keeps the high-water mark across exec), here pytest's, not the command's.
PEAK_OF_CHILD = ("import resource, subprocess, sys; "
                 "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode; "
                 "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); "
                 "sys.exit(code)")


def peak_mib(*args):
    """Run a command; its own peak resident size."""
    proc = subprocess.run([sys.executable, "-c", PEAK_OF_CHILD, *cli_argv(*args)], cwd=ROOT,
                          env=cli_env(), stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return int(proc.stdout) / 1024


def copies(lines, times, path):
    """`times` copies of a duel's records, each game a new one of the same
    run (its index shifted), so the deals and the bots stay the same."""
    with open(path, "w") as f:
        for k in range(times):
            for line in lines:
                record = json.loads(line)
                record["game"] += k * len(lines)
                f.write(json.dumps(record, separators=(",", ":")) + "\n")


def test_ratings_on_a_long_file_reads_it_a_line_at_a_time(tmp_path):
    """Regression: `tournament ratings` read the whole file into memory
    (the ratings of a 172 MB file of 20,000 games peaked at 1.8 GB). Four
    times the games of the same deals: the peak does not move by a tenth
    of the records added (6,000 games, 52 MB of lines, 350 MB as objects;
    their statistics: 0.3 MB)."""
    played = tmp_path / "duel.jsonl"
    assert_ok(cli("duel", "random", "random", "--games", 200, "--seed", 1, "--jobs", 1,
                  "--quiet", "--out", played))
    lines = played.read_text().splitlines()
    small, large = tmp_path / "small.jsonl", tmp_path / "large.jsonl"
    copies(lines, 10, small)
    copies(lines, 40, large)
    added = (os.path.getsize(large) - os.path.getsize(small)) / 2**20
    growth = peak_mib("tournament", "ratings", large) - peak_mib("tournament", "ratings", small)
    assert growth < added / 10, (growth, added)
