#!/usr/bin/env python3
"""Where one card ends its games, and how one specialty does in each case.

    python tools/card_fates.py CARDS RECORDS CARD FAUNA

CARDS is a card-set name or file, RECORDS the games file of a balance study
(DIR/games-<P>p.jsonl), CARD an animal's id, FAUNA a specialty. One line a
place the card ends in (released, protected, discarded, still in the draw
pile, on the Mission board, on a board, split by the specialty of the seat
holding it, or out: its fauna's deck was not dealt), with the games, their
share, and the share FAUNA wins of them (with its 95% interval). The balance report counts a card's places; this
says which of them pays a specialty -- for example the sea seat, which
scores the best animal left on any board.
"""

from __future__ import annotations

import json
import sys
from collections import Counter

from coexist_ai.balance.facts import game_facts
from coexist_ai.balance.intervals import wilson
from coexist_ai.cards import FAUNAS, resolve_card_set
from coexist_ai.errors import CoexistError


def place_of(facts, card_index: int) -> str:
    fate, seat = facts.fates[card_index]
    return f"{fate} of {facts.faunas[seat]}" if fate == "board" else fate


def tally(card_set, lines, card_id: str, fauna: str):
    """(games, Counter of places, Counter of FAUNA's wins by place)."""
    ids = [card.id for card in card_set.animals()]
    if card_id not in ids:
        raise CoexistError(f"no animal {card_id!r} in card set {card_set.name!r}")
    index, games = ids.index(card_id), 0
    places, wins = Counter(), Counter()
    for line in lines:
        record = json.loads(line)
        if "scores" not in record or fauna not in record["faunas"]:
            continue    # a forfeit, or a game that did not seat FAUNA
        facts = game_facts(record, card_set)
        place = place_of(facts, index)
        games += 1
        places[place] += 1
        wins[place] += facts.wins[facts.faunas.index(fauna)]
    return games, places, wins


def main(argv: list[str]) -> int:
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    cards, path, card_id, fauna = argv[1:]
    try:
        if fauna not in FAUNAS:
            raise CoexistError(f"no specialty {fauna!r}; one of {', '.join(FAUNAS)}")
        with open(path, encoding="utf-8") as lines:
            games, places, wins = tally(resolve_card_set(cards), lines, card_id, fauna)
    except (OSError, json.JSONDecodeError, CoexistError) as error:
        print(f"card_fates: {error}", file=sys.stderr)
        return 1
    print(f"{card_id} in {games} games seating {fauna}: place, games, share, {fauna} wins %")
    for place, count in places.most_common():
        low, high = wilson(wins[place], count)
        print(f"  {place:<22} {count:6d} {100 * count / games:5.1f}%   "
              f"{100 * wins[place] / count:5.1f} [{100 * low:.1f}, {100 * high:.1f}]")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
