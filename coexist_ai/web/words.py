"""The game in words for the web page: moves, effects, specialties, why a
move is not allowed, how a tie was broken.

The words are coexist_ai.explain's, the terminal game's too, so both games
say the same thing; this module only fits them to what the web game holds
(moves in notation, '' for "nothing to say"). Everything reads a
Position's public views (an Observation is enough), never the draw pile's
order.
"""
from __future__ import annotations

from typing import Any

from coexist_ai import explain
from coexist_ai.errors import NotationError
from coexist_ai.notation import parse_move

SPECIALTY = explain.SPECIALTY


def describe_effect(effect: Any) -> str:
    """A card's effect (cards.Effect or None) as a sentence saying when it acts."""
    return explain.effect_sentence(effect)


def effect_brief(effect: Any) -> str:
    """A card's effect in a few words ('capture limit +2'), for a list."""
    return explain.effect_text(effect)


def describe_move(card_set: Any, move: str) -> str:
    """A move in notation (as the record keeps it), in words."""
    return explain.move_text(card_set, parse_move(card_set, move)[0])


def why_illegal(position: Any, move: str, seat: int | None = None) -> str:
    """Why `move` (notation) is not legal for `seat` in `position`, in one
    sentence ('' when it is legal); for text that is no move, the notation's
    reason and the near misses."""
    try:
        parse_move(position.card_set, move)
    except NotationError as error:
        near = explain.did_you_mean(position, move)
        return str(error) + (f"; did you mean {' or '.join(map(repr, near))}?" if near else "")
    reason = explain.why_not(position, move, seat)
    return f"{move}: {reason}" if reason else ""


def tie_breaks(position: Any, names: list[str], exclude: Any = ()) -> list[str]:
    """For each group of seats level on points, how their places were
    decided; seats in `exclude` (who forfeited) are ranked apart."""
    labels = [f"seat {p} ({name})" for p, name in enumerate(names)]
    return explain.position_tie_breaks(position, labels, exclude)
