"""`coexist-ai tournament ratings | export | report`: what records say,
as a table, as files other programs read, as a report with figures."""
from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING

import click

from coexist_ai.cli_tournament import tournament

if TYPE_CHECKING:
    from coexist_ai.merged import GameOrder
    from coexist_ai.ratings import RatingTable
    from coexist_ai.results import Standings

FILES = click.argument("files", nargs=-1, required=True)
ANCHOR = click.option("--anchor", default=None,
                      help="The bot rated 0 [default: random if it played, else the "
                           "most-played bot of each group].")
MIX = click.option("--mix-players", is_flag=True,
                   help="Fit games of different player counts together (refused otherwise: "
                        "a 2-player Elo and a 4-player one are not the same scale).")


def load_standings(files: Iterable[str], mix_players: bool = False,
                   ordered: bool = False) -> tuple[Standings, GameOrder | None]:
    """Standings of the finished games in FILES (one card set; one player
    count unless `mix_players`), read one line at a time, and with
    `ordered` a GameOrder to read the games again in canonical order (else
    None)."""
    from coexist_ai import merged
    for path in files:
        if not os.path.lexists(path):
            raise click.BadParameter(f"no file {path!r}", param_hint="FILES")
    return merged.load(list(files), mix_players, lambda text: click.echo(text, err=True),
                       ordered)


def rating_table(standings: Standings, anchor: str | None) -> RatingTable:
    from coexist_ai import ratings
    return ratings.compute(standings, anchor, strict_anchor=anchor is not None)


@tournament.command("ratings")
@FILES
@ANCHOR
@MIX
def tournament_ratings(files: tuple[str, ...], anchor: str | None, mix_players: bool) -> None:
    """The rating table of the game records in FILES, merged.

    Per bot: games, pairwise wins/draws/losses, score, Elo with its 95%
    interval and the likelihood of being above the next bot; then the
    results of every pair, the likelihood-of-superiority matrix, failures
    with their reasons and the advantage of each seat. The same bot
    recorded under two names (a config's name and its spec) is one bot.

    \b
    Example:
      coexist-ai tournament ratings tournaments/results/ladder.jsonl --anchor greedy
    """
    from coexist_ai import tables
    standings, _ = load_standings(files, mix_players)
    click.echo(tables.rating_text(rating_table(standings, anchor), standings))


@tournament.command("export")
@FILES
@click.option("--format", "fmt", required=True, type=click.Choice(["pgn", "csv", "json"]),
              help="pgn: a game per pair of every finishing order (Ordo, BayesElo); "
                   "csv: a row per seat of every game; json: the rating table.")
@click.option("--out", type=click.Path(dir_okay=False), help="Write here [default: stdout].")
@ANCHOR
@MIX
def tournament_export(files: tuple[str, ...], fmt: str, out: str | None, anchor: str | None,
                      mix_players: bool) -> None:
    """Game records in FILES as PGN, CSV or JSON, for other programs.

    \b
    Examples:
      coexist-ai tournament export ladder.jsonl --format pgn --out ladder.pgn
      ordo -p ladder.pgn            # or: bayeselo, then readpgn ladder.pgn
      coexist-ai tournament export ladder.jsonl --format csv --out ladder.csv
      coexist-ai tournament export ladder.jsonl --format json
    """
    from coexist_ai import export
    standings, order = load_standings(files, mix_players, ordered=fmt != "json")
    chunks: Iterable[str]
    if fmt == "json":
        chunks = [export.json_text(rating_table(standings, anchor), standings)]
    else:
        assert order is not None, "asked for every format but json"
        chunks = export.pgn(standings, order) if fmt == "pgn" else \
            export.csv_chunks(standings, order)
    if out:
        from coexist_ai.paths import write_replacing
        write_replacing(out, chunks)   # never a device or a fifo; whole or not at all
        click.echo(f"wrote {out}")
    else:
        for chunk in chunks:
            click.echo(chunk, nl=False)


@tournament.command("report")
@FILES
@click.option("--out", required=True, type=click.Path(dir_okay=False),
              help="The HTML file; its PNG figures are written beside it.")
@ANCHOR
@MIX
def tournament_report(files: tuple[str, ...], out: str, anchor: str | None,
                      mix_players: bool) -> None:
    """An HTML report of the records in FILES, with PNG figures: Elo with
    intervals, the score matrix as a heat map, Elo against games played,
    the advantage of each seat (needs matplotlib: pip install
    'coexist-ai[report]').

    \b
    Example:
      coexist-ai tournament report tournaments/results/ladder.jsonl --out ladder.html
    """
    from coexist_ai import report
    from coexist_ai.paths import check_writable
    check_writable(out)
    standings, order = load_standings(files, mix_players, ordered=True)
    assert order is not None, "asked for"
    written = report.write(rating_table(standings, anchor), standings, order, out, anchor)
    click.echo(f"wrote {out} and {len(written)} figures: {', '.join(written)}")
