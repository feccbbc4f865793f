"""The protocol's messages: one JSON object a line, and what each carries.

Every line is a compact JSON object (no spaces outside strings, ASCII only)
whose first key is "type" and, when it has one, whose second key is "id".
Frontends keep to that order so that a bot without a JSON library can read
`type` and `id` with a pattern (docs/protocol.md).
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from coexist_ai.errors import CoexistError

if TYPE_CHECKING:
    from coexist_ai._engine import Observation
    from coexist_ai.cards import CardSet

Message = dict[str, Any]     # one line of the protocol, decoded

PROTOCOL_VERSION = 1

# What the frontend sends, and the reply each one expects (quit: none;
# stop: none of its own, the move being computed is answered at once).
COMMANDS = {"hello": "hello", "setoption": "ok", "newgame": "ok",
            "move": "move", "ping": "pong", "stop": None, "quit": None}

# A bot's replies are short; a frontend's commands carry whole positions and
# card sets. Longer lines are refused without being kept in memory.
MAX_REPLY_LINE = 64 * 1024
MAX_COMMAND_LINE = 4 * 1024 * 1024

OPTION_TYPES = ("int", "float", "bool", "string")


class ProtocolError(CoexistError):
    """A line that is not a message of the protocol."""


def encode(message: Message) -> bytes:
    """The line (bytes, newline included) of a message dict."""
    ordered: Message = {"type": message["type"]}
    if "id" in message:
        ordered["id"] = message["id"]
    ordered.update((k, v) for k, v in message.items() if k not in ("type", "id"))
    return (json.dumps(ordered, separators=(",", ":"), ensure_ascii=True)
            + "\n").encode("ascii")


def decode(line: bytes | str) -> Message:
    """The message dict of one line (bytes or str); ProtocolError if the
    line is not a JSON object with a string "type"."""
    if isinstance(line, bytes):
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as e:
            shown = shorten(line.rstrip(b"\r\n"))
            raise ProtocolError(f"{shown}: not UTF-8 ({e.reason})") from None
    else:
        text = line
    line = text.rstrip("\r\n")
    try:
        message = json.loads(line)
    except (ValueError, RecursionError) as e:
        raise ProtocolError(f"{shorten(line)}: not JSON ({e})") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"{shorten(line)}: expected a JSON object, "
                            f"got {type(message).__name__}")
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(f"{shorten(line)}: no \"type\" string")
    return message


def shorten(text: str | bytes, limit: int = 120) -> str:
    """repr() of text, cut to `limit` characters for messages."""
    if len(text) > limit:
        return repr(text[:limit]) + f"... ({len(text)} characters)"
    return repr(text)


def error_reply(message_id: object, text: str) -> Message:
    reply: Message = {"type": "error", "message": text}
    if message_id is not None:
        reply["id"] = message_id
    return reply


def newgame_command(seat: int, players: int, seed: int,
                    card_set_json: dict[str, Any]) -> Message:
    """A newgame command. The seed goes twice: as a number, and exactly as
    a decimal string for readers whose numbers are doubles (JavaScript's
    JSON.parse rounds integers above 2**53 without a word)."""
    return {"type": "newgame", "seat": seat, "players": players, "seed": seed,
            "seed_string": str(seed), "card_set": card_set_json}


def move_command(observation: Observation, seconds: float, margin: float) -> Message:
    """A move request for `observation` (an Observation): its JSON, the
    legal moves in engine order, the time for the decision and the
    lateness the frontend tolerates beyond it."""
    return {"type": "move", "observation": json.loads(observation.to_json()),
            "legal": observation.legal_moves(), "time": seconds, "time_margin": margin}


def card_set_payload(card_set: CardSet) -> dict[str, Any]:
    """A card set as newgame carries it: its validated content, every card
    with every field, and the sha256 that names it in observations."""
    data: dict[str, Any] = json.loads(card_set.canonical_json())
    data["sha256"] = card_set.sha256
    return data


def card_set_from_payload(payload: object) -> CardSet:
    """The CardSet a newgame carried; CoexistError if it is not one."""
    from coexist_ai.cards import card_set_from_data
    if not isinstance(payload, dict):
        raise ProtocolError(f"card_set: expected an object, got {type(payload).__name__}")
    data = dict(payload)
    sha = data.pop("sha256", None)
    card_set = card_set_from_data(data, source="<newgame card_set>")
    if sha is not None and sha != card_set.sha256:
        raise ProtocolError(f"card_set: sha256 {sha!r} does not match its content "
                            f"(which hashes to {card_set.sha256!r})")
    return card_set


def check_option(option: object) -> str | None:
    """A problem with one option of a hello reply, or None."""
    if not isinstance(option, dict):
        return f"{option!r} is not an object"
    name, kind = option.get("name"), option.get("type")
    if not isinstance(name, str) or not name:
        return f"{option!r} has no name"
    if kind not in OPTION_TYPES:
        return f"option {name!r}: type {kind!r} is not one of {', '.join(OPTION_TYPES)}"
    if "default" not in option:
        return f"option {name!r} has no default"
    return None
