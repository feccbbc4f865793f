"""The game explained in words, for any frontend (terminal, browser, bots'
logs): why a move is not legal, what a near miss probably meant, what
effects and moves do, and how the final ranking's ties were broken.

Everything here is plain text (no colour, no layout) computed from the typed
API: a position is a `State` or an `Observation` (an Observation is enough
for all of it: nothing here needs the draw pile's order), a move an action
integer or its notation, a card a `coexist_ai.cards.Card`.

Why not (one short reason; None when the move is legal):

    why_illegal(position, action, seat=None) -> str | None
        seat: the asker's seat; another seat's turn is a reason too.
    why_not(position, text, seat=None) -> str | None
        the same for a move in notation; text that is no move gets the
        notation's own reason ("'hous' ... unknown word").
    rule_against(position, action) -> str | None
        the rule-by-rule walk behind why_illegal (None: no rule forbids it).

    >>> why_not(st, "recruit H")
    'no free space for an H token: your Conservation Center uses 5 of 5 spaces'

Near misses:

    did_you_mean(position, text, limit=3) -> list[str]
        legal moves in notation `text` is near (`hous gazele` ->
        ['house savannah-thomsons-gazelle']); failing those, well-formed
        moves it is near (legal or not: ask why_not).
    closest(word, vocabulary, limit=3) -> list[str]
        near misses of a word among any words (commands, say).
    short_ids(card_set) -> {card id: shortest unique tail}
        what to show in a move list: 'gazelle', 'red-fox'.
    names_card(typed, card) -> bool
        the typed word starts a tail of the card's id or a word of its name.

Words:

    effect_text(effect) -> str        'capture limit +2' (a card's line)
    effect_sentence(effect) -> str    'From its release on: your capture ...'
    move_text(card_set, action) -> str  'put a C from your pool on Plains Zebra'
    place_text(position, card, seat=None) -> str  'it is in the draw pile'
    tokens_text(counts, empty='nothing') -> str    'C2 F1 S1'
    COLOUR_NAMES: {'C': 'Congener', ...}
    SPECIALTY: {'forest': '1 per forest animal released by anyone', ...}

Ranking (RULES.md: more points, then fewer Survival tokens, then shared):

    ranking(totals, tracks, exclude=()) -> [place or None by seat]
    tie_breaks(totals, tracks, labels=None, exclude=()) -> list[str]
        '29-29, broken by Survival tokens: 0 against 4, fewer first: seat 1,
        then seat 0'; '29-29 with 4 Survival tokens each: seat 0 and seat 2
        share 2nd place'. exclude: seats that forfeited (ranked apart).
    seat_tie_break(seat, totals, tracks, labels=None, exclude=()) -> str | None
    position_tie_breaks(position, labels=None, exclude=()) -> list[str]

This interface is kept stable: the terminal game (coexist_ai/play) and the
browser game use it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from coexist_ai.errors import NotationError
from coexist_ai.explain.illegal import rule_against, why_illegal
from coexist_ai.explain.nearby import (closest, did_you_mean, names_card,
                                       short_ids)
from coexist_ai.explain.standings import (position_tie_breaks, ranking,
                                          seat_tie_break, tie_breaks)
from coexist_ai.explain.words import (COLOUR_NAMES, SPECIALTY, effect_sentence,
                                      effect_text, move_text, place_text, tokens_text)
from coexist_ai.notation import parse_move

if TYPE_CHECKING:
    from coexist_ai._engine import Position


def why_not(position: Position, text: str, seat: int | None = None) -> str | None:
    """None when the move in notation `text` is legal for `seat` (default:
    the seat to move); otherwise why not, in words."""
    try:
        found = parse_move(position.card_set, text)
    except NotationError as e:
        return str(e)
    reasons = [why_illegal(position, action, seat) for action in found]
    return None if None in reasons else reasons[0]


__all__ = ["why_illegal", "why_not", "rule_against", "did_you_mean", "closest",
           "short_ids", "names_card", "effect_text", "effect_sentence", "move_text",
           "place_text", "tokens_text", "COLOUR_NAMES", "SPECIALTY", "ranking", "tie_breaks",
           "seat_tie_break", "position_tie_breaks"]
