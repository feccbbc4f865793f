#!/usr/bin/env python3
"""Write a variant of a card set, changed by a few edits, and check it
against RULES.md's design rules: how the balance screens were made.

    python tools/cardset_variant.py BASE NAME "what changed" EDIT... > NAME.toml

BASE is a packaged name or a .toml file. Each EDIT is CARDS.FIELD=VALUE:

    forest-wildcat.needs=F1P1S1        replace a card's needs (or protect)
    'air-*.protect.S=1'                one token of every matching card
    forest-red-deer.conservation=3     capture, conservation, effect.amount...
    savannah-aardvark.effect=recruit_two,colour=F   replace a card's effect
    air-golden-eagle.effect=none                    remove it
    rules.release_goal=6               a rule number
    savannah-k10.colour=P              a caretaker card's colour (its name follows)

CARDS is a card id or a shell-style pattern of ids. The design problems
(coexist_ai/balance/design.py) go to stderr; exit 1 if there are any, so a
screen is never played on a set that breaks the rules.
"""

from __future__ import annotations

import fnmatch
import json
import re
import sys

from coexist_ai.balance.design import design_problems
from coexist_ai.cards import (CARETAKER_COLOURS, COLOUR_NAMES, TOKEN_COLOURS, dumps_card_set,
                              resolve_card_set)
from coexist_ai.cardschema import card_set_from_data

TOKENS_TEXT = re.compile(r"(?:[CFPHS]\d)*")


def tokens(text: str) -> dict[str, int]:
    """'F1P1S1' -> {'C': 0, 'F': 1, 'P': 1, 'H': 0, 'S': 1}."""
    if not TOKENS_TEXT.fullmatch(text):
        raise SystemExit(f"error: {text!r} is not tokens like F1P1S1")
    counts = dict.fromkeys(TOKEN_COLOURS, 0)
    counts.update({text[i]: int(text[i + 1]) for i in range(0, len(text), 2)})
    return counts


def number_or_text(value: str) -> int | str:
    return int(value) if value.isdigit() else value


def apply_edit(data: dict, edit: str) -> None:
    target, _, value = edit.partition("=")
    where, _, field = target.partition(".")
    if not value or not field:
        raise SystemExit(f"error: edit {edit!r} is not CARDS.FIELD=VALUE")
    if where == "rules":
        data["rules"][field] = int(value)
        return
    if field == "colour":
        recolour_caretakers(data, where, value, edit)
        return
    cards = [card for card in data["animal"] if fnmatch.fnmatchcase(card["id"], where)]
    if not cards:
        raise SystemExit(f"error: edit {edit!r}: no animal's id matches {where!r}")
    for card in cards:
        set_field(card, field, value)


def recolour_caretakers(data: dict, where: str, colour: str, edit: str) -> None:
    """A caretaker card's colour changes, and its default name with it."""
    if colour not in CARETAKER_COLOURS:
        raise SystemExit(f"error: edit {edit!r}: {colour!r} is not one of "
                         f"{', '.join(CARETAKER_COLOURS)}")
    cards = [card for card in data["caretaker"] if fnmatch.fnmatchcase(card["id"], where)]
    if not cards:
        raise SystemExit(f"error: edit {edit!r}: no caretaker card's id matches {where!r}")
    for card in cards:
        card["colour"], card["name"] = colour, f"{COLOUR_NAMES[colour]} caretaker"


def effect_from_text(text: str) -> dict | None:
    """'recruit_two,colour=F' -> {'kind': 'recruit_two', 'colour': 'F'}; 'none' -> None."""
    kind, *parameters = text.split(",")
    if kind == "none":
        return None
    effect: dict = {"kind": kind}
    for parameter in parameters:
        key, _, value = parameter.partition("=")
        effect[key] = number_or_text(value)
    return effect


def set_field(card: dict, field: str, value: str) -> None:
    head, _, rest = field.partition(".")
    if head in ("needs", "protect"):
        if rest:
            card[head][rest] = int(value)
        else:
            card[head] = tokens(value)
    elif head == "effect" and not rest:
        card["effect"] = effect_from_text(value)
    elif head == "effect":
        card["effect"] = dict(card["effect"] or {}, **{rest: number_or_text(value)})
    else:
        card[head] = number_or_text(value)


def variant_text(base: str, name: str, comment: str, edits: list[str]) -> tuple[str, list[str]]:
    data = json.loads(resolve_card_set(base).canonical_json())
    data["name"] = name
    for edit in edits:
        apply_edit(data, edit)
    card_set = card_set_from_data(data, f"<{name}>")
    header = f"# {name} -- a screen of the balance work: {comment}\n\n"
    return header + dumps_card_set(card_set), design_problems(card_set)


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    base, name, comment, *edits = argv
    text, problems = variant_text(base, name, comment, edits)
    for problem in problems:
        print(f"design: {problem}", file=sys.stderr)
    sys.stdout.write(text)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
