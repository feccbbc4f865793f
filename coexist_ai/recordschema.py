"""What a game record may hold, field by field (docs/formats.md).

Every reader of records (resuming a run, `tournament ratings`, `play
--resume`, `replay`) gets them from records.read_records, which checks each
one here: a record that loads has every field present, of its type and in
its range, so no reader needs checks of its own. Whether the moves can be
played on the deck is for the replay to say; keys beyond these are ignored.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from coexist_ai.cards import FAUNAS
from coexist_ai.errors import CoexistError

ENDS = ("normal", "forfeit", "unfinished")
MISSING = object()

# a check: (value, field name) -> None, or FieldError
Check = Callable[[Any, str], None]


class FieldError(CoexistError):
    """A field that is missing or holds what it may not."""

    def __init__(self, field: str, value: object, expected: str) -> None:
        self.field, self.value, self.expected = field, value, expected
        if value is MISSING:
            text = f"field {field!r} is missing (expected {expected})"
        else:
            text = f"field {field!r}: {_shown(value)} is not {expected}"
        super().__init__(text)


def _shown(value: object, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


# -- checks: each takes (value, field) and raises FieldError -------------------

def whole(low: int | None = None, high: int | None = None) -> Check:
    if low is not None and high is not None:
        expected = f"a whole number in {low}..{high}"
    else:
        expected = "a whole number" + (f" >= {low}" if low is not None else "")

    def check(value: Any, field: str) -> None:
        # bool is an int to Python, not to a record
        if type(value) is not int or (low is not None and value < low) or (
                high is not None and value > high):
            raise FieldError(field, value, expected)
    return check


def text(value: Any, field: str) -> None:
    if not isinstance(value, str):
        raise FieldError(field, value, "a string")


def seconds(value: Any, field: str) -> None:
    if type(value) not in (int, float) or not math.isfinite(value) or value < 0:
        raise FieldError(field, value, "a number of seconds >= 0")


def sha256(value: Any, field: str) -> None:
    if not (isinstance(value, str) and len(value) == 64
            and all(c in "0123456789abcdef" for c in value)):
        raise FieldError(field, value, "a sha256 (64 lowercase hex digits)")


def one_of(*choices: str) -> Check:
    def check(value: Any, field: str) -> None:
        if not isinstance(value, str) or value not in choices:
            raise FieldError(field, value, "one of " + ", ".join(map(repr, choices)))
    return check


def optional(inner: Check) -> Check:
    def check(value: Any, field: str) -> None:
        if value is not None:
            inner(value, field)
    return check


def list_of(item: Check, length: int | None = None) -> Check:
    expected = f"a list of {length}" if length is not None else "a list"

    def check(value: Any, field: str) -> None:
        if not isinstance(value, list) or (length is not None and len(value) != length):
            raise FieldError(field, value, expected)
        for i, entry in enumerate(value):
            item(entry, f"{field}[{i}]")
    return check


def pair(first: Check, second: Check) -> Check:
    def check(value: Any, field: str) -> None:
        if not isinstance(value, list) or len(value) != 2:
            raise FieldError(field, value, "a pair [seat, move]")
        first(value[0], f"{field}[0]")
        second(value[1], f"{field}[1]")
    return check


def fields(checks: Mapping[str, Check], optional: Mapping[str, Check] | None = None) -> Check:
    """An object with these keys, and perhaps the `optional` ones."""
    def check(value: Any, field: str) -> None:
        if not isinstance(value, dict):
            raise FieldError(field, value, "an object with " + ", ".join(checks))
        for key, inner in checks.items():
            inner(value.get(key, MISSING), f"{field}.{key}")
        for key, inner in (optional or {}).items():
            if key in value:
                inner(value[key], f"{field}.{key}")
    return check


# -- the record -----------------------------------------------------------------

def record_checks(players: int) -> dict[str, Check]:
    """The checks of every field, for a game of `players` seats."""
    seat = whole(0, players - 1)
    # an external bot's entry also names it as its protocol hello did
    bot = fields({"spec": text, "seed": optional(whole(0, 2**63))}, {"name": text})
    breakdown = fields({k: whole() for k in ("conservation", "reputation",
                                             "specialty", "total")})
    forfeit = fields({"seat": seat, "kind": text, "reason": text})
    return {
        "run": text, "tournament": text,
        "game": whole(0), "block": whole(0), "round": whole(0), "rotation": seat,
        "entrants": list_of(text, players),
        "card_set": fields({"name": text, "sha256": sha256}),
        "faunas": list_of(one_of(*FAUNAS), players),
        "first_player": seat,
        "bots": list_of(bot, players),
        "moves": list_of(pair(seat, text)),
        "times": list_of(seconds),
        "deck": list_of(text),
        "end": one_of(*ENDS),
        "scores": list_of(whole(), players),
        "ranks": list_of(whole(1, players), players),
        "breakdown": list_of(breakdown, players),
        "rounds": whole(0),
        "forfeits": list_of(forfeit),
    }


OPTIONAL = {"seed": whole()}   # the tournament seed; a saved play has none


def check_record(record: Mapping[str, Any]) -> None:
    """Raise FieldError for the first field of `record` (a dict of the
    record format and version) that is missing or wrong. (Every check
    refuses MISSING, so an absent field is named as such.)"""
    players = record.get("players", MISSING)
    whole(2, 4)(players, "players")
    for name, check in record_checks(players).items():
        check(record.get(name, MISSING), name)
    for name, check in OPTIONAL.items():
        if name in record:
            check(record[name], name)
    _check_agreement(record)


def _check_agreement(record: Mapping[str, Any]) -> None:
    """Fields that must agree with each other."""
    if len(record["times"]) != len(record["moves"]):
        raise FieldError("times", record["times"],
                         f"a list of {len(record['moves'])} (one per move)")
    if len(set(record["faunas"])) != len(record["faunas"]):
        raise FieldError("faunas", record["faunas"], "a list of distinct faunas")
    forfeited = record["end"] == "forfeit"
    if forfeited != bool(record["forfeits"]):
        raise FieldError("end", record["end"],
                         "'forfeit' (the record has forfeits)" if record["forfeits"]
                         else "'forfeit' only with forfeits listed")
