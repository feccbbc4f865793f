"""Card sets: load, validate and describe the cards of a game of Coexist.

A card set is a TOML file (schema: RULES.md "Card set", docs/cardsets.md)
holding the animal and caretaker cards of every fauna and, optionally, a few
rule numbers. The project ships its own *reconstructed* sets
(``coexist_ai/data/reconstructed-v*.toml``; DEFAULT_NAME is the default): the
published rulebook prints no card list, so they are our design, not the
physical cards.

Everything here is pure Python. A loaded :class:`CardSet` is immutable, knows
the index of every card (the number the C engine uses); the binding packs it
into the engine's ``cx_cardset`` field by field. Every file that breaks the schema
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
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, NoReturn

from coexist_ai.errors import CoexistError
from coexist_ai.vocabulary import (CARETAKERS, EFFECT_PARAMETERS as _EFFECT_PARAMETERS,
                                   MAX_CAPTURE, MAX_CARDS, MAX_PROTECT, MAX_ROUNDS,
                                   MAX_SPACES, MAX_START_RECRUIT, SUPPLY_START, TOKENS,
                                   Colour, EffectKind, Fauna)

__all__ = [
    "CARETAKER_COLOURS", "DEFAULT_RULES", "EFFECT_KINDS", "EFFECT_PARAMETERS",
    "FAUNAS", "SUPPLY", "TOKEN_COLOURS",
    "Card", "CardSet", "CardSetError", "Effect",
    "card_set_from_data", "card_set_named_by", "default_card_set", "dumps_card_set",
    "load_card_set", "loads_card_set", "packaged_by_sha256", "packaged_card_set",
    "resolve_card_set",
]

# ---- the game's vocabulary, from the engine (coexist_ai.vocabulary) --------

# plain strings: they are what files hold and what messages quote
FAUNAS: tuple[str, ...] = tuple(map(str, Fauna))
TOKEN_COLOURS: tuple[str, ...] = tuple(map(str, TOKENS))
CARETAKER_COLOURS: tuple[str, ...] = tuple(map(str, CARETAKERS))   # lowest tier first
COLOUR_NAMES = MappingProxyType({
    "C": "Congener", "F": "Water/Food", "P": "Protection", "H": "Habitat",
    "S": "Survival",
})
SUPPLY: Mapping[str, int] = MappingProxyType({str(c): n for c, n in SUPPLY_START.items()})

# Each effect kind with exactly the parameters it takes, in the engine's
# order of kinds (EffectKind, without "none").
EFFECT_PARAMETERS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {str(kind): names for kind, names in _EFFECT_PARAMETERS.items()})
EFFECT_KINDS: tuple[str, ...] = tuple(EFFECT_PARAMETERS)

DEFAULT_RULES = MappingProxyType({
    "center_spaces": 5, "capture_limit": 10, "release_goal": 5, "max_rounds": 60,
})

BYTE = 255                # every number of cx_card is a uint8_t

# The sets shipped in coexist_ai/data, oldest first. Every one stays
# loadable by its name, and records, positions and protocol messages that
# name one by its sha256 find it, so games played with an older default
# still replay. reconstructed-v6 is the default: the first set fair to
# every specialty at 2, 3 and 4 players under our search; v3 to v5 were
# candidates on the way, packaged so that their studies replay
# (docs/balance.md).
PACKAGED_NAMES = ("reconstructed-v1", "reconstructed-v2", "reconstructed-v3",
                  "reconstructed-v4", "reconstructed-v5", "reconstructed-v6")
# The default set: the one switch between them.
DEFAULT_NAME = "reconstructed-v6"
DEFAULT_ALIASES = ("default",)
PACKAGE_PREFIX = "<package>:"
PACKAGED_SOURCE = PACKAGE_PREFIX + DEFAULT_NAME

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
        """The engine's code of this kind (EffectKind)."""
        return EffectKind(self.kind).code

    @property
    def colour_code(self) -> int:
        return _colour_code(self.colour)

    @property
    def from_code(self) -> int:
        return _colour_code(self.from_colour)

    @property
    def to_code(self) -> int:
        return _colour_code(self.to_colour)

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

    @property
    def fauna_code(self) -> int:
        """The engine's code of the card's fauna."""
        return Fauna(self.fauna).code

    @property
    def colour_code(self) -> int:
        """The engine's code of a caretaker card's colour (0 for an animal)."""
        return _colour_code(self.colour)

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
    return 0 if colour is None else Colour(colour).code


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
        """True when this is one of the packaged reconstructed sets (same
        content, wherever it was loaded from): it must then be labelled
        reconstructed."""
        if self.source.startswith(PACKAGE_PREFIX):
            return True
        return packaged_by_sha256(self.sha256) is not None

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
def packaged_card_set(name: str) -> CardSet:
    """A set shipped with the package, by its name (loaded once, then
    cached); KeyError for a name that is not one of PACKAGED_NAMES."""
    if name not in PACKAGED_NAMES:
        raise KeyError(name)
    text = (resources.files(__package__).joinpath("data")
            .joinpath(name + ".toml").read_text(encoding="utf-8"))
    return loads_card_set(text, PACKAGE_PREFIX + name)


def default_card_set() -> CardSet:
    """The packaged set that is the default (DEFAULT_NAME)."""
    return packaged_card_set(DEFAULT_NAME)


@functools.cache
def _packaged_by_hash() -> Mapping[str, str]:
    return MappingProxyType({packaged_card_set(name).sha256: name
                             for name in PACKAGED_NAMES})


def packaged_by_sha256(sha256: object) -> CardSet | None:
    """The packaged set with this content hash (what records, positions
    and protocol messages name a set by), or None."""
    name = _packaged_by_hash().get(sha256) if isinstance(sha256, str) else None
    return None if name is None else packaged_card_set(name)


def card_set_named_by(named: object, spec: str | os.PathLike[str] | CardSet | None = None
                      ) -> CardSet:
    """The set to read a record or position with: the one the user gave
    (`spec`), else the packaged set its {"name", "sha256"} names, else the
    default (whose hash check then tells the user what to pass)."""
    if spec is not None and spec not in DEFAULT_ALIASES:
        return resolve_card_set(spec)
    sha = named.get("sha256") if isinstance(named, Mapping) else None
    return packaged_by_sha256(sha) or default_card_set()


def resolve_card_set(spec: str | os.PathLike[str] | CardSet | None = None) -> CardSet:
    """A card set from what a user typed: None or "default" give the default
    set, a packaged set's name (PACKAGED_NAMES) that set, a CardSet is
    returned as it is, anything else is a path (write ./default for a file
    named default, ./reconstructed-v1 for one named so)."""
    if isinstance(spec, CardSet):
        return spec
    if spec is None or spec in DEFAULT_ALIASES:
        return default_card_set()
    if spec in PACKAGED_NAMES:
        return packaged_card_set(str(spec))
    try:
        return load_card_set(spec)
    except CardSetError as error:
        if Path(spec).exists():
            raise
        # The user may have meant a name, not a path: say which names exist.
        names = " or ".join(map(repr, DEFAULT_ALIASES + PACKAGED_NAMES))
        raise CardSetError(error.source, f"{error.problem}, and it is not a "
                                         f"card-set name ({names})") from None


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


# The schema checks live in their own file; they build the types above.
from coexist_ai.cardschema import card_set_from_data  # noqa: E402
