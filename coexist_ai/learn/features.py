"""The features of the learned evaluation, by name, and a reference
computation of them from the typed views of a position.

The search computes them in C (csrc/cx_learned.c, `_search.learned_features`);
this module reads the same quantities a second way, through the views, so
that tests can check the compiled features on any position. Every feature is
a public fact: the draw pile enters by its size only.
"""
from typing import Any

import numpy as np

from coexist_ai import _search
from coexist_ai.vocabulary import CARETAKERS, MAX_PLAYERS, MIN_PLAYERS, Fauna, Location

# one seat's features, in the order of csrc/cx_learned.h's CX_LF_* enum
SEAT_FEATURES = (
    "conservation", "reputation", "specialty", "track", "released", "board",
    "board_value", "board_progress", "ready_value", "missing_caretakers",
    "missing_survival", "pool", "loose_pool", "free_spaces", "capture_limit",
    "start_recruit", "extra_spaces", "capture_bonus", "skip_survival",
    "double_protect", "one_to_one")
FAUNAS = tuple(Fauna)
PLAYER_COUNTS = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
FEATURE_NAMES = (
    tuple(f"own.{name}" for name in SEAT_FEATURES)
    + tuple(f"others.{name}" for name in SEAT_FEATURES)
    + ("best_other_score", "to_move", "played_round")
    + tuple(f"fauna.{fauna}" for fauna in FAUNAS)
    + ("deck_left", "end_triggered", "rounds")
    + tuple(f"players.{n}" for n in PLAYER_COUNTS)
    + ("mission_value",))
assert len(FEATURE_NAMES) == _search.LEARNED_FEATURES, "csrc/cx_learned.h changed"


def _board(seat: Any) -> dict[str, float]:
    """The board features: pool caretakers matched, in board order, to the
    animals that still need them."""
    pool: dict[str, int] = dict(seat.pool._asdict())
    value = progress = ready = missing_care = missing_s = 0.0
    for animal in seat.board:
        card = animal.card
        have = sum(animal.on)
        for colour in CARETAKERS:
            missing = animal.needs.of(colour)
            matched = min(missing, pool[colour])
            pool[colour] -= matched
            have += matched
            missing_care += missing - matched
        missing_s += animal.needs.S
        need = sum(card.needs)
        value += card.conservation
        progress += card.conservation * (have / need if need else 1.0)
        ready += card.conservation if animal.complete else 0
    return {"board": len(seat.board), "board_value": value,
            "board_progress": progress, "ready_value": ready,
            "missing_caretakers": missing_care, "missing_survival": missing_s,
            "pool": sum(seat.pool), "loose_pool": sum(pool.values())}


def seat_features(seat: Any) -> dict[str, float]:
    """The SEAT_FEATURES of one views.SeatView, as a dict."""
    effects = seat.effects
    g: dict[str, float] = {"conservation": seat.score.conservation, "reputation": seat.score.reputation,
         "specialty": seat.score.specialty, "track": seat.track,
         "released": len(seat.released),
         "free_spaces": seat.capacity - seat.spaces_used,
         "capture_limit": seat.capture_limit,
         "start_recruit": len(effects.start_recruit),
         "extra_spaces": effects.extra_spaces, "capture_bonus": effects.capture_bonus,
         "skip_survival": effects.skip_survival,
         "double_protect": sum(effects.double_protect),
         "one_to_one": len(effects.one_to_one)}
    g.update(_board(seat))
    return g


def reference_features(position: Any) -> np.ndarray:
    """FEATURE_NAMES of every seat of a position, shape (players, features)."""
    seats = position.seats
    n = len(seats)
    in_game = sum(1 for c in position.card_set.cards
                  if position.location(c).location != Location.OUT)
    mission_value = sum(c.conservation for c in position.mission if c.is_animal)
    per_seat = [seat_features(seat) for seat in seats]
    rows = []
    for p, seat in enumerate(seats):
        others = [q for q in range(n) if q != p]
        x = dict.fromkeys(FEATURE_NAMES, 0.0)
        for name in SEAT_FEATURES:
            x[f"own.{name}"] = per_seat[p][name]
            x[f"others.{name}"] = sum(per_seat[q][name] for q in others) / len(others)
        x["best_other_score"] = max(seats[q].score.total for q in others)
        x["to_move"] = float(position.turn_seat == p)
        x["played_round"] = float(seat.turns > position.rounds)
        x[f"fauna.{seat.fauna}"] = 1.0
        x["deck_left"] = position.draw_pile_size() / in_game
        x["end_triggered"] = float(position.end_triggered)
        x["rounds"] = position.rounds
        x[f"players.{n}"] = 1.0
        x["mission_value"] = mission_value
        rows.append([x[name] for name in FEATURE_NAMES])
    return np.array(rows, dtype=np.float32)
