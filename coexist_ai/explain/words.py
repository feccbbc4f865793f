"""The game's things in words: colours, tokens, effects, moves, places.

Plain text only (no colour codes, no layout), so that any frontend (the
terminal, the browser) shows the same words.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from coexist_ai.notation import check_action
from coexist_ai.vocabulary import IMMEDIATE_EFFECTS, TOKENS, ActionKind, EffectKind, Location

if TYPE_CHECKING:
    from coexist_ai._engine import Position
    from coexist_ai.cards import Card, CardSet, Effect

COLOUR_NAMES = {"C": "Congener", "F": "Water/Food", "P": "Protection",
                "H": "Habitat", "S": "Survival"}

# What each fauna specialty scores at the end (RULES.md, "End of the game").
SPECIALTY = {
    "forest": "1 per forest animal released by anyone",
    "air": "1 per air animal protected by anyone",
    "sea": "highest conservation value left on any board",
    "savannah": "the most Survival tokens on any one track",
}


def article(colour: str) -> str:
    """'a' or 'an' before a colour letter read aloud (an F, a C, an H)."""
    return "an" if str(colour) in "FHS" else "a"


def tokens_text(counts: Iterable[int], empty: str = "nothing") -> str:
    """`C2 F1 S1` from counts in the order C F P H S (zeros left out)."""
    parts = [f"{TOKENS[i]}{v}" for i, v in enumerate(counts) if v]
    return " ".join(parts) if parts else empty


def effect_text(effect: Effect | None) -> str:
    """An animal's effect in a few words, at most 21 letters ('' for
    none): for a card's line."""
    if effect is None:
        return ""
    k, c, n = effect.kind, effect.colour, effect.amount
    return {
        "start_recruit": f"+1 {c} each turn start",
        "capture_bonus": f"capture limit +{n}",
        "discard_survival": f"remove up to {n} S",
        "recruit_two": f"gain 2 {c}",
        "house_one": "house 1 animal free",
        "recruit_mission": "recruit Mission cards",
        "discard_survival_recruit": f"remove 1 S, gain 1 {c}",
        "extra_space": "+1 space",
        "double_protect": f"protect: {c} doubled",
        "skip_survival": "protect: 1 S fewer",
        "train_one_to_one": f"train {effect.from_colour}->{effect.to_colour} 1 for 1",
    }[k]


def effect_sentence(effect: Effect | None) -> str:
    """An animal's effect as a full sentence, saying when it acts
    ('' for none)."""
    if effect is None:
        return ""
    k, c, n = effect.kind, effect.colour, effect.amount
    body = {
        "start_recruit": f"at the start of each of your turns you may gain 1 {c} "
                         "caretaker (even over capacity)",
        "capture_bonus": f"your capture limit for Mission B is {n} higher",
        "discard_survival": f"remove up to {n} Survival token{'s' * (n != 1)} from "
                            "your Reputation track, right to left",
        "recruit_two": f"gain 2 {c} caretakers (even over capacity)",
        "house_one": "house one animal from the Mission board, whatever its capture "
                     "value, even over capacity",
        "recruit_mission": "recruit any number of caretaker cards from the Mission "
                           "board (even over capacity), then end",
        "discard_survival_recruit": "remove your rightmost Survival token (if any), "
                                    f"then gain 1 {c} caretaker",
        "extra_space": "your Conservation Center has one more space",
        "double_protect": f"when you protect an animal, the {c} caretakers you gain "
                          "are doubled",
        "skip_survival": "when you protect an animal, you take one Survival token fewer",
        "train_one_to_one": f"in Training, {effect.from_colour} trains to "
                            f"{effect.to_colour} one for one",
    }[k]
    when = ("Once, when released: " if EffectKind(k) in IMMEDIATE_EFFECTS
            else "From its release on: ")
    return when + body + "."


def place_text(position: Position, card: Card | str | int, seat: int | None = None) -> str:
    """Where a card is, in words ('on your Conservation Center', 'in the
    draw pile'...), `seat` being the reader's seat."""
    place = position.location(card)
    owner = "your" if place.seat is not None and place.seat == seat else f"seat {place.seat}'s"
    return {
        Location.OUT: "it is not in this game (its fauna was not dealt)",
        Location.DECK: "it is in the draw pile",
        Location.MISSION: "it is on the Mission board",
        Location.DISCARD: "it is in the discard pile",
        Location.BOARD: f"it is on {owner} Conservation Center",
        Location.RELEASED: f"it was released ({owner} released animals)",
        Location.PROTECTED: "it is in the common protected area",
    }[place.location]


def move_text(card_set: CardSet, action: int) -> str:
    """A move in words, for a person following a game: 'put a C from your
    pool on Plains Zebra'."""
    kind, x, y, a, b = check_action(card_set, action)
    cx, cy = TOKENS[x], TOKENS[y]
    name_a, name_b = card_set.cards[a].name, card_set.cards[b].name
    kind = ActionKind(kind)
    texts = {
        ActionKind.PASS: "pass (no other move is possible)",
        ActionKind.END: "end this part of the turn",
        ActionKind.CENTER: "choose the Conservation Center",
        ActionKind.TRAIN_START: "choose Training",
        ActionKind.APPLY: "apply the effect",
        ActionKind.SKIP: "skip the effect",
        ActionKind.RECRUIT: f"recruit {article(cx)} {cx} caretaker card from the Mission board",
        ActionKind.HOUSE: f"house {name_a} (capture {card_set.cards[a].capture})",
        ActionKind.PROTECT: f"put {name_a} in the protected area",
        ActionKind.ASSIGN: (f"put a Survival token from your track on {name_a}" if cx == "S"
                            else f"put {article(cx)} {cx} from your pool on {name_a}"),
        ActionKind.MOVE: f"move {article(cx)} {cx} from {name_a} to {name_b}",
        ActionKind.UNASSIGN: f"take {article(cx)} {cx} from {name_a} back to your pool",
        ActionKind.RELEASE: f"release {name_a}",
        ActionKind.TRAIN: f"train {cx} into {cy}",
        ActionKind.DISCARD_TOKEN: f"discard {article(cx)} {cx} from your pool",
        ActionKind.DISCARD_ANIMAL: f"discard {name_a} with the tokens on it",
        ActionKind.REVEAL: f"reveal {name_a} onto the Mission board",
    }
    return texts[kind]
