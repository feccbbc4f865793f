"""The move notation: the one way moves are written in logs, records, the
protocol and on the command line.

Actions are integers (bit layout in csrc/cx_types.h); a move is their text:
`recruit C`, `house forest-red-fox`, `move F sea-otter sea-seal`, `end`, ...
Caretaker cards are named by colour, animals by their card id, so the same
choice never has two names.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from coexist_ai.errors import IllegalMoveError, NotationError
from coexist_ai.vocabulary import TOKENS, ActionKind

if TYPE_CHECKING:
    from coexist_ai._engine import Position
    from coexist_ai.cards import CardSet

COLOURS = "".join(TOKENS)   # C F P H S, in the engine's order of codes

# kind -> (word, argument shape): X colour, Y colour, A card, B card
_SHAPES: dict[int, tuple[str, str]] = {
    ActionKind.PASS: ("pass", ""), ActionKind.END: ("end", ""),
    ActionKind.CENTER: ("center", ""), ActionKind.TRAIN_START: ("train", ""),
    ActionKind.APPLY: ("apply", ""), ActionKind.SKIP: ("skip", ""),
    ActionKind.RECRUIT: ("recruit", "X"), ActionKind.HOUSE: ("house", "A"),
    ActionKind.PROTECT: ("protect", "A"), ActionKind.ASSIGN: ("assign", "XA"),
    ActionKind.MOVE: ("move", "XAB"), ActionKind.UNASSIGN: ("unassign", "XA"),
    ActionKind.RELEASE: ("release", "A"), ActionKind.TRAIN: ("train", "XY"),
    ActionKind.DISCARD_TOKEN: ("discard", "X"),
    ActionKind.DISCARD_ANIMAL: ("discard", "A"),
    ActionKind.REVEAL: ("reveal", "A"),   # chance: a card comes onto the Mission
}
WORDS = sorted({word for word, _ in _SHAPES.values()})


def kind_word(kind: int) -> str:
    """The notation word of an action kind (`ActionKind.ASSIGN` -> 'assign')."""
    return _SHAPES[kind][0]

# A move is ASCII words (letters, digits, '-') separated by spaces or tabs,
# with any spaces or tabs around it: nothing else, so that look-alikes
# (a no-break space, U+3000, the long s that str.upper() turns into S) can
# never spell a move.
_MOVE_TEXT = re.compile(r"[ \t]*([A-Za-z0-9-]+(?:[ \t]+[A-Za-z0-9-]+)*)[ \t]*")


def make_action(kind: int, x: int = 0, y: int = 0, a: int = 0, b: int = 0) -> int:
    """The integer of a move (see the layout in csrc/cx_types.h)."""
    return (kind << 22) | (y << 19) | (x << 16) | (b << 8) | a


def split_action(action: int) -> tuple[int, int, int, int, int]:
    """(kind, x, y, a, b) of an action integer."""
    return ((action >> 22) & 31, (action >> 16) & 7, (action >> 19) & 7,
            action & 255, (action >> 8) & 255)


def check_action(card_set: CardSet, action: object) -> tuple[int, int, int, int, int]:
    """(kind, x, y, a, b) of a well-formed action integer of this card set;
    NotationError for anything else (out of range, unused bits set...)."""
    if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < 1 << 27:
        raise NotationError(f"{action!r} is not an action integer (0 <= action < 2**27)")
    kind, x, y, a, b = split_action(action)
    if kind not in _SHAPES:
        raise NotationError(f"action {action!r} has no kind {kind!r}")
    shape = _SHAPES[kind][1]
    used = {f: v for f, v in zip("XYAB", (x, y, a, b)) if f in shape}
    canonical = make_action(kind, **{f.lower(): v for f, v in used.items()})
    bad = (canonical != action
           or any(used[f] >= len(card_set.cards) for f in "AB" if f in used)
           or any(used[f] >= len(COLOURS) for f in "XY" if f in used))
    if bad:
        raise NotationError(f"action {action!r} is not a well-formed action of "
                            f"card set {card_set.name!r}")
    return kind, x, y, a, b


def action_to_move(card_set: CardSet, action: object) -> str:
    """The notation of an action integer."""
    kind, x, y, a, b = check_action(card_set, action)
    word, shape = _SHAPES[kind]
    parts = [word]
    for field in shape:
        if field == "X":
            parts.append(COLOURS[x])
        elif field == "Y":
            parts.append(COLOURS[y])
        else:
            parts.append(card_set.cards[a if field == "A" else b].id)
    return " ".join(parts)


def _candidate_actions(card_set: CardSet, words: list[str]) -> tuple[list[int], list[str]]:
    """Every action the words could name (legal or not), or a reason why none."""
    word, args = words[0].lower(), words[1:]
    found: list[int] = []
    reasons: list[str] = []
    for kind, (kword, shape) in _SHAPES.items():
        if kword != word:
            continue
        if len(args) != len(shape):
            reasons.append(f"'{word}' takes {_describe(shape)}")
            continue
        fields, why = _parse_fields(card_set, shape, args)
        if fields is None:
            reasons.append(why)
        else:
            found.append(make_action(kind, **fields))
    return found, reasons


def _describe(shape: str) -> str:
    names = {"X": "a colour", "Y": "a colour", "A": "a card id", "B": "a card id"}
    return " then ".join(names[f] for f in shape) if shape else "no argument"


def _parse_fields(card_set: CardSet, shape: str,
                  args: list[str]) -> tuple[dict[str, int], str] | tuple[None, str]:
    """The fields the words give, or None and why they give none."""
    fields: dict[str, int] = {}
    for field, text in zip(shape, args):
        if field in "XY":
            colour = text.upper()
            if len(colour) != 1 or colour not in COLOURS:
                return None, f"{text!r} is not a colour (one of C F P H S)"
            fields[field.lower()] = COLOURS.index(colour)
        else:
            card = card_set.by_id.get(text.lower())
            if card is None:
                return None, f"{text!r} is not a card id of {card_set.name!r}"
            fields[field.lower()] = card.index
    return fields, ""


def parse_move(card_set: CardSet, text: object) -> list[int]:
    """The actions `text` could name, before looking at any position."""
    if not isinstance(text, str) or not text.strip(" \t"):
        raise NotationError(f"empty move {text!r}: expected a move such as "
                            "'recruit C', 'center' or 'end'")
    match = _MOVE_TEXT.fullmatch(text)
    if match is None:
        raise NotationError(f"{text!r}: a move is ASCII words (letters, digits "
                            "and '-') separated by spaces, such as 'recruit C' "
                            "or 'move F sea-otter sea-manatee'")
    words = match.group(1).split()
    if words[0].lower() not in WORDS:
        raise NotationError(f"{text!r}: unknown word {words[0]!r}; moves start "
                            f"with one of: {', '.join(WORDS)}")
    found, reasons = _candidate_actions(card_set, words)
    if not found:
        raise NotationError(f"{text!r}: {'; '.join(reasons)}")
    return found


def parse_legal_move(position: Position, text: str) -> int:
    """The legal action that `text` names in `position`."""
    legal = position.legal_actions()
    try:
        found = parse_move(position.card_set, text)
    except NotationError as e:
        raise NotationError(f"{e}. Legal moves: {_listing(position, legal)}") from None
    for action in found:
        if action in legal:
            return action
    raise illegal_move_error(position, found[0], text)


def _listing(position: Position, legal: list[int]) -> str:
    cs = position.card_set
    return ", ".join(action_to_move(cs, a) for a in legal) or "(none: the game is over)"


def illegal_move_error(position: Position, action: object,
                       text: str | None = None) -> IllegalMoveError:
    """An IllegalMoveError naming the move, the decision and the legal moves."""
    legal = position.legal_actions()
    try:
        name = action_to_move(position.card_set, action)
    except NotationError as e:
        return IllegalMoveError(f"illegal move: {e}. Legal moves: "
                                f"{_listing(position, legal)}")
    said = repr(text) if text is not None else repr(name)
    if position.is_over():
        why = "the game is over"
    else:
        why = (f"it is not a legal move for seat {position.current_player} in "
               f"the '{position.phase}' decision")
    return IllegalMoveError(f"illegal move {said}: {why}. "
                            f"Legal moves: {_listing(position, legal)}")
