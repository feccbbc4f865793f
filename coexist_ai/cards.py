"""Card sets: load, validate and describe the cards of a game of Coexist.

A card set is a TOML file (schema: RULES.md "Card set", docs/cardsets.md)
holding the animal and caretaker cards of every fauna and, optionally, a few
rule numbers. The project ships its own *reconstructed* set
(``coexist_ai/data/reconstructed-v1.toml``): the published rulebook prints no
card list, so that set is our design, not the physical cards.

Everything here is pure Python. A loaded :class:`CardSet` is immutable, knows
the index of every card (the number the C engine uses), and can produce the
bytes of the engine's ``cx_cardset`` struct. Every file that breaks the schema
or the engine's limits is refused with a :class:`CardSetError` that names the
file, the card and the field, quotes the bad value and says what is valid.

Typical use::

    card_set = resolve_card_set("default")        # or a path to a .toml file
    fox = card_set.index_of("forest-red-fox")     # card index for the engine
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import json
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, NoReturn

from coexist_ai.errors import CoexistError

__all__ = [
    "CARETAKER_COLOURS", "DEFAULT_RULES", "EFFECT_KINDS", "EFFECT_PARAMETERS",
    "FAUNAS", "SUPPLY", "TOKEN_COLOURS",
    "Card", "CardSet", "CardSetError", "Effect",
    "card_set_from_data", "default_card_set", "dumps_card_set",
    "load_card_set", "loads_card_set", "resolve_card_set",
]

# ---- the game's vocabulary (orders match the enums of csrc/cx_types.h) ----

FAUNAS = ("forest", "air", "sea", "savannah")
TOKEN_COLOURS = ("C", "F", "P", "H", "S")
CARETAKER_COLOURS = ("C", "F", "P", "H")   # lowest to highest tier
COLOUR_NAMES = MappingProxyType({
    "C": "Congener", "F": "Water/Food", "P": "Protection", "H": "Habitat",
    "S": "Survival",
})
SUPPLY = MappingProxyType({"C": 28, "F": 24, "P": 20, "H": 20, "S": 32})

# Each effect kind with exactly the parameters it takes. The order is the
# CX_EFF_* enum of cx_types.h: a kind's engine code is its position + 1,
# because code 0 means "no effect".
EFFECT_PARAMETERS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "start_recruit": ("colour",),
    "capture_bonus": ("amount",),
    "discard_survival": ("amount",),
    "recruit_two": ("colour",),
    "house_one": (),
    "recruit_mission": (),
    "discard_survival_recruit": ("colour",),
    "extra_space": (),
    "double_protect": ("colour",),
    "skip_survival": (),
    "train_one_to_one": ("from", "to"),
})
EFFECT_KINDS = tuple(EFFECT_PARAMETERS)

DEFAULT_RULES = MappingProxyType({
    "center_spaces": 5, "capture_limit": 10, "release_goal": 5, "max_rounds": 60,
})

# ---- the engine's limits (csrc/cx_types.h) --------------------------------

MAX_CARDS = 128           # CX_MAX_CARDS
MAX_SPACES = 14           # CX_MAX_SPACES: center_spaces + extra_space cards
MAX_ROUNDS = 250          # CX_MAX_ROUNDS
MAX_START_RECRUIT = 16    # CX_MAX_START_RECRUIT
MAX_CAPTURE_BONUS = 200   # keeps capture_limit + bonuses inside one byte
MAX_PROTECT = 32          # a protect gain larger than the S supply is nonsense
BYTE = 255                # every number of cx_card is a uint8_t
C_CARD_SIZE = 20          # sizeof(cx_card): 20 uint8_t fields, no padding
C_CARDSET_SIZE = 5 + MAX_CARDS * C_CARD_SIZE   # sizeof(cx_cardset)

DEFAULT_NAME = "reconstructed-v1"
DEFAULT_ALIASES = ("default", DEFAULT_NAME)
PACKAGED_SOURCE = "<package>:" + DEFAULT_NAME
_PACKAGED_FILE = DEFAULT_NAME + ".toml"

ID_PATTERN = re.compile(r"[a-z0-9-]+")
TOP_FIELDS = ("name", "rules", "animal", "caretaker")
ANIMAL_FIELDS = ("id", "name", "fauna", "capture", "conservation", "needs",
                 "protect", "effect")
CARETAKER_FIELDS = ("id", "name", "fauna", "colour")
EFFECT_FIELDS = ("kind", "colour", "amount", "from", "to")


# ---- errors -----------------------------------------------------------------

class CardSetError(CoexistError):
    """A card set that cannot be used (a ValueError, like every CoexistError).

    The message reads ``<source>: <card>: field '<field>': <problem>``, where
    the card and field parts are left out when they do not apply. A card is
    named by its id (``animal 'forest-fox'``) or, when its id is missing or
    invalid, by its 1-based position among the tables of its kind
    (``animal #3``). The parts are also kept as attributes.
    """

    def __init__(self, source: str, problem: str, card: str | None = None,
                 field: str | None = None) -> None:
        self.source = source
        self.problem = problem
        self.card = card
        self.field = field
        parts = [source, card, None if field is None else f"field {field!r}",
                 problem]
        super().__init__(": ".join(part for part in parts if part is not None))

    def __reduce__(self) -> tuple[Any, ...]:
        # The default reduce would call cls(message): keep the parts instead,
        # so the error survives a trip between processes (tournament workers).
        return (type(self), (self.source, self.problem, self.card, self.field))


@dataclass(frozen=True)
class _Where:
    """The place being validated: the source and, inside it, the card."""

    source: str
    card: str | None = None

    def fail(self, field: str | None, problem: str) -> NoReturn:
        raise CardSetError(self.source, problem, self.card, field)


# ---- cards ------------------------------------------------------------------

@dataclass(frozen=True)
class Effect:
    """The effect an animal brings into play when it is released."""

    kind: str
    colour: str | None = None        # caretaker colour C/F/P/H
    amount: int | None = None        # capture_bonus, discard_survival
    from_colour: str | None = None   # train_one_to_one
    to_colour: str | None = None     # train_one_to_one

    @property
    def code(self) -> int:
        """The engine's CX_EFF_* number of this kind."""
        return EFFECT_KINDS.index(self.kind) + 1

    def to_data(self) -> dict[str, Any]:
        """The effect as written in a file: its kind and its parameters."""
        values = {"colour": self.colour, "amount": self.amount,
                  "from": self.from_colour, "to": self.to_colour}
        data: dict[str, Any] = {"kind": self.kind}
        for parameter in EFFECT_PARAMETERS[self.kind]:
            data[parameter] = values[parameter]
        return data


@dataclass(frozen=True)
class Card:
    """One card of a card set: an animal or a caretaker card.

    ``needs`` and ``protect`` are counts in the order of TOKEN_COLOURS
    (C, F, P, H, S). Caretaker cards have zero counts, zero capture and
    conservation, and no effect; animals have ``colour`` None.
    """

    index: int
    id: str
    name: str
    is_animal: bool
    fauna: str
    colour: str | None
    capture: int
    conservation: int
    needs: tuple[int, int, int, int, int]
    protect: tuple[int, int, int, int, int]
    effect: Effect | None

    def c_fields(self) -> tuple[int, ...]:
        """The 20 bytes of this card's ``cx_card``, in struct order.

        is_animal, fauna, colour, capture, conservation, needs[5], protect[5],
        effect, eff_colour, eff_amount, eff_from, eff_to; 0 where unused.
        """
        head = (int(self.is_animal), FAUNAS.index(self.fauna),
                _colour_code(self.colour), self.capture, self.conservation)
        return head + self.needs + self.protect + _effect_fields(self.effect)

    def to_data(self) -> dict[str, Any]:
        """The card as written in a file, with every default filled in."""
        if not self.is_animal:
            return {"id": self.id, "name": self.name, "fauna": self.fauna,
                    "colour": self.colour}
        return {
            "id": self.id, "name": self.name, "fauna": self.fauna,
            "capture": self.capture, "conservation": self.conservation,
            "needs": dict(zip(TOKEN_COLOURS, self.needs)),
            "protect": dict(zip(TOKEN_COLOURS, self.protect)),
            "effect": None if self.effect is None else self.effect.to_data(),
        }


def _colour_code(colour: str | None) -> int:
    return 0 if colour is None else TOKEN_COLOURS.index(colour)


def _effect_fields(effect: Effect | None) -> tuple[int, ...]:
    if effect is None:
        return (0, 0, 0, 0, 0)
    return (effect.code, _colour_code(effect.colour), effect.amount or 0,
            _colour_code(effect.from_colour), _colour_code(effect.to_colour))


# ---- the card set -----------------------------------------------------------

@dataclass(frozen=True, eq=False, repr=False)
class CardSet:
    """A validated card set.

    Build one with :func:`load_card_set`, :func:`loads_card_set`,
    :func:`card_set_from_data` or :func:`default_card_set`; the constructor
    trusts its arguments.

    ``cards`` holds every animal in file order, then every caretaker card in
    file order; a card's position there is its index in the C engine.
    ``rules`` is a read-only mapping with exactly the keys of DEFAULT_RULES.

    ``sha256`` identifies the content, not the file: it is the hex SHA-256 of
    :meth:`canonical_json`, the validated content (name, rules with defaults
    filled in, every card with every field) as JSON with sorted keys, compact
    separators and ASCII escapes. Reformatting a file, reordering keys or
    writing a zero count explicitly does not change it; changing any card,
    rule or the card order does. Two card sets are equal when their sha256
    are equal.
    """

    name: str
    cards: tuple[Card, ...]
    rules: Mapping[str, int]
    source: str
    sha256: str = field(init=False)
    by_id: Mapping[str, Card] = field(init=False)

    def __post_init__(self) -> None:
        # frozen: the derived fields are set once, here.
        object.__setattr__(self, "rules", MappingProxyType(dict(self.rules)))
        object.__setattr__(self, "by_id", MappingProxyType(
            {card.id: card for card in self.cards}))
        digest = hashlib.sha256(self.canonical_json().encode("ascii"))
        object.__setattr__(self, "sha256", digest.hexdigest())

    def canonical_json(self) -> str:
        """The content that sha256 hashes (see the class docstring)."""
        data = {
            "name": self.name,
            "rules": dict(self.rules),
            "animal": [card.to_data() for card in self.animals()],
            "caretaker": [card.to_data() for card in self.caretakers()],
        }
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CardSet):
            return NotImplemented
        return self.sha256 == other.sha256

    def __hash__(self) -> int:
        return hash(self.sha256)

    def __repr__(self) -> str:
        return (f"CardSet(name={self.name!r}, cards={len(self.cards)}, "
                f"source={self.source!r}, sha256={self.sha256[:12]!r}...)")

    def __len__(self) -> int:
        return len(self.cards)

    def __reduce__(self) -> tuple[Any, ...]:
        # Mapping proxies do not pickle; rebuild from the constructor's
        # arguments so a card set can travel to worker processes.
        return (CardSet, (self.name, self.cards, dict(self.rules), self.source))

    @property
    def is_reconstructed(self) -> bool:
        """True when this is the packaged reconstructed set (same content,
        wherever it was loaded from): it must then be labelled reconstructed."""
        if self.source == PACKAGED_SOURCE:
            return True
        return self.sha256 == default_card_set().sha256

    @property
    def display_name(self) -> str:
        """The name to show people, with the reconstructed label if due."""
        return f"{self.name} (reconstructed)" if self.is_reconstructed else self.name

    def card(self, card_id: str) -> Card:
        """The card with this id; KeyError naming near matches otherwise."""
        try:
            return self.by_id[card_id]
        except KeyError:
            raise KeyError(self._unknown_id(card_id)) from None

    def index_of(self, card_id: str) -> int:
        """The engine index of the card with this id (KeyError if none)."""
        return self.card(card_id).index

    def _unknown_id(self, card_id: str) -> str:
        close = difflib.get_close_matches(str(card_id), list(self.by_id), n=3)
        hint = ("did you mean " + " or ".join(map(repr, close)) + "?"
                if close else "no card id is close to it")
        return f"card set {self.name!r} has no card {card_id!r}; {hint}"

    def animals(self, fauna: str | None = None) -> tuple[Card, ...]:
        """The animal cards (of one fauna if given), in index order."""
        return tuple(card for card in self.cards if card.is_animal
                     and fauna in (None, card.fauna))

    def caretakers(self, fauna: str | None = None) -> tuple[Card, ...]:
        """The caretaker cards (of one fauna if given), in index order."""
        return tuple(card for card in self.cards if not card.is_animal
                     and fauna in (None, card.fauna))

    def faunas(self) -> tuple[str, ...]:
        """The faunas that have at least one card, in FAUNAS order."""
        present = {card.fauna for card in self.cards}
        return tuple(fauna for fauna in FAUNAS if fauna in present)

    def to_c_fields(self) -> tuple[tuple[int, ...], ...]:
        """For each card, in index order, the 20 bytes of its cx_card."""
        return tuple(card.c_fields() for card in self.cards)

    def to_c_bytes(self) -> bytes:
        """The memory image of a ``cx_cardset`` (C_CARDSET_SIZE bytes).

        All of its fields are uint8_t, so the struct has no padding: n_cards,
        center_spaces, capture_limit, release_goal, max_rounds, then
        MAX_CARDS cards of C_CARD_SIZE bytes, unused ones zero.
        """
        head = bytes((len(self.cards), self.rules["center_spaces"],
                      self.rules["capture_limit"], self.rules["release_goal"],
                      self.rules["max_rounds"]))
        body = b"".join(bytes(fields) for fields in self.to_c_fields())
        return (head + body).ljust(C_CARDSET_SIZE, b"\0")


