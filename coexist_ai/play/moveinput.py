"""What a person types at the prompt, turned into a move or a command.

Accepted: a number from the move list; a move in notation; the start of a
move when only one legal move begins that way, word by word ("rel fox" for
"release forest-red-fox": each word may start the move's word or any
hyphen-separated part of a card id); or a command word.
"""
from dataclasses import dataclass

from coexist_ai.errors import NotationError
from coexist_ai.notation import parse_move

COMMANDS = {"help": "help", "?": "help", "hint": "hint", "undo": "undo",
            "quit": "quit", "exit": "quit", "board": "board", "moves": "board"}


@dataclass(frozen=True)
class Answer:
    kind: str            # "move", "command", "error" or "empty"
    move: int = -1       # index into the legal moves (kind "move")
    command: str = ""    # help, hint, undo, quit, board (kind "command")
    message: str = ""    # why the input was refused (kind "error")


def interpret(text, moves, card_set=None):
    """The Answer to `text` given the legal `moves` (notation, in order)."""
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
    found = [i for i, m in enumerate(lowered) if _starts(words, m.split())]
    if len(found) == 1:
        return Answer("move", move=found[0])
    if found:
        listed = ", ".join(f"{i + 1}. {moves[i]}" for i in found[:8])
        more = f" and {len(found) - 8} more" if len(found) > 8 else ""
        return Answer("error", message=f"{text.strip()!r} is ambiguous: it could be "
                                       f"{listed}{more}; type more of the move or its number")
    return Answer("error", message=_refusal(text.strip(), card_set, len(moves)))


def _starts(words, move_words):
    """Each typed word starts the move's word at the same place."""
    if len(words) > len(move_words):
        return False
    return all(_word_starts(w, m) for w, m in zip(words, move_words))


def _word_starts(typed, word):
    parts = word.split("-")
    return any("-".join(parts[i:]).startswith(typed) for i in range(len(parts)))


def _refusal(text, card_set, n):
    hint = f"type a number from 1 to {n}, a move, or help"
    if card_set is not None:
        try:
            parse_move(card_set, text)
        except NotationError:
            pass
        else:
            return f"{text!r} is not a legal move now; {hint}"
    return f"{text!r} is not a legal move or a command; {hint}"
