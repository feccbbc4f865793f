"""Near misses: the move a person probably meant.

Typed moves are read word by word (coexist_ai/play/moveinput.py): the typed
words line up with the move's words from the first, and each may be the
start of the move's word, of any tail of a card id's hyphen-separated parts
(`gazelle`, `thomsons-gazelle`) or of a word of the card's name (`pacific`
for Giant Pacific Octopus). Here a few typing mistakes are forgiven as well
(a letter missing, extra, wrong, or two letters swapped): one in a word of
3 to 5 letters, two in a longer word, none in a word of 1 or 2.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING

from coexist_ai.errors import NotationError
from coexist_ai.notation import COLOURS, WORDS, parse_move

if TYPE_CHECKING:
    from coexist_ai._engine import Position
    from coexist_ai.cards import Card, CardSet


def typos_allowed(word: str) -> int:
    return 0 if len(word) <= 2 else 1 if len(word) <= 5 else 2


def typo_distance(typed: str, word: str) -> int:
    """Letters to add, drop, change or swap (optimal string alignment) to
    turn `typed` into the closest start of `word`."""
    n, m = len(typed), len(word)
    rows = [list(range(m + 1))]
    for i in range(1, n + 1):
        row = [i] + [0] * m
        for j in range(1, m + 1):
            change = typed[i - 1] != word[j - 1]
            row[j] = min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + change)
            if (i > 1 and j > 1 and typed[i - 1] == word[j - 2]
                    and typed[i - 2] == word[j - 1]):
                row[j] = min(row[j], rows[i - 2][j - 2] + 1)
        rows.append(row)
    return min(rows[n])


def _name_words(name: str) -> tuple[str, ...]:
    return tuple(w for w in (re.sub(r"[^a-z0-9]", "", part)
                             for part in re.split(r"[\s-]+", name.lower())) if w)


def card_words(card: Card) -> tuple[str, ...]:
    """What a typed word may start to name this card: every tail of its id's
    parts (longest first) and the words of its name."""
    parts = card.id.split("-")
    return tuple("-".join(parts[i:]) for i in range(len(parts))) + _name_words(card.name)


def names_card(typed: str, card: Card) -> bool:
    """The typed word starts one of the card's words (no typo)."""
    return any(w.startswith(typed) for w in card_words(card))


@lru_cache(maxsize=16)
def short_ids(card_set: CardSet) -> dict[str, str]:
    """{animal id: the shortest tail of its id that names no other animal
    of the set}: what the terminal shows in move lists ('gazelle',
    'red-fox'); the full id where no tail is unique. (Moves name caretaker
    cards by colour, never by id.)"""
    animals = card_set.animals()
    found: dict[str, str] = {}
    for card in animals:
        parts = card.id.split("-")
        tails = ["-".join(parts[i:]) for i in range(len(parts) - 1, -1, -1)]
        found[card.id] = next(
            (t for t in tails if not any(names_card(t, other) for other in animals
                                         if other is not card)), card.id)
    return found


def _word_cost(typed: str, move_word: str, card_set: CardSet) -> int | None:
    """Typos between a typed word and a word of a move (None: too many)."""
    card = card_set.by_id.get(move_word)
    targets = card_words(card) if card else (move_word.lower(),)
    cost = min(typo_distance(typed, t) for t in targets)
    return cost if cost <= typos_allowed(typed) else None


def _move_cost(words: Sequence[str], move: str, card_set: CardSet) -> int | None:
    move_words = move.split()
    if len(words) > len(move_words):
        return None
    total = 0
    for typed, word in zip(words, move_words):
        cost = _word_cost(typed, word, card_set)
        if cost is None:
            return None
        total += cost
    return total


def closest(word: str, vocabulary: Sequence[str], limit: int = 3) -> list[str]:
    """The words of `vocabulary` that `word` is a near miss of (a start of
    them, give or take its allowed typos), nearest first."""
    word = word.lower()
    scored = sorted((typo_distance(word, v.lower()), i, v) for i, v in enumerate(vocabulary))
    return [v for cost, _, v in scored if cost <= typos_allowed(word)][:limit]


def did_you_mean(position: Position, text: str, limit: int = 3) -> list[str]:
    """Moves in notation that `text` is a near miss of, best first: the
    legal moves it is near; when it is near none, the well-formed moves it
    is near (not legal now: why_not says why). [] when nothing is near."""
    words = text.lower().split()
    if not words:
        return []
    cs = position.card_set
    scored = []
    for i, move in enumerate(position.legal_moves()):
        cost = _move_cost(words, move, cs)
        if cost is not None:
            scored.append((cost, i, move))
    if scored:
        best = min(cost for cost, _, _ in scored)
        return [move for cost, _, move in sorted(scored) if cost == best][:limit]
    return nearest_moves(cs, text, limit)


def nearest_moves(card_set: CardSet, text: str, limit: int = 3) -> list[str]:
    """Well-formed moves (legal or not) that `text` is a near miss of, word
    for word: its first word a notation word, its colours exact letters,
    its cards the nearest by id or name."""
    words = text.lower().split()
    if not words:
        return []
    found = []
    for first in closest(words[0], WORDS, limit=2):
        choices = [[first]] + [_argument_choices(card_set, w) for w in words[1:]]
        for combo in product(*choices):
            try:
                parse_move(card_set, " ".join(combo))
            except NotationError:
                continue
            found.append(" ".join(combo))
    return list(dict.fromkeys(found))[:limit]


def _argument_choices(card_set: CardSet, word: str) -> list[str]:
    """A colour letter, or the card ids nearest the word."""
    choices = [word.upper()] if len(word) == 1 and word.upper() in COLOURS else []
    costs = [(min(typo_distance(word, t) for t in card_words(c)), c.id)
             for c in card_set.cards]
    near = [(cost, cid) for cost, cid in costs if cost <= typos_allowed(word)]
    if near:
        best = min(cost for cost, _ in near)
        choices += [cid for cost, cid in near if cost == best][:3]
    return choices
