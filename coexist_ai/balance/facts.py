"""What happened in one recorded game, learned by replaying it.

A game record holds the deal and every move (docs/formats.md), not what
became of each card. Replaying the moves on the engine gives it: the final
position says where every animal ended (its typed views: `location`, each
seat's `released` and `protected`), and the moves on the way say who
discarded what, which effects were applied and what triggered the end. The
records format stays as it is.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from coexist_ai import _engine
from coexist_ai.cards import Card, CardSet
from coexist_ai.errors import CoexistError
from coexist_ai.notation import split_action
from coexist_ai.vocabulary import ActionKind, Location, Phase

# What became of an animal by the end of a game. Every animal that was
# housed ends protected, released, discarded or still on a board; the
# others never left the draw pile or the Mission; "out": its fauna was not
# in the game.
FATES = ("out", "deck", "mission", "board", "protected", "released", "discarded")
HOUSED = ("board", "protected", "released", "discarded")
_FATE_OF = {Location.OUT: "out", Location.DECK: "deck", Location.MISSION: "mission",
            Location.BOARD: "board", Location.PROTECTED: "protected",
            Location.RELEASED: "released", Location.DISCARD: "discarded"}

END_REASONS = ("release goal", "draw pile", "round safeguard")


@dataclass(frozen=True)
class GameFacts:
    """One finished game, by seat where it says so."""
    players: int
    faunas: tuple[str, ...]        # specialty by seat
    order: tuple[int, ...]         # turn order by seat: 0 moved first
    wins: tuple[float, ...]        # 1 for the winner, 1/k each for k sharing first
    scores: tuple[int, ...]
    parts: tuple[tuple[int, int, int], ...]   # conservation, reputation, specialty
    rounds: int
    moves: int
    end: str                       # one of END_REASONS
    fates: tuple[tuple[str, int | None], ...]  # per animal (card-set order): fate, seat
    released: tuple[tuple[str, ...], ...]      # by seat: effect kind of each release
    applied: tuple[tuple[str, ...], ...]       # by seat: each effect applied (immediate, start_recruit)


class ReplayError(CoexistError):
    """A record that does not replay on its card set."""


def game_facts(record: dict[str, Any], card_set: CardSet) -> GameFacts:
    """The facts of a finished (not forfeited) game record."""
    state = _engine.State.new(card_set, players=record["players"], faunas=record["faunas"],
                              first_player=record["first_player"], deck=record["deck"])
    players = state.num_players
    applied: list[list[str]] = [[] for _ in range(players)]
    discarded_by: dict[int, int] = {}
    end = "round safeguard"
    for number, (seat, move) in enumerate(record["moves"], 1):
        phase, step = state.phase, None
        if phase == Phase.EFFECT:
            turn = state.turn
            in_play = turn.effect_card    # the effect phase always has one
            assert in_play is not None and in_play.effect is not None
            effect, step = in_play.effect.kind, turn.step
        try:
            action = state.push(move)
        except ValueError as error:
            raise ReplayError(f"move {number} ({move!r}): {error}") from None
        kind, _, _, card, _ = split_action(action)
        if phase == Phase.START and kind == ActionKind.APPLY:
            applied[seat].append("start_recruit")
        elif phase == Phase.EFFECT and step == 0 and kind not in (ActionKind.SKIP,
                                                                  ActionKind.END):
            applied[seat].append(effect)
        elif kind == ActionKind.DISCARD_ANIMAL:
            discarded_by[card] = seat
        if end == "round safeguard" and state.end_triggered:
            end = "release goal" if kind == ActionKind.RELEASE else "draw pile"
    if not state.is_over() or state.scores() != record["scores"]:
        raise ReplayError("the moves do not lead to the recorded end and scores")
    return _facts(record, state, end, discarded_by, applied)


def _facts(record: dict[str, Any], state: _engine.State, end: str,
           discarded_by: dict[int, int], applied: list[list[str]]) -> GameFacts:
    players, first = state.num_players, state.first_player
    ranks = state.ranks()
    winners = ranks.count(1)
    seats = state.seats
    return GameFacts(
        players=players, faunas=tuple(str(seat.fauna) for seat in seats),
        order=tuple((p - first) % players for p in range(players)),
        wins=tuple(1.0 / winners if r == 1 else 0.0 for r in ranks),
        scores=tuple(state.scores()),
        parts=tuple((s.conservation, s.reputation, s.specialty)
                    for s in state.score_breakdown()),
        rounds=state.rounds, moves=len(record["moves"]), end=end,
        fates=tuple(_fate(state, card, discarded_by) for card in state.card_set.animals()),
        released=tuple(tuple(c.effect.kind for c in seat.released if c.effect)
                       for seat in seats),
        applied=tuple(map(tuple, applied)))


def _fate(state: _engine.State, card: Card, discarded_by: dict[int, int]
          ) -> tuple[str, int | None]:
    place = state.location(card)
    fate = _FATE_OF[place.location]
    return fate, discarded_by.get(card.index) if fate == "discarded" else place.seat
