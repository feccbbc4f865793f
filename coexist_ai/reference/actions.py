"""Action integers and their notation, written from docs/formats.md.

An action is ``kind << 22 | Y << 19 | X << 16 | B << 8 | A``: A and B are
card indices (A the animal acted on, B the target of a ``move``), X and Y
token colours (C F P H S = 0..4), and every field a kind does not use is 0,
so each move has exactly one integer. Because the kind sits in the highest
bits, sorting the integers orders moves by kind, then Y, X, B and A.

Kinds 0..15 are the engine's. Kind 16, ``reveal <card>``, is this package's
chance action (explicit chance only): the refill turning card A face up.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from coexist_ai.cards import CardSet

COLOURS = "CFPHS"            # caretaker tiers C < F < P < H, then Survival
C, F, P, H, S = range(5)
CARETAKERS = (C, F, P, H)

(PASS, END, CENTER, TRAIN_START, APPLY, SKIP, RECRUIT, HOUSE, PROTECT, ASSIGN,
 MOVE, UNASSIGN, RELEASE, TRAIN, DISCARD_TOKEN, DISCARD_ANIMAL,
 REVEAL) = range(17)

# kind -> (first word, the fields it uses in the order they are written)
SHAPES = {
    PASS: ("pass", ""), END: ("end", ""), CENTER: ("center", ""),
    TRAIN_START: ("train", ""), APPLY: ("apply", ""), SKIP: ("skip", ""),
    RECRUIT: ("recruit", "X"), HOUSE: ("house", "A"),
    PROTECT: ("protect", "A"), ASSIGN: ("assign", "XA"),
    MOVE: ("move", "XAB"), UNASSIGN: ("unassign", "XA"),
    RELEASE: ("release", "A"), TRAIN: ("train", "XY"),
    DISCARD_TOKEN: ("discard", "X"), DISCARD_ANIMAL: ("discard", "A"),
    REVEAL: ("reveal", "A"),
}


def action(kind: int, x: int = 0, y: int = 0, a: int = 0, b: int = 0) -> int:
    """The integer of a move."""
    return (kind << 22) | (y << 19) | (x << 16) | (b << 8) | a


def fields(act: int) -> tuple[int, int, int, int, int]:
    """(kind, x, y, a, b) of an action integer."""
    return (act >> 22) & 31, (act >> 16) & 7, (act >> 19) & 7, act & 255, (act >> 8) & 255


def reveal_action(card: int) -> int:
    """The chance action that turns `card` face up onto the Mission board."""
    return action(REVEAL, a=card)


def move_name(card_set: CardSet, act: object) -> str:
    """The notation of an action (`recruit C`, `move F sea-otter sea-seal`).
    ValueError if `act` is not a well-formed action of this card set."""
    if not isinstance(act, int) or isinstance(act, bool) or not 0 <= act < 1 << 27:
        raise ValueError(f"{act!r} is not an action integer (0 <= action < 2**27)")
    kind, x, y, a, b = fields(act)
    if kind not in SHAPES:
        raise ValueError(f"action {act!r} has no kind {kind!r}")
    word, shape = SHAPES[kind]
    used = dict(zip("XYAB", (x, y, a, b)))
    unused_bits = any(used[f] for f in "XYAB" if f not in shape)
    bad_colour = any(used[f] >= len(COLOURS) for f in "XY" if f in shape)
    bad_card = any(used[f] >= len(card_set.cards) for f in "AB" if f in shape)
    if unused_bits or bad_colour or bad_card:
        raise ValueError(f"action {act!r} is not a well-formed action of card "
                         f"set {card_set.name!r}")
    words = [word]
    for f in shape:
        words.append(COLOURS[used[f]] if f in "XY" else card_set.cards[used[f]].id)
    return " ".join(words)
