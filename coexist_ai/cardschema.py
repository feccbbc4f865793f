"""Card-set validation: from parsed TOML data to a CardSet, or a
CardSetError that names the file, the card and the field.

Split from cards.py so that each file reads in one sitting: cards.py holds
the vocabulary, the card and card-set types, loading and writing; this file
holds the schema checks (RULES.md "Card set", the engine's limits).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from typing import Any

from coexist_ai.cards import (
    ANIMAL_FIELDS, BYTE, CARETAKER_COLOURS, CARETAKER_FIELDS, COLOUR_NAMES,
    DEFAULT_RULES, EFFECT_FIELDS, EFFECT_KINDS, EFFECT_PARAMETERS, FAUNAS,
    ID_PATTERN, SUPPLY, TOKEN_COLOURS, TOP_FIELDS, Card, CardSet, Effect, _Where)
from coexist_ai.vocabulary import (MAX_CAPTURE, MAX_CARDS, MAX_PROTECT, MAX_ROUNDS,
                                   MAX_SPACES, MAX_START_RECRUIT)
from coexist_ai.notation import COLOURS, WORDS

# `discard c` must name one thing: a colour or a card, never both
RESERVED_IDS = frozenset(COLOURS.lower()) | frozenset(WORDS)


def card_set_from_data(data: Mapping[str, Any], source: str = "<data>") -> CardSet:
    """Validate already-parsed card-set data (a TOML document as a dict)."""
    where = _Where(source)
    if not isinstance(data, Mapping):
        where.fail(None, f"expected a table of card-set fields, got {data!r}")
    _check_keys(data, TOP_FIELDS, ("name",), where)
    name = _text(data["name"], where, "name")
    rules = _parse_rules(data.get("rules", {}), source)
    animal_tables = _tables(data.get("animal", []), where, "animal")
    caretaker_tables = _tables(data.get("caretaker", []), where, "caretaker")
    cards = [_parse_animal(table, index, _card_where(source, "animal", index, table))
             for index, table in enumerate(animal_tables)]
    first_caretaker = len(cards)
    for position, table in enumerate(caretaker_tables):
        where_card = _card_where(source, "caretaker", position, table)
        cards.append(_parse_caretaker(table, first_caretaker + position, where_card))
    _check_unique_ids(cards, first_caretaker, source)
    _check_engine_limits(cards, rules, source, first_caretaker)
    return CardSet(name, tuple(cards), rules, source)

def _card_where(source: str, kind: str, position: int, table: Any) -> _Where:
    return _Where(source, _card_label(kind, position, table))


def _card_label(kind: str, position: int, table: Any) -> str:
    """'animal 'forest-fox'' when the id is valid, else 'animal #3' (1-based)."""
    card_id = table.get("id") if isinstance(table, Mapping) else None
    if isinstance(card_id, str) and ID_PATTERN.fullmatch(card_id):
        return f"{kind} {card_id!r}"
    return f"{kind} #{position + 1}"


def _check_keys(table: Mapping[str, Any], allowed: Sequence[str],
                required: Sequence[str], where: _Where, prefix: str = "") -> None:
    """Refuse unknown keys (typos) before missing ones: a typo explains both."""
    for key in table:
        if key not in allowed:
            hint = _did_you_mean(str(key), allowed)
            where.fail(f"{prefix}{key}", f"unknown field{hint}; allowed: "
                                         f"{', '.join(allowed)}")
    for key in required:
        if key not in table:
            where.fail(f"{prefix}{key}", "missing; required: "
                                         f"{', '.join(required)}")


def _did_you_mean(word: str, choices: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _table(value: Any, where: _Where, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        where.fail(field, f"expected a table, got {value!r}")
    return value


def _tables(value: Any, where: _Where, field: str) -> list[Mapping[str, Any]]:
    """An array of tables ([[animal]]); its items are checked card by card."""
    if not isinstance(value, list):
        where.fail(field, f"expected an array of tables written [[{field}]], "
                          f"got {value!r}")
    return value


def _text(value: Any, where: _Where, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        where.fail(field, f"expected a non-empty string, got {value!r}")
    return value


def _choice(value: Any, choices: Sequence[str], where: _Where, field: str) -> str:
    if isinstance(value, str) and value in choices:
        return value
    hint = _did_you_mean(value, choices) if isinstance(value, str) else ""
    where.fail(field, f"expected one of {', '.join(map(repr, choices))}{hint}, "
                      f"got {value!r}")


def _integer(value: Any, where: _Where, field: str, low: int, high: int,
             why: str = "") -> int:
    """An int in [low, high]; bools and floats are refused, not converted."""
    wanted = "a non-negative integer" if low == 0 else f"an integer >= {low}"
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        where.fail(field, f"expected {wanted}, got {value!r}")
    if value > high:
        where.fail(field, f"expected at most {high}{why}, got {value!r}")
    return value


def _parse_rules(value: Any, source: str) -> dict[str, int]:
    table = _table(value, _Where(source), "rules")
    where = _Where(source, "[rules]")
    _check_keys(table, tuple(DEFAULT_RULES), (), where)
    rules = dict(DEFAULT_RULES)
    limits = {
        "center_spaces": (1, MAX_SPACES, " (the engine's CX_MAX_SPACES)"),
        "capture_limit": (0, BYTE, " (the engine stores it in a byte)"),
        "release_goal": (1, BYTE, " (the engine stores it in a byte)"),
        "max_rounds": (1, MAX_ROUNDS, " (the engine's CX_MAX_ROUNDS)"),
    }
    for key, (low, high, why) in limits.items():
        if key in table:
            rules[key] = _integer(table[key], where, key, low, high, why)
    return rules


def _parse_animal(table: Any, index: int, where: _Where) -> Card:
    table = _card_table(table, where)
    _check_keys(table, ANIMAL_FIELDS, ANIMAL_FIELDS[:-1], where)
    return Card(
        index=index,
        id=_card_id(table["id"], where),
        name=_text(table["name"], where, "name"),
        is_animal=True,
        fauna=_choice(table["fauna"], FAUNAS, where, "fauna"),
        colour=None,
        capture=_integer(table["capture"], where, "capture", 0, BYTE,
                         " (the engine stores it in a byte)"),
        conservation=_integer(table["conservation"], where, "conservation",
                              0, BYTE, " (the engine stores it in a byte)"),
        needs=_token_counts(table["needs"], where, "needs", _needs_limit),
        protect=_token_counts(table["protect"], where, "protect", _protect_limit),
        effect=_parse_effect(table.get("effect"), where),
    )


def _parse_caretaker(table: Any, index: int, where: _Where) -> Card:
    table = _card_table(table, where)
    _check_keys(table, CARETAKER_FIELDS, ("id", "fauna", "colour"), where)
    colour = _choice(table["colour"], CARETAKER_COLOURS, where, "colour")
    name = table.get("name", f"{COLOUR_NAMES[colour]} caretaker")
    return Card(
        index=index,
        id=_card_id(table["id"], where),
        name=_text(name, where, "name"),
        is_animal=False,
        fauna=_choice(table["fauna"], FAUNAS, where, "fauna"),
        colour=colour,
        capture=0,
        conservation=0,
        needs=(0, 0, 0, 0, 0),
        protect=(0, 0, 0, 0, 0),
        effect=None,
    )


def _card_table(value: Any, where: _Where) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        where.fail(None, f"expected a table of card fields, got {value!r}")
    return value


def _card_id(value: Any, where: _Where) -> str:
    if not isinstance(value, str) or not ID_PATTERN.fullmatch(value):
        where.fail("id", "expected lowercase letters, digits and '-' only "
                         f"([a-z0-9-]+), got {value!r}")
    if value in RESERVED_IDS:
        where.fail("id", f"{value!r} is a word of the move notation; card ids "
                         f"may not be a colour letter ({', '.join(COLOURS.lower())}) "
                         f"or one of: {', '.join(WORDS)}")
    return value


def _needs_limit(colour: str) -> tuple[int, str]:
    return SUPPLY[colour], f" (the supply holds {SUPPLY[colour]} {colour} tokens)"


def _protect_limit(colour: str) -> tuple[int, str]:
    return MAX_PROTECT, " (a protect gain is at most 32 tokens per colour)"


def _token_counts(value: Any, where: _Where, field: str,
                  limit_of: Any) -> tuple[int, int, int, int, int]:
    """A {C, F, P, H, S} table as five counts; absent colours count 0."""
    table = _table(value, where, field)
    _check_keys(table, TOKEN_COLOURS, (), where, prefix=f"{field}.")
    counts = []
    for colour in TOKEN_COLOURS:
        high, why = limit_of(colour)
        counts.append(_integer(table.get(colour, 0), where, f"{field}.{colour}",
                               0, high, why))
    return tuple(counts)  # type: ignore[return-value]


def _parse_effect(value: Any, where: _Where) -> Effect | None:
    if value is None:   # no effect table: the animal has no effect
        return None
    table = _table(value, where, "effect")
    _check_keys(table, EFFECT_FIELDS, ("kind",), where, prefix="effect.")
    if table["kind"] == "none":   # the engine's code 0 is not a kind to write
        where.fail("effect.kind", "expected an effect kind, got 'none'; leave "
                                  "out 'effect' for an animal without one")
    kind = _choice(table["kind"], EFFECT_KINDS, where, "effect.kind")
    _check_effect_parameters(table, kind, where)
    colour = amount = from_colour = to_colour = None
    if "colour" in table:
        colour = _choice(table["colour"], CARETAKER_COLOURS, where, "effect.colour")
    if "amount" in table:
        amount = _integer(table["amount"], where, "effect.amount", 1, BYTE,
                          " (the engine stores it in a byte)")
    if "from" in table:
        from_colour, to_colour = _training_pair(table, where)
    return Effect(kind, colour, amount, from_colour, to_colour)


def _check_effect_parameters(table: Mapping[str, Any], kind: str,
                             where: _Where) -> None:
    wanted = EFFECT_PARAMETERS[kind]
    described = " and ".join(repr(name) for name in wanted) or "no parameter"
    for key in table:
        if key != "kind" and key not in wanted:
            where.fail(f"effect.{key}", f"kind {kind!r} takes {described}, "
                                        f"not {key!r}")
    for key in wanted:
        if key not in table:
            where.fail(f"effect.{key}", f"missing; kind {kind!r} takes {described}")


def _training_pair(table: Mapping[str, Any], where: _Where) -> tuple[str, str]:
    from_colour = _choice(table["from"], CARETAKER_COLOURS, where, "effect.from")
    to_colour = _choice(table["to"], CARETAKER_COLOURS, where, "effect.to")
    if CARETAKER_COLOURS.index(from_colour) >= CARETAKER_COLOURS.index(to_colour):
        where.fail("effect.to", f"expected a tier above from {from_colour!r} "
                                f"(C < F < P < H), got {to_colour!r}")
    return from_colour, to_colour


def _check_unique_ids(cards: list[Card], first_caretaker: int, source: str) -> None:
    first_use: dict[str, Card] = {}
    for card in cards:
        earlier = first_use.setdefault(card.id, card)
        if earlier is not card:
            label = f"{_position_label(card, first_caretaker)} {card.id!r}"
            _Where(source, label).fail(
                "id", f"duplicate id {card.id!r}: "
                      f"{_position_label(earlier, first_caretaker)} has it "
                      "already; ids are unique across all cards")


def _position_label(card: Card, first_caretaker: int) -> str:
    # Both cards share the id, so only their positions tell them apart.
    if card.is_animal:
        return f"animal #{card.index + 1}"
    return f"caretaker #{card.index - first_caretaker + 1}"


def _check_engine_limits(cards: list[Card], rules: Mapping[str, int],
                         source: str, first_caretaker: int) -> None:
    """Set-wide limits of cx_types.h, reported on the card that crosses them."""
    if len(cards) > MAX_CARDS:
        card = cards[MAX_CARDS]
        card_kind = "animal" if card.is_animal else "caretaker"
        _Where(source, f"{card_kind} {card.id!r}").fail(
            None, f"card number {MAX_CARDS + 1} of {len(cards)}: a card set "
                  f"holds at most {MAX_CARDS} cards (the engine's CX_MAX_CARDS)")
    spaces, start_recruits = rules["center_spaces"], 0
    capture = rules["capture_limit"]   # a seat may own every capture_bonus
    for card in cards[:first_caretaker]:
        kind = card.effect.kind if card.effect else None
        where = _Where(source, f"animal {card.id!r}")
        if kind == "extra_space":
            spaces += 1
            if spaces > MAX_SPACES:
                where.fail("effect.kind", f"'extra_space' makes {spaces} spaces "
                           f"with center_spaces {rules['center_spaces']}; at most "
                           f"{MAX_SPACES} (the engine's CX_MAX_SPACES)")
        elif kind == "start_recruit":
            start_recruits += 1
            if start_recruits > MAX_START_RECRUIT:
                where.fail("effect.kind", f"start_recruit number {start_recruits}"
                           f": at most {MAX_START_RECRUIT} in a card set "
                           "(the engine's CX_MAX_START_RECRUIT)")
        elif kind == "capture_bonus":
            capture += card.effect.amount  # type: ignore[union-attr,operator]
            if capture > MAX_CAPTURE:
                where.fail("effect.amount", f"capture_limit {rules['capture_limit']} "
                           f"plus the capture_bonus amounts makes {capture}: at "
                           f"most {MAX_CAPTURE} (the engine's CX_MAX_CAPTURE: "
                           "a turn's capture total is one byte)")
