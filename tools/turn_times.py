"""Seconds each bot of a records file took per turn (all the decisions of a
turn together: what a person waits), as the web and terminal games show
them.

    python tools/turn_times.py RECORDS.jsonl
"""
import json
import statistics
import sys

from coexist_ai.play.gamefile import turn_runs


def turn_times(record):
    """(spec, seconds) of every turn: a run of one seat's moves."""
    return [(record["bots"][seat]["spec"], seconds)
            for seat, _, seconds in turn_runs(record)]


def main(path):
    per_spec = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            for spec, seconds in turn_times(json.loads(line)):
                per_spec.setdefault(spec, []).append(seconds)
    for spec, times in per_spec.items():
        times.sort()
        print(f"{spec}: {len(times)} turns, mean {statistics.mean(times):.2f} s, "
              f"median {statistics.median(times):.2f} s, 90th percentile "
              f"{times[int(0.9 * (len(times) - 1))]:.2f} s, longest {times[-1]:.2f} s")


if __name__ == "__main__":
    main(sys.argv[1])
