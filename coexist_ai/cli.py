"""The `coexist-ai` command line."""
import sys

import click

from coexist_ai.cards import DEFAULT_NAME, PACKAGED_NAMES, CardSet, CardSetError
from coexist_ai.cards import resolve_card_set
from coexist_ai.errors import CoexistError


def card_set_option_value(spec: str, param_hint: str = "--cards") -> CardSet:
    """The card set a user named, or a usage error naming the option."""
    try:
        return resolve_card_set(spec)
    except CardSetError as e:
        raise click.BadParameter(str(e), param_hint=param_hint) from None


CARDS_OPTION = click.option(
    "--cards", "cards_spec", default="default", show_default=True,
    help=f"Card set: 'default' ({DEFAULT_NAME}), a packaged set's name "
         f"({', '.join(PACKAGED_NAMES)}) or a path to a TOML file.")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="coexist-ai")
def main() -> None:
    """Coexist AI: strong opponents and a tournament harness for Coexist."""


@main.command()
@click.option("--games", default=None, type=click.IntRange(100),
              help="Random 2-player games to time (half as many at 4 players); "
                   "default 20000, with --python 200 (as many at 4 players).")
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--search", "search", is_flag=True,
              help="Measure the ISMCTS search instead (iterations/s, threads, time budgets).")
@click.option("--python", "python", is_flag=True,
              help="Measure random playouts of the C engine against the pure-Python "
                   "reference rules instead.")
@click.option("--turns", "turns_spec", metavar="BOTSPEC",
              help="Measure the seconds BOTSPEC takes per turn instead (what a person "
                   "waits), over --turn-games games against greedy.")
@click.option("--turn-games", default=3, show_default=True, type=click.IntRange(1))
@click.option("--openspiel", "openspiel", is_flag=True,
              help="Measure OpenSpiel's MCTS through coexist_ai.openspiel, over the "
                   "C engine and over the pure-Python reference (needs [openspiel]).")
@click.option("--simulations", default=200, show_default=True, type=click.IntRange(1),
              help="With --openspiel: MCTS simulations per search.")
@CARDS_OPTION
def bench(games: int | None, seed: int, search: bool, python: bool,
          turns_spec: str | None, turn_games: int, openspiel: bool, simulations: int,
          cards_spec: str) -> None:
    """Measure the rules engine: games/s, actions/s, copy cost, API overhead."""
    from coexist_ai.bench import (format_figures, run_bench, run_openspiel_bench,
                                  run_python_bench, run_search_bench, turn_seconds)
    card_set = card_set_option_value(cards_spec)
    if turns_spec:
        from coexist_ai.bots import make_bot
        make_bot(turns_spec).close()              # refuse a bad spec now
        figures = turn_seconds(card_set, turns_spec, turn_games, seed)
    elif search:
        figures = run_search_bench(card_set)
    elif openspiel:
        figures = run_openspiel_bench(cards_spec, simulations, seed)
    elif python:
        figures = run_python_bench(card_set, games or 200, seed)
    else:
        figures = run_bench(games or 20000, seed, card_set)
    click.echo(format_figures(figures))


@main.command()
@click.option("--players", default=2, show_default=True, type=click.IntRange(2, 4))
@click.option("--seed", default=1, show_default=True, type=int)
@CARDS_OPTION
def game(players: int, seed: int, cards_spec: str) -> None:
    """Play one game of uniformly random moves and print it move by move."""
    from coexist_ai.showgame import print_random_game
    print_random_game(card_set_option_value(cards_spec), players, seed, click.echo)


@main.group()
def cards() -> None:
    """Card sets: check a file, report how a set plays."""


@cards.command("check")
@click.argument("path")
@click.option("--design", is_flag=True,
              help="Also check RULES.md's design rules of a packaged set (published "
                   "counts, values rising with needs, \"often 1 S\"...); exit 1 if one breaks.")
def cards_check(path: str, design: bool) -> None:
    """Validate a card-set TOML file."""
    card_set = card_set_option_value(path)
    click.echo(f"{path}: card set {card_set.name!r} is valid: "
               f"{len(card_set.animals())} animals, {len(card_set.caretakers())} "
               f"caretaker cards, sha256 {card_set.sha256}")
    if design:
        from coexist_ai.balance.design import design_problems
        problems = design_problems(card_set)
        for problem in problems:
            click.echo(f"design: {problem}")
        click.echo(f"design rules: {len(problems) or 'none'} broken")
        if problems:
            raise SystemExit(1)


@cards.command("report")
@click.option("--games", default=400, show_default=True, type=click.IntRange(1),
              help="Games at each player count.")
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--bot", "bot_spec", default="random", show_default=True,
              help="The bot playing every seat (e.g. greedy for sensible play).")
@click.option("--players", "players_text", default="2,3,4", show_default=True,
              help="Player counts, separated by commas.")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(1),
              help="Parallel games.")
@CARDS_OPTION
def cards_report(games: int, seed: int, bot_spec: str, players_text: str, jobs: int,
                 cards_spec: str) -> None:
    """Game length, scores, effects, specialty and seat balance of a card
    set, with 95% intervals: the quick version of `coexist-ai balance`
    (no records, no HTML)."""
    from coexist_ai.bots import make_bot
    from coexist_ai.cardreport import card_set_report
    from coexist_ai.cli_balance import parse_players
    card_set = card_set_option_value(cards_spec)
    make_bot(bot_spec).close()
    click.echo(card_set_report(card_set, games, seed, parse_players(players_text),
                               bot_spec, jobs, cards_spec))


from coexist_ai.cli_tournament import bots, duel, tournament  # noqa: E402

main.add_command(duel)
main.add_command(tournament)
main.add_command(bots)
from coexist_ai.cli_protocol import protocol, serve  # noqa: E402
main.add_command(serve)
main.add_command(protocol)
from coexist_ai.cli_balance import balance  # noqa: E402
main.add_command(balance)
from coexist_ai.cli_play import levels, play, replay  # noqa: E402
main.add_command(play)
main.add_command(levels)
main.add_command(replay)
from coexist_ai.cli_tune import tune  # noqa: E402
main.add_command(tune)
from coexist_ai.cli_web import web  # noqa: E402
main.add_command(web)
from coexist_ai.cli_learn import train  # noqa: E402
main.add_command(train)
from coexist_ai.cli_policy import fit_policy  # noqa: E402
main.add_command(fit_policy)


def run() -> None:
    """Entry point that turns user mistakes into one clear line, no traceback."""
    try:
        main(standalone_mode=True)
    except CoexistError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
