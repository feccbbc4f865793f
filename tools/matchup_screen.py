#!/usr/bin/env python3
"""Play one 2-player matchup of a card set, for balance pilots: how the
balance screens ranked levers on a single pairing of specialties.

    python tools/matchup_screen.py CARDS FAUNA_A FAUNA_B --games N \
        [--bot SPEC] [--seed S] --out FILE.jsonl

A balance study (`coexist-ai balance`) draws the two faunas of every deal,
so a pairing it finds lopsided gets a sixth of its games; this plays only
that pairing, six times the games for the same time. Game i seats FAUNA_A
first when i is even and FAUNA_B first when it is odd (seat 0 always
starts), and its deal and bot seeds come from random.Random(SEED + i)
alone: two card sets screened with the same seed play the same deals as
far as their cards allow (seeds of separate screens further apart than
their games keep their deals apart). One JSON line a game (faunas by seat, ranks, score breakdowns);
rerunning the same command resumes. The summary (FAUNA_A's share with a
95% Wilson interval, each fauna's mean conservation / reputation /
specialty points) is printed at the end.

The same lines as a study's: not a replacement for one. A lever that moves
a pairing is confirmed by a full `coexist-ai balance` study.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys

from coexist_ai import _engine
from coexist_ai.balance.intervals import wilson
from coexist_ai.bots.spec import make_bot
from coexist_ai.cards import resolve_card_set


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cards", help="a packaged set's name or a TOML file")
    parser.add_argument("fauna_a")
    parser.add_argument("fauna_b")
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--bot", default="ismcts:iterations=1000,policy=light")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--out", required=True, help="the records (JSON lines; resumed)")
    return parser.parse_args()


def played(path: str) -> list[dict]:
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def play_one(card_set, faunas: list[str], bot: str, seed: int, index: int) -> dict:
    rng = random.Random(seed + index)
    state = _engine.State.new(card_set, players=2, faunas=faunas, first_player=0,
                              seed=rng.randrange(2**31))
    bots = [make_bot(bot, seed=rng.randrange(2**31)) for _ in faunas]
    for seat, player in enumerate(bots):
        player.new_game(seat, 2)
    while not state.is_over():
        seat = state.current_player
        action = bots[seat].choose(state.observation(seat))
        if not state.is_legal(action):
            raise SystemExit(f"error: game {index}: {bot} chose an illegal move")
        state.apply_unchecked(action)
    return {"game": index, "faunas": faunas, "ranks": state.ranks(),
            "scores": [list(parts) for parts in state.score_breakdown()]}


def summary(records: list[dict], fauna_a: str) -> str:
    won = 0.0
    parts: dict[str, list[list[int]]] = {}
    for record in records:
        a = record["faunas"].index(fauna_a)
        ours, theirs = record["ranks"][a], record["ranks"][1 - a]
        won += 1.0 if ours < theirs else 0.5 if ours == theirs else 0.0
        for seat, fauna in enumerate(record["faunas"]):
            parts.setdefault(fauna, []).append(record["scores"][seat])
    low, high = wilson(won, len(records))
    means = "; ".join(f"{fauna} " + " / ".join(
        f"{sum(s[k] for s in scores) / len(scores):.1f}" for k in range(3))
        for fauna, scores in parts.items())
    return (f"{len(records)} games: {fauna_a} won {100 * won / len(records):.1f}% "
            f"[{100 * low:.1f}, {100 * high:.1f}]; points (conservation / reputation / "
            f"specialty): {means}")


def main() -> None:
    args = arguments()
    card_set = resolve_card_set(args.cards)
    if {args.fauna_a, args.fauna_b} - set(card_set.faunas()) or args.fauna_a == args.fauna_b:
        raise SystemExit(f"error: two different faunas of {', '.join(card_set.faunas())}")
    records = played(args.out)
    with open(args.out, "a", encoding="utf-8") as out:
        for index in range(len(records), args.games):
            faunas = [args.fauna_a, args.fauna_b][::1 if index % 2 == 0 else -1]
            record = play_one(card_set, faunas, args.bot, args.seed, index)
            out.write(json.dumps(record) + "\n")
            out.flush()
            records.append(record)
    if not records:
        raise SystemExit("error: no games played (--games 0)")
    print(summary(records[:args.games], args.fauna_a))


if __name__ == "__main__":
    sys.exit(main())
