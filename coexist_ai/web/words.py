"""The game in words, for the web page: moves, effects, why a move is not
allowed, how a tie was broken.

Everything here reads a Position's public views (an Observation is
enough), never the draw pile's order. It is the web game's one door to
these texts, so that the shared coexist_ai.explain (the terminal game's
and the web game's) can stand behind it without the rest of the web
package changing.
"""
from __future__ import annotations

from typing import Any

from coexist_ai.errors import NotationError
from coexist_ai.notation import parse_move
from coexist_ai.vocabulary import CARETAKERS, TOKENS

COLOUR_NAMES = {"C": "Congener", "F": "Water/Food", "P": "Protection",
                "H": "Habitat", "S": "Survival"}

SPECIALTY = {
    "forest": "1 point per forest animal released by anyone",
    "air": "1 point per air animal in the protected area",
    "sea": "the highest conservation value left on any Center",
    "savannah": "the most Survival tokens on any one track",
}


def token(colour: str) -> str:
    """`an F (Water/Food) caretaker`, `a Survival token`."""
    if colour == "S":
        return "a Survival token"
    article = "an" if colour in "FH" else "a"
    return f"{article} {colour} ({COLOUR_NAMES[colour]}) caretaker"


def counts_text(counts: Any) -> str:
    """`2 C, 1 F, 1 S` from counts in the order C F P H S ('nothing' if none)."""
    parts = [f"{n} {TOKENS[i]}" for i, n in enumerate(counts) if n]
    return ", ".join(parts) or "nothing"


def describe_effect(effect: Any) -> str:
    """A card's effect (cards.Effect or None) in words."""
    if effect is None:
        return ""
    c, n = effect.colour, effect.amount
    return {
        "start_recruit": f"at the start of each of your turns, gain 1 {c} (apply or skip)",
        "capture_bonus": f"permanent: your capture limit for Mission B is {n} higher",
        "discard_survival": f"once: remove up to {n} Survival tokens from your track",
        "recruit_two": f"once: gain 2 {c} caretakers",
        "house_one": "once: house one Mission animal, whatever its capture value",
        "recruit_mission": "once: recruit any number of caretaker cards from the Mission",
        "discard_survival_recruit": f"once: remove 1 Survival token, then gain 1 {c}",
        "extra_space": "permanent: one more space in your Conservation Center",
        "double_protect": f"permanent: the {c} caretakers a protect gives you are doubled",
        "skip_survival": "permanent: a protect gives you 1 Survival token fewer",
        "train_one_to_one": (f"permanent: Training trades 1 {effect.from_colour} for 1 "
                             f"{effect.to_colour}"),
    }[effect.kind]


def _name(card_set: Any, card_id: str) -> str:
    card = card_set.by_id.get(card_id)
    return card.name if card is not None else card_id


def describe_move(card_set: Any, move: str) -> str:
    """A move of the notation in words."""
    word, *args = move.split()
    names = [_name(card_set, a) for a in args]
    if word == "house":
        card = card_set.by_id[args[0]]
        return f"house {card.name} (capture {card.capture})"
    if word == "recruit":
        return f"recruit {token(args[0])} from the Mission board"
    if word == "protect":
        card = card_set.by_id[args[0]]
        return (f"put {card.name} in the protected area, gaining "
                f"{counts_text(card.protect)}")
    if word == "assign":
        source = "from your track" if args[0] == "S" else "from your pool"
        return f"put {token(args[0])} {source} on {names[1]}"
    if word == "move":
        return f"move {token(args[0])} from {names[1]} to {names[2]}"
    if word == "unassign":
        return f"take {token(args[0])} off {names[1]} back to your pool"
    if word == "release":
        card = card_set.by_id[args[0]]
        return f"release {card.name} (conservation {card.conservation})"
    if word == "train" and args:
        return f"train: {args[0]} into {args[1]}"
    if word == "discard":
        return (f"discard {token(args[0])} from your pool" if args[0] in CARETAKERS
                else f"discard {names[0]} and all it carries")
    return {"center": "choose the Conservation Center", "train": "choose Training",
            "end": "end this part of the turn", "pass": "pass (no other move)",
            "apply": "apply the effect", "skip": "skip the effect"}.get(word, move)


PHASE_WORDS = {
    "start": "the start of the turn (a start-of-turn effect)",
    "choose": "the choice of the turn's option",
    "recruit": "Mission A (recruiting)", "house": "Mission B (housing)",
    "center": "the Conservation Center", "train": "Training",
    "effect": "an effect", "discard": "the end-of-turn discard",
}


