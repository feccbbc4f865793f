"""Rewrite the golden files of the rules engine: perft counts and playthroughs.

Run it from the repository root when a rule change is intended:

    cd /work/main && PYTHONPATH=. python tests/golden/regenerate.py          # rewrite all
    PYTHONPATH=. python tests/golden/regenerate.py --check                   # compare only
    PYTHONPATH=. python tests/golden/regenerate.py --only perft              # or playthroughs

then read the diff (`git diff tests/golden/`) before committing it: every
changed count or line is a change in what the engine plays.

What is written:

- `perft.json`: for several positions, the number of action sequences of each
  length 1..depth (perft). Positions are the initial positions of seeds 1..3 at
  2, 3 and 4 players, and mid-game positions reached by playing recorded moves
  (chosen with `random.Random(moves_seed).choice(sorted(legal_moves()))`).
  Chance is not branched: a refill of the Mission board reveals the next cards
  of the real draw pile of the fixed deal, so the counts hold for that deal
  only. A game that ends before `depth` contributes its shorter sequences to
  the earlier depths and none to the later ones (as in chess perft). Each
  position also records `deal_sha256` (the faunas and the whole dealt card
  order, by card id) and the `public_hash` after the deal and at the position,
  so that a changed deal fails differently from a changed rule. The depth is
  the largest (up to MAX_DEPTH) whose perft expands at most NODE_BUDGET
  positions, so the test stays fast whatever the branching factor.
- `playthrough-{2,3,4}p.txt`: a seeded random game to its end, one line per
  action (index, seat, decision, move, and the supply, tracks and scores
  after it), then the score breakdown and the ranks.

The tests (tests/test_perft.py, tests/test_playthroughs.py) import this file
to compute the same things in memory and compare.
"""
import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

from coexist_ai._engine import State
from coexist_ai.cards import default_card_set

GOLDEN = Path(__file__).resolve().parent
PERFT_FILE = GOLDEN / "perft.json"
MAX_DEPTH = 16
NODE_BUDGET = 400_000

# (players, deal seed, moves played, moves seed) of the mid-game positions
MID_GAME = [
    (2, 11, 60, 11),
    (2, 12, 150, 12),
    (3, 13, 90, 13),
    (3, 14, 220, 14),
    (4, 15, 120, 15),
    (4, 16, 330, 16),
]

# players -> (deal seed, first player) of the golden playthroughs
PLAYTHROUGHS = {2: (101, 0), 3: (102, 1), 4: (103, 3)}


# ---- perft -------------------------------------------------------------------

def perft(state, depth):
    """Counts of action sequences of length 1..depth from `state` (chance is
    the fixed deal), and the number of positions whose moves were generated."""
    counts = [0] * (depth + 1)
    expanded = 0

    def walk(s, d):
        nonlocal expanded
        expanded += 1
        legal = s.legal_actions()
        if d + 1 == depth:            # bulk count the last ply
            counts[depth] += len(legal)
            return
        counts[d + 1] += len(legal)
        for a in legal:
            child = s.copy()
            child.apply_unchecked(a)
            if not child.is_over():
                walk(child, d + 1)

    if depth > 0 and not state.is_over():
        walk(state, 0)
    return counts[1:], expanded


def deal_sha256(state):
    """The whole deal (faunas, Mission board, draw order) as a digest of card
    ids: independent of the state's memory layout."""
    cs = state.card_set
    raw = state._referee_raw()
    faunas = [json.loads(state.to_json())["seats"][p]["fauna"]
              for p in range(state.num_players)]
    mission = [cs.cards[c].id for c in raw["mission"][:raw["n_mission"]]]
    pile = [cs.cards[c].id for c in state.referee_draw_pile()]
    text = " ".join(faunas) + "|" + " ".join(mission) + "|" + " ".join(pile)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def hex_hash(value):
    return f"{value:016x}"


def choose_move(state, rng):
    """The seeded random move of the golden files: by notation, so that a new
    order of the legal list (not a rule change) changes nothing."""
    return rng.choice(sorted(state.legal_moves()))


def perft_positions():
    """(name, spec) of every perft position, spec without the results."""
    specs = []
    for players in (2, 3, 4):
        for seed in (1, 2, 3):
            specs.append({"name": f"initial-{players}p-seed{seed}", "players": players,
                          "seed": seed, "first_player": 0, "moves_seed": None,
                          "n_moves": 0})
    for players, seed, n_moves, moves_seed in MID_GAME:
        specs.append({"name": f"mid-{players}p-seed{seed}-after{n_moves}",
                      "players": players, "seed": seed, "first_player": 0,
                      "moves_seed": moves_seed, "n_moves": n_moves})
    return specs


def deal(spec):
    return State.new(players=spec["players"], seed=spec["seed"],
                     first_player=spec["first_player"])