# ---- loading ----------------------------------------------------------------

def load_card_set(path: str | os.PathLike[str]) -> CardSet:
    """Load and validate a card-set file (CardSetError if it is unusable)."""
    source = os.fspath(path)
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise CardSetError(source, "the path does not exist") from None
    except IsADirectoryError:
        raise CardSetError(source, "is a directory, not a card-set file") from None
    except OSError as error:
        raise CardSetError(source, f"cannot be read: {error.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CardSetError(
            source, f"is not UTF-8 text (bad byte at offset {error.start}); "
                    "a TOML file must be UTF-8") from None
    return loads_card_set(text, source)


def loads_card_set(text: str, source: str = "<string>") -> CardSet:
    """Parse and validate card-set TOML text; ``source`` names it in errors."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise _syntax_error(source, error) from None
    except RecursionError:
        raise CardSetError(source, "TOML syntax error: values nested too "
                                   "deeply") from None
    return card_set_from_data(data, source)


def _syntax_error(source: str, error: tomllib.TOMLDecodeError) -> CardSetError:
    # tomllib ends its messages with "(at line L, column C)"; put the place
    # first, where editors and people look for it.
    message = str(error)
    place = re.search(r"\s*\(at (line \d+, column \d+|end of document)\)$", message)
    if place is None:
        return CardSetError(source, f"TOML syntax error: {message}")
    reason = message[:place.start()]
    return CardSetError(source, f"{place.group(1)}: TOML syntax error: {reason}")


@functools.cache
def default_card_set() -> CardSet:
    """The packaged reconstructed card set (loaded once, then cached)."""
    text = (resources.files(__package__).joinpath("data")
            .joinpath(_PACKAGED_FILE).read_text(encoding="utf-8"))
    return loads_card_set(text, PACKAGED_SOURCE)


def resolve_card_set(spec: str | os.PathLike[str] | CardSet | None = None) -> CardSet:
    """A card set from what a user typed: None, "default" or
    "reconstructed-v1" give the packaged set, a CardSet is returned as it is,
    anything else is a path (write ./default for a file named default)."""
    if isinstance(spec, CardSet):
        return spec
    if spec is None or spec in DEFAULT_ALIASES:
        return default_card_set()
    try:
        return load_card_set(spec)
    except CardSetError as error:
        if Path(spec).exists():
            raise
        # The user may have meant a name, not a path: say which names exist.
        names = " or ".join(map(repr, DEFAULT_ALIASES))
        raise CardSetError(error.source, f"{error.problem}, and it is not a "
                                         f"card-set name ({names})") from None


# ---- validation ---------------------------------------------------------------

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
        kind = "animal" if card.is_animal else "caretaker"
        _Where(source, f"{kind} {card.id!r}").fail(
            None, f"card number {MAX_CARDS + 1} of {len(cards)}: a card set "
                  f"holds at most {MAX_CARDS} cards (the engine's CX_MAX_CARDS)")
    spaces, start_recruits, capture_bonus = rules["center_spaces"], 0, 0
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
            capture_bonus += card.effect.amount  # type: ignore[union-attr,operator]
            if capture_bonus > MAX_CAPTURE_BONUS:
                where.fail("effect.amount", f"capture_bonus amounts add up to "
                           f"{capture_bonus}: at most {MAX_CAPTURE_BONUS} in a "
                           "card set (the capture limit is one byte)")


# ---- writing ------------------------------------------------------------------

def dumps_card_set(card_set: CardSet) -> str:
    """The card set as TOML text that loads back to the same sha256."""
    lines = [f"name = {_toml_string(card_set.name)}", "", "[rules]"]
    lines += [f"{key} = {value}" for key, value in card_set.rules.items()]
    for card in card_set.cards:
        lines += ["", "[[animal]]" if card.is_animal else "[[caretaker]]"]
        lines += [f"{key} = {_toml_value(value)}"
                  for key, value in card.to_data().items() if value is not None]
    return "\n".join(lines) + "\n"


def _toml_value(value: Any) -> str:
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, dict):
        # Zero counts are the default: leave them out to keep lines short.
        items = [f"{key} = {_toml_value(item)}" for key, item in value.items()
                 if item != 0]
        return "{ " + ", ".join(items) + " }" if items else "{}"
    return str(value)


def _toml_string(text: str) -> str:
    # A JSON string is a valid TOML basic string, except that TOML also
    # wants DEL escaped.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")