CENTER_WORDS = ("protect", "assign", "move", "unassign", "release")


def why_illegal(position: Any, move: str) -> str:
    """Why `move` (notation) is not legal in `position`, in one sentence."""
    try:
        actions = parse_move(position.card_set, move)
    except NotationError as e:
        return str(e)
    if any(position.is_legal(a) for a in actions):
        return ""
    if position.is_over():
        return f"{move}: the game is over"
    word = move.split()[0]
    reason = _specific_reason(position, word, move.split()[1:])
    phase = str(position.phase)
    where = PHASE_WORDS.get(phase, phase)
    return f"{move}: {reason or f'not a move of {where} now'}"


def _specific_reason(position: Any, word: str, args: list[str]) -> str:
    """The rule that forbids the move, for the commonest refusals."""
    seat = position.seat(position.current_player)
    phase, cs = str(position.phase), position.card_set
    first_turn = phase == "choose" and seat.turns == 0
    if word in ("center", "train") and first_turn and not args:
        return "on your first turn only the Mission is open"
    if word in CENTER_WORDS and phase == "choose":
        return ("a Conservation Center move: choose the Conservation Center first"
                + (" (it opens from your 2nd turn)" if first_turn else ""))
    if word in ("house", "recruit") and phase in ("center", "train"):
        return f"this turn is spent in {PHASE_WORDS[phase]}: the Mission waits for another turn"
    if word == "house":
        card = cs.by_id[args[0]]
        if card not in position.mission:
            return f"{card.name} is not on the Mission board"
        if phase in ("choose", "house") and seat.spaces_used >= seat.capacity:
            return (f"no free space for {card.name} ({seat.spaces_used} of "
                    f"{seat.capacity} spaces used)")
        used = position.turn.capture_used if phase == "house" else 0
        if phase in ("choose", "house") and used + card.capture > seat.capture_limit:
            return (f"capture {card.capture} would make {used + card.capture} this "
                    f"turn, over your capture limit {seat.capture_limit}")
    if word == "recruit" and phase in ("choose", "recruit"):
        colour = args[0]
        if not any(not c.is_animal and c.colour == colour for c in position.mission):
            return f"no {colour} caretaker card on the Mission board"
        if position.supply.of(colour) == 0:
            return f"the supply has no {colour} token left"
        return (f"no free space for {token(colour)} ({seat.spaces_used} of "
                f"{seat.capacity} spaces used)")
    if word in CENTER_WORDS and phase == "center":
        return _center_reason(seat, word, args, cs)
    return ""


def _center_reason(seat: Any, word: str, args: list[str], cs: Any) -> str:
    animal_id = args[0] if word in ("release", "protect") else args[1]
    board = {a.card.id: a for a in seat.board}
    if animal_id not in board:
        return f"{_name(cs, animal_id)} is not on your Conservation Center"
    animal = board[animal_id]
    if word == "release":
        return f"{animal.card.name} still needs {counts_text(animal.needs)}"
    if word == "protect":
        return f"{animal.card.name} carries tokens ({counts_text(animal.on)})"
    colour = args[0]
    if word == "assign":
        have = seat.track if colour == "S" else seat.pool.of(colour)
        if not have:
            return (f"no Survival token on your track" if colour == "S"
                    else f"no {colour} caretaker in your pool")
        return f"{animal.card.name} needs no more {colour}"
    if not animal.movable.of(colour):
        return (f"{animal.card.name} has no {colour} that was on it at the start of "
                "the turn and has not moved yet")
    return ""


def tie_break(position: Any) -> list[str]:
    """For each group of seats level on points, how the places were decided."""
    seats, ranks = position.seats, position.ranks()
    totals: dict[int, list[int]] = {}
    for s in seats:
        totals.setdefault(s.score.total, []).append(s.seat)
    lines = []
    for total, group in sorted(totals.items(), reverse=True):
        if len(group) < 2:
            continue
        tracks = ", ".join(f"seat {p}: {seats[p].track}" for p in group)
        names = " and ".join(f"seat {p}" for p in group)
        if len({seats[p].track for p in group}) == 1:
            lines.append(f"{names} tie at {total} points with as many Survival tokens "
                         f"on their tracks ({seats[group[0]].track}): they share "
                         f"place {ranks[group[0]]}")
        else:
            lines.append(f"{names} tie at {total} points; fewer Survival tokens on the "
                         f"track place first ({tracks})")
    return lines