def play_recorded(state, moves):
    for move in moves:
        state.push(move)
    return state


def perft_entry(spec):
    """A position's full golden record: spec, deal identity, moves, counts."""
    start = deal(spec)
    entry = dict(spec)
    entry["faunas"] = [s["fauna"] for s in json.loads(start.to_json())["seats"]]
    entry["deal_sha256"] = deal_sha256(start)
    entry["deal_public_hash"] = hex_hash(start.public_hash())
    state = start.copy()
    moves = []
    if spec["moves_seed"] is not None:
        rng = random.Random(spec["moves_seed"])
        for _ in range(spec["n_moves"]):
            move = choose_move(state, rng)
            state.push(move)
            moves.append(move)
        if state.is_over():
            raise SystemExit(f"{spec['name']}: the game is over, choose fewer moves")
    entry["moves"] = moves
    entry["public_hash"] = hex_hash(state.public_hash())
    entry["phase"] = state.phase
    depth = 1
    while depth < MAX_DEPTH:
        _, expanded = perft(state, depth + 1)
        if expanded > NODE_BUDGET:
            break
        depth += 1
    entry["depth"] = depth
    entry["counts"], _ = perft(state, depth)
    return entry


def perft_document():
    cs = default_card_set()
    return {
        "about": "perft counts of the rules engine; rewrite with "
                 "tests/golden/regenerate.py (see its docstring)",
        "card_set": {"name": cs.name, "sha256": cs.sha256},
        "positions": [perft_entry(spec) for spec in perft_positions()],
    }


def perft_text(doc):
    return json.dumps(doc, indent=1) + "\n"


# ---- playthroughs ------------------------------------------------------------

def playthrough_file(players):
    return GOLDEN / f"playthrough-{players}p.txt"


def _digest(state):
    supply = json.loads(state.to_json())["supply"]
    raw = state._referee_raw()
    tracks = "/".join(str(raw["players"][p]["track"]) for p in range(state.num_players))
    scores = "/".join(str(v) for v in state.scores())
    return (f"supply {' '.join(f'{c}{n}' for c, n in supply.items())} "
            f"| pile {state.draw_pile_size()} | track {tracks} | score {scores}")


def playthrough_lines(players):
    """The golden playthrough of a player count, as a list of lines."""
    seed, first = PLAYTHROUGHS[players]
    cs = default_card_set()
    state = State.new(players=players, seed=seed, first_player=first)
    faunas = [s["fauna"] for s in json.loads(state.to_json())["seats"]]
    lines = [
        "# coexist-ai golden playthrough: written by tests/golden/regenerate.py, do not edit",
        f"card_set {cs.name} sha256 {cs.sha256}",
        f"players {players}",
        f"faunas {' '.join(faunas)}",
        f"first_player {first}",
        f"seed {seed}",
        f"deal State.new(players={players}, seed={seed}, first_player={first}); "
        f"moves random.Random({seed}).choice(sorted(legal_moves()))",
        f"start {_digest(state)}",
    ]
    rng = random.Random(seed)
    index = 0
    while not state.is_over():
        seat, phase = state.current_player, state.phase
        move = choose_move(state, rng)
        state.push(move)
        lines.append(f"{index:04d} s{seat} {phase:<7} {move:<44} {_digest(state)}")
        index += 1
    lines.append(f"over after {index} actions, {state.rounds} rounds, "
                 f"end_triggered {state.end_triggered}")
    ranks = state.ranks()
    raw = state._referee_raw()
    for p, part in enumerate(state.score_breakdown()):
        lines.append(f"seat {p} {faunas[p]:<8} conservation {part.conservation} "
                     f"reputation {part.reputation} specialty {part.specialty} "
                     f"total {part.total} track {raw['players'][p]['track']} "
                     f"rank {ranks[p]}")
    lines.append(f"ranks {' '.join(str(r) for r in ranks)}")
    return lines


def playthrough_text(players):
    return "\n".join(playthrough_lines(players)) + "\n"


# ---- command line ------------------------------------------------------------

def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="compare with the files on disk; write nothing")
    parser.add_argument("--only", choices=("perft", "playthroughs"))
    args = parser.parse_args(argv)
    outputs = {}
    if args.only in (None, "playthroughs"):
        for players in PLAYTHROUGHS:
            outputs[playthrough_file(players)] = playthrough_text(players)
    if args.only in (None, "perft"):
        outputs[PERFT_FILE] = perft_text(perft_document())
    stale = []
    for path, text in outputs.items():
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old == text:
            print(f"unchanged {path.name}")
            continue
        stale.append(path)
        if not args.check:
            path.write_text(text, encoding="utf-8")
            print(f"wrote     {path.name}")
        else:
            print(f"differs   {path.name}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
