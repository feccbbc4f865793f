"""`coexist-ai balance`: the balance laboratory of a card set."""
from __future__ import annotations

from collections.abc import Sequence

import click

from coexist_ai.cli_tournament import choose_seed

PLAYER_COUNTS = (2, 3, 4)


def parse_players(text: str) -> tuple[int, ...]:
    try:
        counts = tuple(dict.fromkeys(int(x) for x in text.split(",") if x.strip()))
    except ValueError:
        counts = ()
    if not counts or any(c not in PLAYER_COUNTS for c in counts):
        raise click.BadParameter(f"{text!r}: expected player counts from 2, 3, 4 "
                                 "separated by commas (e.g. 2,3,4)", param_hint="--players")
    return counts


def parse_games(text: str, counts: Sequence[int]) -> dict[int, int]:
    """--games: one number for every player count, or one per count."""
    try:
        numbers = [int(x) for x in text.split(",")]
    except ValueError:
        numbers = []
    if len(numbers) == 1:
        numbers *= len(counts)
    if len(numbers) != len(counts) or min(numbers) < 1:
        raise click.BadParameter(f"{text!r}: expected a whole number >= 1, or one per "
                                 f"player count ({len(counts)}: {','.join(map(str, counts))})",
                                 param_hint="--games")
    return dict(zip(counts, numbers))


def _existing_seed(out: str, counts: Sequence[int], seed: int | None) -> int:
    """The seed given, else that of the study's records already in `out`
    (rerunning the command resumes), else a fresh one, printed."""
    import os
    for players in counts:
        path = os.path.join(out, f"games-{players}p.jsonl")
        if seed is None and os.path.isfile(path):
            return choose_seed(None, path, click.echo)
    return choose_seed(seed, None, click.echo)


@click.command()
@click.argument("cards_spec", metavar="CARDS")
@click.option("--players", "players_text", default="2,3,4", show_default=True,
              help="Player counts to study, separated by commas.")
@click.option("--bot", "bot_spec", default="greedy", show_default=True,
              help="The bot in every seat (the stronger, the more the figures say).")
@click.option("--games", "games_text", default="2000", show_default=True,
              help="Games at each player count, or one number per count in the order "
                   "of --players (a larger number extends a study).")
@click.option("--jobs", default=None, type=click.IntRange(1),
              help="Parallel games [default: all cores].")
@click.option("--out", type=click.Path(file_okay=False),
              help="The study's folder: its records (rerun to resume) and its report "
                   "[default: balance-NAME].")
@click.option("--seed", default=None, type=int,
              help="[default: the seed of the records in --out, else a fresh one, printed]")
@click.option("--tolerance", default=3.0, show_default=True, type=click.FloatRange(0, 50),
              help="Percentage points from the fair share within which a set is fair.")
@click.option("--quiet", is_flag=True, help="No progress line.")
def balance(cards_spec: str, players_text: str, bot_spec: str, games_text: str,
            jobs: int | None, out: str | None, seed: int | None, tolerance: float,
            quiet: bool) -> None:
    """How fair the card set CARDS (a packaged name or a TOML file) is to
    every specialty, played by equal bots.

    Plays GAMES games at each player count with the bot in every seat,
    records them in OUT (resumable like a tournament: rerun the same
    command), replays each record to follow every card, and writes
    OUT/report.html (figures, sortable card tables), OUT/report.json and
    CSV files beside it; the summary is printed.

    \b
    Examples:
      coexist-ai balance default --games 2000 --out balance-v1
      coexist-ai balance my-cards.toml --players 4 --bot ismcts:iterations=500
    """
    from coexist_ai.balance import report, study
    from coexist_ai.balance.text import study_lines
    from coexist_ai.bots import make_bot
    from coexist_ai.cli import card_set_option_value
    card_set = card_set_option_value(cards_spec, "CARDS")
    make_bot(bot_spec).close()                 # refuse a bad spec before any game
    counts = parse_players(players_text)
    games = parse_games(games_text, counts)
    out = out or f"balance-{card_set.name}"
    seed = _existing_seed(out, counts, seed)
    s = study.Study(cards_spec, card_set, counts, bot_spec, games, seed, out)
    runs = study.play(s, jobs, progress=not quiet, echo=click.echo)
    if any(r.interrupted for r in runs.values()):
        import shlex
        import sys
        click.echo("interrupted; the games played are in " + out + ": resume with\n  "
                   "coexist-ai " + shlex.join(sys.argv[1:]), err=True)
        sys.exit(130)
    facts = {p: study.facts_of(study.recorded_games(s, p), card_set) for p in counts}
    summary = study.summarize(s, facts, tolerance / 100)
    written = report.write(summary, out)
    click.echo("\n".join(study_lines(summary)))
    click.echo(f"report: {', '.join(written)}")
