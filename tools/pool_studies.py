#!/usr/bin/env python3
"""The figures of several balance studies of one card set, pooled.

    python tools/pool_studies.py CARDS RECORDS [RECORDS ...]

CARDS is a card-set name or file, each RECORDS the games file of a balance
study (DIR/games-<P>p.jsonl) played on exactly that set. At 2 players one
seed's deals move a specialty's share by more than its interval says (the
pairings it deals differ), so a verdict at the margin wants several seeds
together: this prints, for each player count, the study text of all their
finished games at once (shares with intervals, seats, matchups, effects,
cards). A game is counted once even if two files hold it; a file of another
card set is refused, since its games say nothing about this one. The
bots that played are named with their games: studies played by bots of
different strength pool into figures of neither.
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from typing import Any

from coexist_ai.balance.stats import player_count_stats
from coexist_ai.balance.study import facts_of
from coexist_ai.balance.text import count_lines
from coexist_ai.cards import CardSet, resolve_card_set
from coexist_ai.errors import CoexistError
from coexist_ai.records import numbered_records


def pooled_records(card_set: CardSet, paths: list[str]) -> dict[int, list[dict[str, Any]]]:
    """Every distinct game of the files, by player count; refuses a file
    played on another card set."""
    by_count: dict[int, list[dict[str, Any]]] = defaultdict(list)
    seen = set()
    for path in paths:
        for number, record in numbered_records(path):
            played = record["card_set"]["sha256"]
            if played != card_set.sha256:
                raise CoexistError(f"{path}: line {number} was played on card set "
                                   f"{record['card_set']['name']!r} (sha256 {played[:16]}), "
                                   f"not on {card_set.name!r} (sha256 {card_set.sha256[:16]})")
            key = (record["run"], record["game"])
            if key not in seen:
                seen.add(key)
                by_count[record["players"]].append(record)
    return by_count


def bots_line(by_count: dict[int, list[dict[str, Any]]]) -> str:
    """Who played the pooled games: each bot line-up with its games."""
    lineups = Counter(" / ".join(dict.fromkeys(record["entrants"]))
                      for records in by_count.values() for record in records)
    if not lineups:
        return "no games in these files"
    if len(lineups) == 1:
        return f"every seat played by {next(iter(lineups))!r}"
    return ("played by different bots, whose figures mix: "
            + "; ".join(f"{bots!r} {games} games" for bots, games in lineups.most_common()))


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        card_set = resolve_card_set(argv[1])
        by_count = pooled_records(card_set, argv[2:])
    except (OSError, CoexistError) as error:
        print(f"pool_studies: {error}", file=sys.stderr)
        return 1
    print(f"card set {card_set.name!r}, sha256 {card_set.sha256[:16]}: "
          f"{len(argv) - 2} records files pooled")
    print(bots_line(by_count))
    for players, records in sorted(by_count.items()):
        facts, forfeits = facts_of(records, card_set)
        if facts:
            stats = dict(player_count_stats(facts, card_set), forfeits=forfeits)
            print("\n".join(count_lines(stats)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
