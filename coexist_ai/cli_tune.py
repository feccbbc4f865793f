"""`coexist-ai tune`."""
from __future__ import annotations

import os
import shlex
import sys
from typing import TYPE_CHECKING

import click

from coexist_ai.cli_tournament import backend_options

if TYPE_CHECKING:
    from coexist_ai.tune.run import Outcome


@click.command()
@click.argument("spec")
@click.option("--param", "params", multiple=True, metavar="NAME=LO:HI[:STEP]",
              help="A parameter to tune, its range and its final perturbation "
                   "(default: a twentieth of the range, at least 1 for whole numbers); "
                   "repeat for more. It starts at SPEC's value.")
@click.option("--against", default=None,
              help="A fixed opponent that theta+ and theta- each play [default at 2 "
                   "players: none, theta+ plays theta-; at 3-4: SPEC as given].")
@click.option("--players", default=2, show_default=True, type=click.IntRange(2, 4))
@click.option("--iterations", default=300, show_default=True, type=click.IntRange(1),
              help="SPSA iterations; the gains depend on it, so it cannot change on resume.")
@click.option("--games-per-iteration", "games", default=None, type=click.IntRange(1),
              help="Games an iteration, rounded up to whole deals [default: one deal: "
                   "2 games theta+ vs theta-, 2 x players with --against].")
@click.option("--seed", default=None, type=int,
              help="Seed of every random choice [default: the run's in --out, else a "
                   "fresh one, printed].")
@click.option("--rate", default=None, type=click.FloatRange(0, min_open=True),
              help="SPSA learning rate r: a_end = r * step^2 [default: 12/sqrt(iterations)].")
@click.option("--jobs", default=None, type=click.IntRange(1),
              help="Parallel games [default: all cores]; an iteration's games run together.")
@click.option("--out", default=None,
              help="Folder of the run: run.json, games.jsonl, theta.csv, theta.json "
                   "(rerun the same command to resume).")
@click.option("--cards", "cards_spec", default="default", show_default=True)
@click.option("--quiet", is_flag=True, help="No progress line.")
@backend_options
def tune(spec: str, params: tuple[str, ...], against: str | None, players: int,
         iterations: int, games: int | None, seed: int | None, rate: float | None,
         jobs: int | None, out: str | None, cards_spec: str, quiet: bool, backend: str,
         address: str | None) -> None:
    """Tune SPEC's numeric parameters by SPSA over duplicate deals.

    Each iteration perturbs every parameter by +-c_k (a random sign each),
    plays theta+ against theta- (or each against --against) over fresh
    deals in every seat order, and moves theta by a_k * result / (2 c_k)
    along the signs. Prints the tuned spec; --out keeps every game, the
    history of theta (CSV and JSON) and resumes.

    \b
    Example:
      coexist-ai tune ismcts:iterations=1000 --param c=0.1:2 \\
          --param margin_weight=0:0.5 --iterations 300 --seed 1 --out tune-c
    """
    from coexist_ai.cli import card_set_option_value
    from coexist_ai.cli_tournament import choose_seed
    from coexist_ai.tune import Settings, tune as run_tune
    from coexist_ai.tune.store import recorded_seed
    if seed is None:
        seed = recorded_seed(out)
    seed = choose_seed(seed, None, click.echo)
    settings = Settings(spec, params, against, players, iterations, games, seed, rate,
                        cards_spec, card_set_option_value(cards_spec))
    outcome = run_tune(settings, out, jobs or os.cpu_count() or 1, backend, address,
                       progress=not quiet, echo=click.echo)
    _report(outcome, out)


def _report(outcome: Outcome, out: str | None) -> None:
    from coexist_ai.tune.run import format_value
    moves = ", ".join(f"{d.name} {format_value(d, a)} -> {format_value(d, b)}" for d, a, b in
                      zip(outcome.settings.dimensions, outcome.start, outcome.theta))
    click.echo(f"{len(outcome.history)} iterations, {outcome.games} games "
               f"({outcome.forfeits} with a forfeit): {moves}")
    if out:
        click.echo(f"history: {out}/theta.csv, {out}/theta.json; games: {out}/games.jsonl")
    if outcome.interrupted:
        again = "coexist-ai " + shlex.join(sys.argv[1:])
        click.echo(f"interrupted after {len(outcome.history)} iterations; " + (
            f"the games are in {out}: resume with\n  {again}" if out else
            "none was saved (no --out): rerun with --out DIR to keep the games"), err=True)
        sys.exit(130)
    click.echo(f"tuned: {outcome.spec}")
