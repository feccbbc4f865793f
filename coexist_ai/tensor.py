"""A fixed-size numeric encoding of what a seat sees: the observation tensor.

    from coexist_ai.tensor import ObservationEncoder
    enc = ObservationEncoder(card_set)
    x = enc.encode(state.observation(seat), seat)   # float32, shape enc.shape
    enc.split(x)["seat_fauna"]                      # a named view of the pieces

The tensor is built from the typed views of a position (coexist_ai.views)
and the vocabulary's limits only, so it is a function of the public position:
a State and its Observation, or two determinizations of one observation,
give the same tensor (the draw pile enters as its size and its contents,
never its order). Its size depends only on the card set and the engine's
limits, not on the number of players, so one network can read games of 2, 3
and 4 players.

Seats are relative to the viewer: row 0 of every per-seat piece is the
viewer, row 1 the next seat in turn order, and so on; rows of absent seats
(fewer than MAX_PLAYERS players) are zero. Every entry is in [0, 1]: one-hots
and flags, or a count divided by the most it can be (the scale is given with
each piece in PIECES_DOC and docs/formats.md "Observation tensor").
"""
from __future__ import annotations

from math import ceil
from typing import Any

import numpy as np

from coexist_ai.cards import CardSet
from coexist_ai.views import BOUNDARIES
from coexist_ai.vocabulary import (CARETAKERS, MAX_BOARD, MAX_PLAYERS, MAX_SPACES,
                                   MAX_START_RECRUIT, MIN_PLAYERS, MISSION_SIZE,
                                   SUPPLY_START, TOKENS, TRACK_POINTS, TRACK_SIZE,
                                   EffectKind, Fauna, Location, Phase)

# places a card can be; the last three belong to a seat (one column per
# relative seat each)
_SHARED_PLACES = tuple(loc for loc in Location if loc.code < Location.BOARD.code)
_SEAT_PLACES = tuple(loc for loc in Location if loc.code >= Location.BOARD.code)
# the first column of each place in the "location" piece
_COLUMN = {loc: i for i, loc in enumerate(_SHARED_PLACES)} | {
    loc: len(_SHARED_PLACES) + k * MAX_PLAYERS for k, loc in enumerate(_SEAT_PLACES)}

# column of each member in its one-hot
_PHASE = {phase: i for i, phase in enumerate(Phase)}
_FAUNA = {fauna: i for i, fauna in enumerate(Fauna)}
_CARETAKER = {colour: i for i, colour in enumerate(CARETAKERS)}

# the scalar columns of the "seat" piece, in order
SEAT_COLUMNS = ("turns", "track", "spaces_used", "capacity", "capture_limit",
                "capture_bonus", "extra_spaces", "skip_survival",
                "conservation", "reputation", "specialty", "total")

PIECES_DOC = {
    "players": "one-hot of the number of players (MIN_PLAYERS..MAX_PLAYERS)",
    "phase": "one-hot of the phase (vocabulary.Phase order)",
    "to_move": "one-hot of the seat whose turn it is, relative to the viewer",
    "first_player": "one-hot of the first player, relative to the viewer",
    "progress": "rounds / max_rounds, end triggered, draw pile size / cards in the set",
    "supply": "tokens left in the supply / SUPPLY_START, by colour",
    "step": "one-hot of the turn's step counter, capped at MAX_START_RECRUIT",
    "capture_used": "capture value housed this turn / capture scale",
    "trained": "tier boundaries crossed this Training: row 0 upwards, row 1 downwards",
    "location": "per card, one-hot of where it is: out, deck, mission, discard, "
                "then board, released, protected by relative seat",
    "mission_slot": "per card, one-hot of its place on the Mission (reveal order)",
    "effect_card": "per card, 1 for the animal whose effect is being decided",
    "on": "per animal, tokens on it / what its card needs, by colour",
    "movable": "per animal, caretakers on it that may still move / what it needs",
    "seat_fauna": "per relative seat, one-hot of its fauna (all 0: no such seat)",
    "seat": "per relative seat, the SEAT_COLUMNS scalars, each / its scale",
    "pool": "per relative seat, unassigned caretakers / SUPPLY_START",
    "start_recruit": "per relative seat, its start_recruit effects in the order "
                     "released: one-hot of the colour per row",
    "double_protect": "per relative seat, double_protect effects owned by colour "
                      "/ such animals of that colour in the set",
    "one_to_one": "per relative seat, 1 where it trains from X to Y at 1:1",
}


