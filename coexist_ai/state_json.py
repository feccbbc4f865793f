"""Positions as JSON: the full state (a referee's) and a seat's observation.

The format is documented in docs/formats.md. In short: one object, keyed by
"format" ("coexist-state" or "coexist-observation") and "version"; cards are
named by id, token counts by colour letter. An observation is a state without
"draw_pile_order". Writing then reading gives back the same position, byte for
byte; reading then writing gives back the same JSON.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from coexist_ai import _engine
from coexist_ai.errors import StateFormatError
from coexist_ai.views import BOUNDARIES, Caretakers, SeatView, Tokens, TurnView
from coexist_ai.vocabulary import (CARETAKERS, MAX_BOARD, MAX_ROUNDS, MISSION_SIZE,
                                   TOKENS, TRACK_SIZE, Fauna, Location, Phase)

VERSION = 1
STATE_FORMAT = "coexist-state"
OBSERVATION_FORMAT = "coexist-observation"

if TYPE_CHECKING:
    from coexist_ai.cards import Card, CardSet

# the engine's state struct as a dict (Position._public_raw, _blank_raw)
Raw = dict[str, Any]


# ---- writing ---------------------------------------------------------------

def position_to_json(position: _engine.State | _engine.Observation,
                     **dump_options: Any) -> str:
    """The JSON text of a State or an Observation."""
    return json.dumps(position_to_dict(position), **dump_options)


def position_to_dict(position: _engine.State | _engine.Observation) -> dict[str, Any]:
    is_state = isinstance(position, _engine.State)
    cs = position.card_set
    doc: dict[str, Any] = {
        "format": STATE_FORMAT if is_state else OBSERVATION_FORMAT,
        "version": VERSION,
        "card_set": {"name": cs.name, "sha256": cs.sha256},
        "players": position.num_players,
        "first_player": position.first_player,
        "current_player": position.turn_seat,
        "phase": str(position.phase),
        "end_triggered": position.end_triggered,
        "rounds": position.rounds,
        "supply": _tokens(position.supply, keep_zero=True),
        "mission": [card.id for card in position.mission],
        "draw_pile_size": position.draw_pile_size(),
        "draw_pile_contents": [cs.cards[c].id for c in position.draw_pile_contents()],
        "discard": [card.id for card in position.discard_pile],
        "turn": _turn_to_dict(position.turn),
        "seats": [_seat_to_dict(seat) for seat in position.seats],
    }
    if position.explicit_chance:   # written only when on: older documents stay as they were
        doc["explicit_chance"] = True
    if isinstance(position, _engine.State):
        doc["draw_pile_order"] = [cs.cards[c].id for c in position.referee_draw_pile()]
    else:
        doc["viewer"] = position.viewer
    return doc


def _tokens(counts: Tokens | Caretakers, keep_zero: bool = False) -> dict[str, int]:
    return {colour: n for colour, n in counts._asdict().items() if keep_zero or n}


def _turn_to_dict(turn: TurnView) -> dict[str, Any]:
    return {
        "step": turn.step,
        "capture_used": turn.capture_used,
        "trained_up": list(turn.trained_up),
        "trained_down": list(turn.trained_down),
        "effect_card": turn.effect_card.id if turn.effect_card else None,
    }


def _seat_to_dict(seat: SeatView) -> dict[str, Any]:
    return {
        "fauna": str(seat.fauna),
        "turns": seat.turns,
        "track": seat.track,
        "pool": _tokens(seat.pool, keep_zero=True),
        "board": [{"card": animal.card.id, "on": _tokens(animal.on),
                   "movable": _tokens(animal.movable)} for animal in seat.board],
        "released": [card.id for card in seat.released],
        "protected": [card.id for card in seat.protected],
        "start_recruit_order": [str(c) for c in seat.effects.start_recruit],
    }


# ---- reading ---------------------------------------------------------------

def state_from_json(text: str | dict[str, Any],
                    card_set: CardSet | None = None) -> _engine.State:
    """A State from its JSON (a "coexist-state" document)."""
    doc = _parse(text)
    card_set = _check_header(doc, STATE_FORMAT, card_set)
    raw, at_turn_start = _Reader(doc, card_set).raw()
    return _engine.State._from_raw(card_set, raw, begin_turn=at_turn_start,
                                   derive_effects=True)


def observation_from_json(text: str | dict[str, Any],
                          card_set: CardSet | None = None) -> _engine.Observation:
    """An Observation from its JSON (a "coexist-observation" document)."""
    doc = _parse(text)
    card_set = _check_header(doc, OBSERVATION_FORMAT, card_set)
    raw, at_turn_start = _Reader(doc, card_set).raw()
    viewer = doc.get("viewer", raw["current"])
    if not isinstance(viewer, int) or not 0 <= viewer < raw["n_players"]:
        raise StateFormatError(f"viewer: {viewer!r} is not a seat")
    return _engine.Observation._from_raw(card_set, raw, viewer, begin_turn=at_turn_start,
                                         derive_effects=True)




def _parse(text: str | dict[str, Any]) -> dict[str, Any]:
    if isinstance(text, dict):
        return text
    try:
        doc = json.loads(text)
    except (TypeError, ValueError, RecursionError) as e:
        raise StateFormatError(f"not JSON (or nested too deeply): {e}") from None
    if not isinstance(doc, dict):
        raise StateFormatError(f"expected a JSON object, got {type(doc).__name__}")
    return doc


def _check_header(doc: dict[str, Any], expected_format: str,
                  card_set: CardSet | None) -> CardSet:
    from coexist_ai.cards import card_set_named_by
    fmt, version = doc.get("format"), doc.get("version")
    if fmt != expected_format:
        raise StateFormatError(f"format: {fmt!r}, expected {expected_format!r}")
    if version != VERSION:
        raise StateFormatError(f"version: {version!r}, this build reads version {VERSION}")
    named = doc.get("card_set")
    card_set = card_set or card_set_named_by(named)
    if not isinstance(named, dict) or named.get("sha256") != card_set.sha256:
        raise StateFormatError(
            f"card_set: {named!r} is not the card set in use "
            f"({card_set.name!r}, sha256 {card_set.sha256[:12]}...)")
    return card_set


class _Reader:
    """Builds the C struct (as a dict) from a parsed document, field by field,
    naming the field in every error."""

    def __init__(self, doc: dict[str, Any], card_set: CardSet) -> None:
        self.doc, self.cs = doc, card_set

    def fail(self, path: str, value: object, expected: str) -> NoReturn:
        raise StateFormatError(f"{path}: {value!r} is not valid; expected {expected}")

    def get(self, obj: object, key: str, path: str, kind: type = int, lo: int = 0,
            hi: int = 255, default: Any = None) -> Any:
        """obj[key], checked to be a `kind` (an int in lo..hi)."""
        if not isinstance(obj, dict):
            self.fail(path.rstrip(".") or "document", obj, "a JSON object")
        if key not in obj:
            if default is not None:
                return default
            raise StateFormatError(f"{path}{key}: missing")
        value = obj[key]
        if kind is int and (not isinstance(value, int) or isinstance(value, bool)
                            or not lo <= value <= hi):
            self.fail(path + key, value, f"a whole number in {lo}..{hi}")
        if kind is not int and not isinstance(value, kind):
            self.fail(path + key, value, f"a {kind.__name__}")
        return value

    def card(self, card_id: object, path: str) -> int:
        card = self.cs.by_id.get(card_id) if isinstance(card_id, str) else None
        if card is None:
            self.fail(path, card_id, f"a card id of {self.cs.name!r}")
        return card.index

    def cards(self, obj: object, key: str, path: str) -> list[int]:
        values = self.get(obj, key, path, list, default=[])
        return [self.card(c, f"{path}{key}[{i}]") for i, c in enumerate(values)]

    def tokens(self, obj: object, key: str, path: str, colours: Sequence[str],
               default: dict[str, int] | None = None) -> list[int]:
        counts = self.get(obj, key, path, dict, default=default)
        for colour in counts:
            if colour not in colours:
                self.fail(f"{path}{key}", colour, f"colours among {' '.join(colours)}")
        return [self.get(counts, c, f"{path}{key}.", default=0) for c in colours]

    def raw(self) -> tuple[Raw, bool]:
        doc = self.doc
        n = self.get(doc, "players", "", lo=2, hi=4)
        seats = self.get(doc, "seats", "", list)
        if len(seats) != n:
            self.fail("seats", f"{len(seats)} seats", f"one per player ({n})")
        raw = _engine._blank_raw()
        raw.update(n_players=n,
                   first_player=self.get(doc, "first_player", "", hi=n - 1),
                   current=self.get(doc, "current_player", "", hi=n - 1),
                   end_triggered=int(self.get(doc, "end_triggered", "", bool)),
                   rounds=self.get(doc, "rounds", "", hi=MAX_ROUNDS),
                   supply=self.tokens(doc, "supply", "", TOKENS),
                   explicit_chance=int(self.get(doc, "explicit_chance", "", bool,
                                                default=False)))
        phase = doc.get("phase")
        at_turn_start = phase is None
        if not at_turn_start:
            if phase not in tuple(Phase):
                self.fail("phase", phase, f"one of {', '.join(Phase)}")
            raw["phase"] = Phase(phase).code
        self.read_cards(raw, seats)
        self.read_turn(raw, phase)
        for p, seat in enumerate(seats):
            self.read_seat(raw, p, seat, f"seats[{p}].", at_turn_start)
        return raw, at_turn_start

    def read_cards(self, raw: Raw, seats: list[Any]) -> None:
        faunas = [self.get(s, "fauna", f"seats[{p}].", str) for p, s in enumerate(seats)]
        for p, f in enumerate(faunas):
            if f not in tuple(Fauna) or faunas.index(f) != p:
                self.fail(f"seats[{p}].fauna", f, f"a distinct fauna among {', '.join(Fauna)}")
        in_game = [c for c in self.cs.cards if c.fauna in faunas]
        mission = self.cards(self.doc, "mission", "")
        if len(mission) > MISSION_SIZE:
            self.fail("mission", self.doc["mission"], f"at most {MISSION_SIZE} cards")
        order = self.draw_order(in_game)
        raw["deck_len"] = len(in_game)
        raw["deck_pos"] = len(in_game) - len(order)
        raw["deck"][raw["deck_pos"]:raw["deck_len"]] = order
        raw["mission"][:len(mission)] = mission
        raw["n_mission"] = len(mission)
        places: list[tuple[int, list[int]]] = [(Location.DECK.code, order), (Location.MISSION.code, mission),
                  (Location.DISCARD.code, self.cards(self.doc, "discard", ""))]
        for p, seat in enumerate(seats):
            path = f"seats[{p}]."
            board = [self.card(sl.get("card") if isinstance(sl, dict) else sl, f"{path}board[{i}].card")
                     for i, sl in enumerate(self.get(seat, "board", path, list, default=[]))]
            places += [(Location.BOARD.code + p, board),
                       (Location.RELEASED.code + p, self.cards(seat, "released", path)),
                       (Location.PROTECTED.code + p, self.cards(seat, "protected", path))]
        self.place_cards(raw, places, in_game)

    def draw_order(self, in_game: list[Card]) -> list[int]:
        contents = self.cards(self.doc, "draw_pile_contents", "")
        if self.doc["format"] != STATE_FORMAT:
            return self.check_size(sorted(contents))
        order = self.cards(self.doc, "draw_pile_order", "")
        if "draw_pile_contents" in self.doc and sorted(order) != sorted(contents):
            self.fail("draw_pile_contents", self.doc["draw_pile_contents"],
                      "the cards of draw_pile_order")
        return self.check_size(order)

    def check_size(self, pile: list[int]) -> list[int]:
        size = self.doc.get("draw_pile_size", len(pile))
        if size != len(pile):
            self.fail("draw_pile_size", size, f"the number of cards listed ({len(pile)})")
        return pile

    def place_cards(self, raw: Raw, places: list[tuple[int, list[int]]],
                    in_game: list[Card]) -> None:
        wanted = {c.index for c in in_game}
        for loc, cards in places:
            for c in cards:
                if c not in wanted:
                    self.fail("cards", self.cs.cards[c].id, "cards of the seats' faunas only")
                if raw["loc"][c]:
                    self.fail("cards", self.cs.cards[c].id, "each card in one place only")
                raw["loc"][c] = loc
        missing = [c.id for c in in_game if not raw["loc"][c.index]]
        if missing:
            self.fail("cards", missing, "every card of the seats' faunas somewhere")

    def read_turn(self, raw: Raw, phase: object) -> None:
        turn = self.get(self.doc, "turn", "", dict, default={})
        raw["step"] = self.get(turn, "step", "turn.", default=0)
        raw["capture_used"] = self.get(turn, "capture_used", "turn.", default=0)
        for key, field in (("trained_up", "train_up"), ("trained_down", "train_down")):
            mask = 0
            for b in self.get(turn, key, "turn.", list, default=[]):
                if b not in BOUNDARIES:
                    self.fail(f"turn.{key}", b, f"boundaries among {', '.join(BOUNDARIES)}")
                mask |= 1 << BOUNDARIES.index(b)
            raw[field] = mask
        effect = turn.get("effect_card")
        if phase == "effect":
            raw["effect_card"] = self.card(effect, "turn.effect_card")
        elif effect is not None:
            self.fail("turn.effect_card", effect, "null outside the 'effect' phase")

    def read_seat(self, raw: Raw, p: int, seat: dict[str, Any], path: str,
                  at_turn_start: bool) -> None:
        pl = raw["players"][p]
        pl["fauna"] = Fauna(seat["fauna"]).code
        pl["turns"] = self.get(seat, "turns", path, default=0)
        pl["track"] = self.get(seat, "track", path, hi=TRACK_SIZE, default=0)
        pl["pool"] = self.tokens(seat, "pool", path, CARETAKERS, default={})
        board = self.get(seat, "board", path, list, default=[])
        if len(board) > MAX_BOARD:
            self.fail(f"{path}board", f"{len(board)} animals", f"at most {MAX_BOARD}")
        for i, entry in enumerate(board):
            entry = entry if isinstance(entry, dict) else {"card": entry}
            where = f"{path}board[{i}]."
            slot = pl["board"][i]
            slot["card"] = self.cs.by_id[entry["card"]].index
            slot["on"] = self.tokens(entry, "on", where, TOKENS, default={})
            # tokens without a stated anti-cycle count have been there since
            # the start of the turn
            given = "movable" in entry and not at_turn_start
            slot["movable"] = (self.tokens(entry, "movable", where, CARETAKERS) if given
                               else slot["on"][:len(CARETAKERS)])
        pl["n_board"] = len(board)
        self.read_effects(pl, seat, path, raw["loc"], p)

    def read_effects(self, pl: dict[str, Any], seat: dict[str, Any], path: str,
                     loc: list[int], p: int) -> None:
        """Only the order of start_recruit effects (the release order) is in
        the document; the engine derives the rest of what a seat owns from
        the animals it released (derive_effects)."""
        released = [c for c in self.cs.cards if loc[c.index] == Location.RELEASED.code + p]
        recruits = [c.effect.colour for c in released   # a start_recruit names a colour
                    if c.effect and c.effect.kind == "start_recruit" and c.effect.colour]
        order = self.get(seat, "start_recruit_order", path, list, default=recruits)
        if not all(c in CARETAKERS for c in order) or sorted(order) != sorted(recruits):
            self.fail(f"{path}start_recruit_order", order,
                      f"the colours of the released start_recruit animals {sorted(recruits)}")
        pl["start_recruit"][:len(order)] = [CARETAKERS.index(c) for c in order]
        pl["n_start_recruit"] = len(order)
