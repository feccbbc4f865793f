"""What the page draws, as JSON-ready dicts, from a seat's Observation.

`board_view` refuses a State: an Observation has the draw pile's order
erased, so nothing built here can carry it (the page gets the pile's size
only). Cards carry their printed facts (name, fauna, values, needs, what a
protect gives, the effect in words) so that the page needs no card list.
"""
from __future__ import annotations

from typing import Any

from coexist_ai import _engine
from coexist_ai.vocabulary import IMMEDIATE_EFFECTS, TOKENS, TRACK_POINTS, TRACK_SIZE, EffectKind
from coexist_ai.web import words


def tokens(counts: Any) -> dict[str, int]:
    """{colour: count} for the non-zero counts, in the order C F P H S."""
    return {TOKENS[i]: n for i, n in enumerate(counts) if n}


def card_view(card: Any) -> dict[str, Any]:
    """A card's printed face."""
    if not card.is_animal:
        return {"id": card.id, "animal": False, "fauna": card.fauna,
                "colour": card.colour, "name": card.name}
    effect = card.effect
    return {"id": card.id, "animal": True, "name": card.name, "fauna": card.fauna,
            "capture": card.capture, "conservation": card.conservation,
            "needs": tokens(card.needs), "protect": tokens(card.protect),
            "effect": words.describe_effect(effect),
            "effect_kind": effect.kind if effect else None}


def animal_view(animal: Any) -> dict[str, Any]:
    """An animal on a Center and the tokens on it."""
    view = card_view(animal.card)
    view.update(on=tokens(animal.on), still_needs=tokens(animal.needs),
                movable=tokens(animal.movable), complete=animal.complete)
    return view


def track_view(track: int) -> list[dict[str, Any]]:
    """The 8 spaces left to right: covered by a Survival token or not, and
    what each prints (points, or a capture icon)."""
    return [{"covered": i < track, "points": TRACK_POINTS[i]} for i in range(TRACK_SIZE)]


def seat_view(seat: Any, release_goal: int) -> dict[str, Any]:
    score = seat.score
    # the lasting effects of its released animals, in the short words of a card's line
    effects = [words.effect_brief(c.effect) for c in seat.released
               if c.effect and EffectKind(c.effect.kind) not in IMMEDIATE_EFFECTS]
    return {
        "seat": seat.seat, "fauna": str(seat.fauna),
        "specialty": words.SPECIALTY[str(seat.fauna)], "turns": seat.turns,
        "score": score.as_dict(), "track": seat.track, "track_spaces": track_view(seat.track),
        "capture_limit": seat.capture_limit, "points_visible": score.reputation,
        "pool": tokens(seat.pool), "spaces_used": seat.spaces_used,
        "capacity": seat.capacity, "board": [animal_view(a) for a in seat.board],
        "released": [card_view(c) for c in seat.released], "release_goal": release_goal,
        "protected": [card_view(c) for c in seat.protected], "effects": effects,
    }


def board_view(obs: Any) -> dict[str, Any]:
    """The whole public position."""
    if not isinstance(obs, _engine.Observation):
        # a State holds the draw pile's real order: never serialize one
        raise TypeError(f"board_view needs an Observation, not {type(obs).__name__}")
    cs, turn = obs.card_set, obs.turn
    n = obs.num_players
    over = obs.is_over()
    view = {
        "card_set": cs.display_name, "players": n, "viewer": obs.viewer,
        "first_player": obs.first_player, "current": None if over else obs.current_player,
        "phase": str(obs.phase), "round": obs.rounds + (0 if over else 1),
        "over": over, "end_triggered": obs.end_triggered,
        "last_seat": (obs.first_player - 1) % n,
        "supply": obs.supply._asdict(), "draw_pile": obs.draw_pile_size(),
        "discard_pile": len(obs.discard_pile),
        "mission": [card_view(c) for c in obs.mission],
        "seats": [seat_view(s, cs.rules["release_goal"]) for s in obs.seats],
        "turn": {"capture_used": turn.capture_used, "trained_up": list(turn.trained_up),
                 "trained_down": list(turn.trained_down),
                 "effect_card": card_view(turn.effect_card) if turn.effect_card else None},
    }
    view["decision"] = decision_text(obs, view)
    return view


def decision_text(obs: Any, view: dict[str, Any]) -> str:
    """What the seat to move is deciding, in words."""
    if view["over"]:
        return "The game is over."
    seat = obs.seat(obs.current_player)
    phase = view["phase"]
    if phase == "effect":
        card = obs.turn.effect_card
        return f"The effect of {card.name}: {words.describe_effect(card.effect)}."
    if phase == "start":
        starts = seat.effects.start_recruit
        step = obs.turn.step
        colour = starts[step] if step < len(starts) else "?"
        return f"Start of turn: gain 1 {colour} (apply) or not (skip)."
    if phase == "house":
        return (f"Mission B: house more animals, or end (capture used "
                f"{obs.turn.capture_used} of {seat.capture_limit}).")
    if phase == "choose" and seat.turns == 0:
        return "Choose the turn's option: a first turn opens only the Mission."
    return str(DECISIONS.get(phase, phase))


DECISIONS = {
    "choose": "Choose the turn's option: Mission (recruit a caretaker card or house "
              "an animal), Conservation Center, or Training.",
    "recruit": "Mission A: recruit more caretaker cards, or end.",
    "center": "Conservation Center: protect, assign, move, unassign, release; then end.",
    "train": "Training: trade pool caretakers, then end.",
    "discard": "End of turn, over capacity: discard until within capacity.",
}


def move_view(card_set: Any, move: str) -> dict[str, Any]:
    """A legal move for the page: its notation, its parts (word, colours,
    cards) for matching clicks, and its words."""
    word, *args = move.split()
    colours = [a for a in args if a in TOKENS]
    cards = [a for a in args if a not in TOKENS]
    return {"move": move, "word": word, "colours": colours, "cards": cards,
            "text": words.describe_move(card_set, move)}
