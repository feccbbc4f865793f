"""The heuristic bot's choice at many positions, as digests: a change to the
speed of csrc/cx_greedy.c must not change one move.

    PYTHONPATH=. python tests/golden/greedy_choices.py           # rewrite
    PYTHONPATH=. python tests/golden/greedy_choices.py --check   # compare only
    ... greedy_choices.py --scale 20 --out /tmp/old.json  # 20x the games, elsewhere

Rewrite it only when greedy's moves are meant to change (its evaluation in
csrc/cx_eval.c, its search, the rules or the move order), and say so in the
commit. Positions come from two kinds of seeded game on reconstructed-v1
(named, so that the default set can change without touching this file):

- greedy in every seat: the positions greedy itself leads to;
- uniformly random moves, greedy asked at every decision without playing
  its answer: positions greedy would never reach (long games past round 20,
  where its search widens), and at budgets of 20000, 200 and 3 positions
  (the budget running out mid-search).

Each run's digest is the sha256 of every (action, positions searched) pair
in order; the test (tests/test_greedy_choices.py) recomputes them.
"""
import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

from coexist_ai import _engine, _search
from coexist_ai.cards import packaged_card_set

GOLDEN = Path(__file__).resolve().parent / "greedy-choices.json"
CARD_SET = "reconstructed-v1"
# (kind, players, games, first deal seed, budget)
RUNS = [("selfplay", 2, 6, 500, 20000), ("selfplay", 3, 4, 600, 20000),
        ("selfplay", 4, 4, 700, 20000),
        ("random", 2, 2, 800, 20000), ("random", 4, 2, 900, 20000),
        ("random", 3, 2, 1000, 200), ("random", 4, 1, 1100, 3)]


def run_digest(kind, players, games, seed, budget):
    """(decisions, sha256) of greedy's choices over the run's positions."""
    cs = packaged_card_set(CARD_SET)
    digest, decisions = hashlib.sha256(), 0
    for game in range(games):
        state = _engine.State.new(cs, players=players, seed=seed + game)
        rng = random.Random(seed + game)
        while not state.is_over():
            action, searched = _search.greedy_choose(
                state.observation(state.current_player), budget)
            digest.update(f"{action},{searched};".encode())
            decisions += 1
            state.apply(action if kind == "selfplay" else rng.choice(state.legal_actions()))
    return decisions, digest.hexdigest()


def document(scale=1):
    runs = []
    for kind, players, games, seed, budget in RUNS:
        games *= scale
        decisions, sha = run_digest(kind, players, games, seed, budget)
        runs.append({"kind": kind, "players": players, "games": games, "seed": seed,
                     "budget": budget, "decisions": decisions, "sha256": sha})
    return {"about": "greedy's choices; rewrite with tests/golden/greedy_choices.py",
            "card_set": CARD_SET, "runs": runs}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    parser.add_argument("--scale", type=int, default=1, help="games times this")
    parser.add_argument("--out", type=Path, default=GOLDEN, help="the file to write or check")
    args = parser.parse_args()
    text = json.dumps(document(args.scale), indent=1) + "\n"
    if args.check:
        same = args.out.read_text() == text
        print("same" if same else "DIFFERENT")
        sys.exit(0 if same else 1)
    args.out.write_text(text)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