class ObservationEncoder:
    """The observation tensor of one card set (see the module docstring)."""

    def __init__(self, card_set: CardSet):
        self.card_set = card_set
        self.n_cards = len(card_set.cards)
        self.n_animals = len(card_set.animals())
        self.scales = _scales(card_set, self.n_animals)
        self.pieces: tuple[tuple[str, tuple[int, ...]], ...] = _pieces(
            self.n_cards, self.n_animals)
        self.size = sum(int(np.prod(shape)) for _, shape in self.pieces)
        self.shape = (self.size,)
        self.tensor = np.zeros(self.shape, np.float32)
        self.dict = self.split(self.tensor)
        # what each animal needs, to scale what is on it
        needs = np.array([c.needs for c in card_set.cards[:self.n_animals]], np.float32)
        self._per_need = np.divide(1.0, needs, out=np.zeros_like(needs), where=needs > 0)

    def split(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Named views of a flat tensor, one per piece, shaped as PIECES."""
        views, at = {}, 0
        for name, shape in self.pieces:
            size = int(np.prod(shape))
            views[name] = vector[at:at + size].reshape(shape)
            at += size
        return views

    def encode(self, position: Any, seat: int) -> np.ndarray:
        """A new float32 vector: `position` (an Observation or a State, read
        through its public views only) as `seat` sees it."""
        self.set_from(position, seat)
        return self.tensor.copy()

    def set_from(self, position: Any, seat: int) -> None:
        """Fill `self.tensor` (and so `self.dict`) in place."""
        self._fill(position, seat)
        # a safety net: no count exceeds its scale (tests/test_tensor.py)
        np.clip(self.tensor, 0.0, 1.0, out=self.tensor)

    def _fill(self, position: Any, seat: int) -> None:
        self.tensor.fill(0.0)
        rel = _Relative(seat, position.num_players)
        seats = position.seats      # the dearest view: read once
        _write_globals(self.dict, position, rel, self.scales)
        _write_cards(self.dict, position, seats, rel, self._per_need)
        for view in seats:
            _write_seat(self.dict, view, rel.of(view.seat), self.scales)


class _Relative:
    """Seats renumbered from the viewer's point of view."""

    def __init__(self, viewer: int, players: int):
        if not 0 <= viewer < players:
            raise IndexError(f"seat {viewer!r} is not in 0..{players - 1}")
        self.viewer, self.players = viewer, players

    def of(self, seat: int) -> int:
        return (seat - self.viewer) % self.players


def _pieces(n_cards: int, n_animals: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """The pieces in order, with their shapes (from the limits and the set)."""
    p, caretakers = MAX_PLAYERS, len(CARETAKERS)
    return (
        ("players", (MAX_PLAYERS - MIN_PLAYERS + 1,)),
        ("phase", (len(Phase),)),
        ("to_move", (p,)),
        ("first_player", (p,)),
        ("progress", (3,)),
        ("supply", (len(TOKENS),)),
        ("step", (MAX_START_RECRUIT + 1,)),
        ("capture_used", (1,)),
        ("trained", (2, len(BOUNDARIES))),
        ("location", (n_cards, len(_SHARED_PLACES) + len(_SEAT_PLACES) * p)),
        ("mission_slot", (n_cards, MISSION_SIZE)),
        ("effect_card", (n_cards,)),
        ("on", (n_animals, len(TOKENS))),
        ("movable", (n_animals, caretakers)),
        ("seat_fauna", (p, len(Fauna))),
        ("seat", (p, len(SEAT_COLUMNS))),
        ("pool", (p, caretakers)),
        ("start_recruit", (p, MAX_START_RECRUIT, caretakers)),
        ("double_protect", (p, caretakers)),
        ("one_to_one", (p, caretakers, caretakers)),
    )


def _scales(card_set: CardSet, n_animals: int) -> dict[str, Any]:
    """The most each count can be, from the card set and the limits."""
    animals = card_set.cards[:n_animals]

    def owning(kind: EffectKind, colour: str | None = None) -> int:
        return max(1, sum(1 for c in animals if c.effect and c.effect.kind == kind
                          and (colour is None or c.effect.colour == colour)))

    bonus = sum(c.effect.amount or 0 for c in animals
                if c.effect and c.effect.kind == EffectKind.CAPTURE_BONUS)
    capture = max(1, card_set.rules["capture_limit"] + bonus)
    score = (sum(c.conservation for c in animals) + sum(TRACK_POINTS)
             + max([n_animals, TRACK_SIZE] + [c.conservation for c in animals]))
    # a board's spaces: every animal slot plus every caretaker, 3 a space
    spaces = MAX_BOARD + sum(ceil(SUPPLY_START[c] / 3) for c in CARETAKERS)
    return {
        "rounds": max(1, card_set.rules["max_rounds"]),
        "cards": max(1, len(card_set.cards)),
        "capture": capture, "spaces": spaces, "score": score,
        "extra_spaces": owning(EffectKind.EXTRA_SPACE),
        "skip_survival": owning(EffectKind.SKIP_SURVIVAL),
        "double_protect": np.array([owning(EffectKind.DOUBLE_PROTECT, str(c))
                                    for c in CARETAKERS], np.float32),
        "supply": np.array([SUPPLY_START[c] for c in TOKENS], np.float32),
    }


def _write_globals(d: dict[str, np.ndarray], pos: Any, rel: _Relative,
                   scales: dict[str, Any]) -> None:
    d["players"][pos.num_players - MIN_PLAYERS] = 1
    d["phase"][_PHASE[pos.phase]] = 1
    d["to_move"][rel.of(pos.turn_seat)] = 1
    d["first_player"][rel.of(pos.first_player)] = 1
    d["progress"][:] = (pos.rounds / scales["rounds"], pos.end_triggered,
                        pos.draw_pile_size() / scales["cards"])
    d["supply"][:] = np.asarray(pos.supply, np.float32) / scales["supply"]
    turn = pos.turn
    d["step"][min(turn.step, MAX_START_RECRUIT)] = 1
    d["capture_used"][0] = turn.capture_used / scales["capture"]
    for row, crossed in enumerate((turn.trained_up, turn.trained_down)):
        for boundary in crossed:
            d["trained"][row, BOUNDARIES.index(boundary)] = 1
    if turn.effect_card is not None:
        d["effect_card"][turn.effect_card.index] = 1


def _write_cards(d: dict[str, np.ndarray], pos: Any, seats: Any, rel: _Relative,
                 per_need: np.ndarray) -> None:
    """Where every card is; what is on every animal on a board. Columns
    are gathered in Python lists and written with one numpy call each."""
    column = [_COLUMN[Location.OUT]] * len(pos.card_set.cards)   # unless found below
    for indices, loc in ((pos.draw_pile_contents(), Location.DECK),
                         ([c.index for c in pos.discard_pile], Location.DISCARD),
                         ([c.index for c in pos.mission], Location.MISSION)):
        for i in indices:
            column[i] = _COLUMN[loc]
    animals, on, movable = [], [], []
    for view in seats:
        r = rel.of(view.seat)
        for loc, cards in zip(_SEAT_PLACES, (
                [a.card for a in view.board], view.released, view.protected)):
            for card in cards:
                column[card.index] = _COLUMN[loc] + r
        for animal in view.board:
            animals.append(animal.card.index)
            on.append(animal.on)
            movable.append(animal.movable)
    d["location"][np.arange(len(column)), column] = 1
    mission = [c.index for c in pos.mission]
    d["mission_slot"][mission, np.arange(len(mission))] = 1
    if animals:
        d["on"][animals] = np.asarray(on, np.float32) * per_need[animals]
        d["movable"][animals] = (np.asarray(movable, np.float32)
                                 * per_need[animals, :len(CARETAKERS)])


def _write_seat(d: dict[str, np.ndarray], view: Any, r: int,
                scales: dict[str, Any]) -> None:
    d["seat_fauna"][r, _FAUNA[view.fauna]] = 1
    fx, score = view.effects, view.score
    d["seat"][r] = (
        view.turns / scales["rounds"], view.track / TRACK_SIZE,
        view.spaces_used / scales["spaces"], view.capacity / MAX_SPACES,
        view.capture_limit / scales["capture"], fx.capture_bonus / scales["capture"],
        fx.extra_spaces / scales["extra_spaces"],
        fx.skip_survival / scales["skip_survival"],
        score.conservation / scales["score"], score.reputation / scales["score"],
        score.specialty / scales["score"], score.total / scales["score"])
    d["pool"][r] = np.asarray(view.pool, np.float32) / scales["supply"][:len(CARETAKERS)]
    for row, colour in enumerate(fx.start_recruit[:MAX_START_RECRUIT]):
        d["start_recruit"][r, row, _CARETAKER[colour]] = 1
    d["double_protect"][r] = np.asarray(fx.double_protect, np.float32) / scales["double_protect"]
    for source, target in fx.one_to_one:
        d["one_to_one"][r, _CARETAKER[source], _CARETAKER[target]] = 1


_ENCODERS: dict[str, ObservationEncoder] = {}


def observation_tensor(position: Any, seat: int) -> np.ndarray:
    """`ObservationEncoder(position.card_set).encode(position, seat)`, with
    one encoder kept per card set."""
    card_set = position.card_set
    encoder = _ENCODERS.get(card_set.sha256)
    if encoder is None:
        encoder = _ENCODERS[card_set.sha256] = ObservationEncoder(card_set)
    return encoder.encode(position, seat)
