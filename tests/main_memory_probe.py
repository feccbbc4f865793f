"""The memory of the main process of a long duel, of its resume and of
`tournament ratings` on its records: the real commands, random against
random, one job (the games are played in the main process too; a worker's
own memory is flat, see memory_probe.py).

The duel's resident size is read from /proc while it runs, when its
records file reaches each checkpoint (a game or two later, at most); the
peaks are each process's own high-water mark (wait4).

    python tests/main_memory_probe.py --games 20200 --out FILE   (the README's figures)
"""
import argparse
import json
import os
import subprocess
import sys
import time

from cli_process import ROOT, cli_argv, cli_env

CHECKPOINTS = (1000, 2000, 10000, 20000)
POLL = 0.01     # seconds between looks at the records file


def resident_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        line = next(line for line in f if line.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


def _start(*args):
    return subprocess.Popen(cli_argv(*args), cwd=ROOT, env=cli_env(), stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _peak_mib(proc):
    """Wait for the process; its own peak resident size."""
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{proc.args} failed: {status}")
    return usage.ru_maxrss / 1024


def duel_memory(games, out, checkpoints=CHECKPOINTS):
    """{checkpoint: MiB} while the duel runs, and its peak."""
    proc = _start("duel", "random", "random", "--games", games, "--jobs", 1, "--seed", 1,
                  "--out", out)
    seen, lines, offset = {}, 0, 0
    wanted = [c for c in checkpoints if c <= games]
    while wanted and proc.poll() is None:
        time.sleep(POLL)
        if not os.path.exists(out):
            continue
        with open(out, "rb") as f:
            f.seek(offset)
            block = f.read()
        offset += len(block)
        lines += block.count(b"\n")
        while wanted and lines >= wanted[0]:
            try:
                seen[wanted.pop(0)] = round(resident_mib(proc.pid), 1)
            except (FileNotFoundError, StopIteration):   # it ended just now
                pass
    return seen, round(_peak_mib(proc), 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20200)
    parser.add_argument("--out", required=True, help="A new records file.")
    args = parser.parse_args()
    if os.path.exists(args.out):
        sys.exit(f"{args.out} exists: give a new path")
    at, peak = duel_memory(args.games, args.out)
    figures = {"games": args.games, "duel_rss_mib_at_game": at, "duel_peak_mib": peak,
               "file_mib": round(os.path.getsize(args.out) / 2**20, 1)}
    figures["resume_peak_mib"] = round(_peak_mib(_start(
        "duel", "random", "random", "--games", args.games, "--jobs", 1, "--seed", 1,
        "--out", args.out)), 1)
    figures["ratings_peak_mib"] = round(_peak_mib(_start(
        "tournament", "ratings", args.out)), 1)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
