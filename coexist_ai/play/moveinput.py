"""What a person types at the prompt, turned into a move or a command.

Accepted: a number from the move list; a move in notation; the start of a
move when only one legal move begins that way, word by word ("rel fox" for
"release forest-red-fox": each word may start the move's word, any
hyphen-separated tail of a card id, or a word of the card's name); `apply`
at an effect that is used by choosing (house, recruit) when one choice is
possible; or a command word. Anything else is refused with the reason: why
the move is not legal (coexist_ai.explain), or the move it is a near miss
of.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from coexist_ai import explain
from coexist_ai.errors import NotationError
from coexist_ai.explain import names_card
from coexist_ai.notation import parse_move

if TYPE_CHECKING:
    from coexist_ai._engine import Position
    from coexist_ai.cards import CardSet

COMMANDS = {"help": "help", "?": "help", "hint": "hint", "undo": "undo",
            "quit": "quit", "exit": "quit", "board": "board", "detail": "detail",
            "moves": "moves"}


@dataclass(frozen=True)
class Answer:
    kind: str            # "move", "command", "error" or "empty"
    move: int = -1       # index into the legal moves (kind "move")
    command: str = ""    # help, hint, undo, quit, board, detail, moves (kind "command")
    message: str = ""    # why the input was refused (kind "error")


def interpret(text: str, moves: Sequence[str], card_set: CardSet | None = None,
              position: Position | None = None) -> Answer:
    """The Answer to `text` given the legal `moves` (notation, in order) of
    `position` (which, when given, explains refusals)."""
    if not text.isascii():
        # look-alikes (a no-break space, Arabic digits, the long s) never
        # stand for the ASCII notation
        return Answer("error", message="moves and commands are plain ASCII: "
                                       "letters, digits, '-' and spaces")
    words = text.lower().split()
    if not words:
        return Answer("empty")
    typed = " ".join(words)
    if typed in COMMANDS:
        return Answer("command", command=COMMANDS[typed])
    if typed.isdigit():
        n = int(typed)
        if 1 <= n <= len(moves):
            return Answer("move", move=n - 1)
        return Answer("error", message=f"there is no move {n}: type a number from 1 "
                                       f"to {len(moves)}, a move, or help")
    lowered = [m.lower() for m in moves]
    if typed in lowered:
        return Answer("move", move=lowered.index(typed))
    if typed == "apply" and position is not None and position.phase == "effect":
        return _apply(moves)
    found = [i for i, m in enumerate(lowered) if _starts(words, m.split(), card_set)]
    if len(found) == 1:
        return Answer("move", move=found[0])
    if found:
        return Answer("error", message=f"{text.strip()!r} is ambiguous: it could be "
                                       f"{_listed(moves, found)}; type more of the move or its number")
    return Answer("error", message=_refusal(text.strip(), moves, card_set, position))


def _apply(moves: Sequence[str]) -> Answer:
    """`apply` at an effect used by choosing: the one choice, if one."""
    choices = [i for i, m in enumerate(moves) if m not in ("skip", "end")]
    if len(choices) == 1:
        return Answer("move", move=choices[0])
    return Answer("error", message=f"apply: this effect is used by choosing one of "
                                   f"{_listed(moves, choices)}; type it or its number")


def _listed(moves: Sequence[str], indices: Sequence[int]) -> str:
    listed = ", ".join(f"{i + 1}. {moves[i]}" for i in indices[:8])
    return listed + (f" and {len(indices) - 8} more" if len(indices) > 8 else "")


def _starts(words: Sequence[str], move_words: Sequence[str],
            card_set: CardSet | None) -> bool:
    """Each typed word starts the move's word at the same place."""
    if len(words) > len(move_words):
        return False
    return all(_word_starts(w, m, card_set) for w, m in zip(words, move_words))


def _word_starts(typed: str, word: str, card_set: CardSet | None) -> bool:
    card = card_set.by_id.get(word) if card_set is not None else None
    if card is not None:
        return names_card(typed, card)
    parts = word.split("-")
    return any("-".join(parts[i:]).startswith(typed) for i in range(len(parts)))


def _refusal(text: str, moves: Sequence[str], card_set: CardSet | None,
             position: Position | None) -> str:
    hint = f"type a number from 1 to {len(moves)}, a move, or help"
    if card_set is not None:
        try:
            parse_move(card_set, text)
        except NotationError:
            pass
        else:
            why = explain.why_not(position, text) if position is not None else None
            return f"{text!r} is not a legal move now" + (f": {why}" if why else f"; {hint}")
    if position is not None:
        guess = _guess(text, moves, position)
        if guess:
            return f"{text!r} is not a legal move or a command; {guess}"
    near = explain.closest(text, sorted(set(COMMANDS) - {"?"}), limit=1)
    if near:
        return f"{text!r} is not a legal move or a command; did you mean {near[0]!r}?"
    return f"{text!r} is not a legal move or a command; {hint}"


def _guess(text: str, moves: Sequence[str], position: Position) -> str:
    """'did you mean ...' for a near miss of a move, or ''."""
    guesses = explain.did_you_mean(position, text)
    legal = [g for g in guesses if g in moves]
    if legal:
        return "did you mean " + " or ".join(f"{moves.index(g) + 1}. {g}" for g in legal) + "?"
    if guesses:
        return f"did you mean {guesses[0]!r}? It is not legal now: {explain.why_not(position, guesses[0])}"
    return ""
