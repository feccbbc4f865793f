"""Print a game move by move (used by `coexist-ai game`)."""
import random
from collections.abc import Callable

from coexist_ai import _engine
from coexist_ai.cards import CardSet


def print_random_game(card_set: CardSet, players: int, seed: int,
                      echo: Callable[[str], object]) -> None:
    state = _engine.State.new(card_set, players=players, seed=seed)
    rng = random.Random(seed)
    faunas = [str(seat.fauna) for seat in state.seats]
    echo(f"card set {card_set.name!r}, {players} players, seed {seed}, "
         f"faunas by seat: {', '.join(faunas)}")
    turn_of: int | None = None
    while not state.is_over():
        seat = state.current_player
        if seat != turn_of:
            echo(f"round {state.rounds + 1}, seat {seat} ({faunas[seat]}):")
            turn_of = seat
        action = rng.choice(state.legal_actions())
        echo(f"  {state.move_name(action)}")
        state.apply(action)
        if state.current_player != seat:
            turn_of = None
    echo("final score:")
    for seat, (parts, rank) in enumerate(zip(state.score_breakdown(), state.ranks())):
        echo(f"  seat {seat} ({faunas[seat]}): {parts.conservation} + "
             f"{parts.reputation} + {parts.specialty} = {parts.total}, "
             f"place {rank}")
