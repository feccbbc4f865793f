"""Many games against external bots, watching what this process holds.

    python tests/soak_external.py [--games 2000]

Each game is a real game (play_game, as a tournament plays it) of an
external bot against the random bot; the external bot alternates between
bots/examples/first_legal.py and tests/protocol_spawning_bot.py, which
leaves a setsid child and a double-forked daemon behind. After every game
the script takes a snapshot: open descriptors (/proc/self/fd), threads,
resident memory (VmRSS), and live processes that are ours (descendants of
this process, or carrying the spawning bot's marker). The test suite runs a
shorter soak (tests/test_protocol_resources.py) with the same code; the
README quotes this script's figures. Not a test module.
"""
import argparse
import os
import shlex
import sys
import threading
import time

from coexist_ai.bots import make_bot
from coexist_ai.cards import default_card_set
from coexist_ai.match import play_game

HERE = os.path.dirname(os.path.abspath(__file__))
FIRST_LEGAL = os.path.join(os.path.dirname(HERE), "bots", "examples", "first_legal.py")
SPAWNING = os.path.join(HERE, "protocol_spawning_bot.py")


def bot_specs(marker):
    return ["cmd:" + shlex.join([sys.executable, FIRST_LEGAL]),
            "cmd:" + shlex.join([sys.executable, SPAWNING, marker])]


def snapshot(marker, before=()):
    """What this process holds now; `processes` leaves out those in `before`
    (a test suite's own helpers, such as multiprocessing's resource tracker)."""
    return {"fds": len(os.listdir("/proc/self/fd")), "threads": threading.active_count(),
            "rss_kb": _rss_kb(), "processes": len(set(live_processes(marker)) - set(before))}


def _rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


def live_processes(marker):
    """Live (not zombie) processes below this one, or naming `marker`."""
    table = _process_table()
    me = os.getpid()
    below = set()
    for pid in table:
        p = pid
        while p in table and p != me:
            p = table[p][0]
            if p == me:
                below.add(pid)
    return sorted(below | set(marked_processes(marker, table)))


def marked_processes(marker, table=None):
    """Live processes with `marker` on their command line."""
    table = table or _process_table()
    return sorted(pid for pid, (_, cmdline) in table.items() if marker.encode() in cmdline)


def _process_table():
    """{pid: (parent pid, command line)} of every live process."""
    table = {}
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                state, parent = f.read().rsplit(b")", 1)[1].split()[:2]
            with open(f"/proc/{name}/cmdline", "rb") as f:
                cmdline = f.read()
        except (OSError, ValueError):
            continue
        if state != b"Z":
            table[int(name)] = (int(parent), cmdline)
    return table


def play_games(games, marker, on_game):
    """`games` games of the external bots in turn against random;
    on_game(index, record, snapshot) after each."""
    card_set = default_card_set()
    specs = bot_specs(marker)
    before = live_processes(marker)
    for game in range(games):
        spec = specs[game % len(specs)]
        bots = [make_bot(spec, game), make_bot("random", game + 1)]
        try:
            record = play_game(card_set, 2, game, bots, [spec, "random"], [game, game + 1])
        finally:
            for bot in bots:
                bot.close()
        on_game(game, record, snapshot(marker, before))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--warm-up", type=int, default=50)
    args = parser.parse_args()
    marker = f"coexist-soak-{os.getpid()}"
    start = time.monotonic()
    print(f"{'games':>6} {'fds':>4} {'threads':>7} {'rss KB':>8} {'procs':>5} {'s':>6}")
    seen = {"fds": set(), "threads": set(), "processes": set(), "rss_kb": []}

    def report(game, record, snap):
        assert record["end"] == "normal", record["forfeits"]
        for key in ("fds", "threads", "processes"):     # sets: no memory kept per game
            seen[key].add(snap[key])
        if game + 1 == args.warm_up or game + 1 == args.games:
            seen["rss_kb"].append(snap["rss_kb"])
        if (game + 1) % max(1, args.games // 20) == 0 or game == 0:
            print(f"{game + 1:>6} {snap['fds']:>4} {snap['threads']:>7} {snap['rss_kb']:>8} "
                  f"{snap['processes']:>5} {time.monotonic() - start:>6.1f}", flush=True)

    play_games(args.games, marker, report)
    warm, last = seen["rss_kb"][0], seen["rss_kb"][-1]
    print(f"rss after game {args.warm_up}: {warm} KB, after game {args.games}: {last} KB "
          f"({last - warm:+d} KB); fds {sorted(seen['fds'])}, threads "
          f"{sorted(seen['threads'])}, processes {sorted(seen['processes'])}; "
          f"{(time.monotonic() - start) / args.games * 1000:.0f} ms a game")


if __name__ == "__main__":
    main()
