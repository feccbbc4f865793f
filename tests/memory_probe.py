"""The memory of a tournament worker over a long run: the games of a duel
played one after another through the worker's own function, as a worker
process plays them, with the resident size (everything the process holds,
the compiled core's allocations included) taken after a warm-up and at the
end.

    python tests/memory_probe.py --games 20000 --cards FILE   (the README's figure)
"""
import argparse
import json
import os

from coexist_ai.schedule import Entrant
from coexist_ai.tournament import Tournament, _play_one

WARM_UP = 50        # games before the first measure (caches filled, code loaded)


def resident_bytes():
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


def memory_over_games(cards, games, specs=("random", "random")):
    """{games, rss_start, rss_end} (bytes) of `games` games of a duel
    between `specs` with the card set file `cards`."""
    t = Tournament("memory", [Entrant(f"{s}#{k}", s) for k, s in enumerate(specs)], 2,
                   "round-robin", -(-games // 2), 1, cards=str(cards))
    figures = {"games": games}
    for k, game in enumerate(t.schedule.games()):
        if k == games:
            break
        if k == WARM_UP:
            figures["rss_start"] = resident_bytes()
        specs_of_game = [t.entrants[i].spec for i in game.lineup]
        _play_one(str(cards), 2, game, specs_of_game, t.meta(game), t.card_set.sha256)
    figures["rss_end"] = resident_bytes()
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--cards", required=True)
    args = parser.parse_args()
    print(json.dumps(memory_over_games(args.cards, args.games)))


if __name__ == "__main__":
    main()
