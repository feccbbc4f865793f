"""`coexist-ai tournament ratings | export | report`: what records say,
as a table, as files other programs read, as a report with figures."""
from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING

import click

from coexist_ai.cli_tournament import tournament
from coexist_ai.match import Record

if TYPE_CHECKING:
    from coexist_ai.ratings import RatingTable
    from coexist_ai.results import Standings

FILES = click.argument("files", nargs=-1, required=True)
ANCHOR = click.option("--anchor", default=None,
                      help="The bot rated 0 [default: random if it played, else the "
                           "most-played bot of each group].")
MIX = click.option("--mix-players", is_flag=True,
                   help="Fit games of different player counts together (refused otherwise: "
                        "a 2-player Elo and a 4-player one are not the same scale).")


def load_standings(files: Iterable[str], mix_players: bool = False) -> Standings:
    """Standings of the finished games in FILES (one card set; one player
    count unless `mix_players`)."""
    from coexist_ai.records import RecordsError, numbered_records, without_repeats
    from coexist_ai.results import Standings
    located: list[tuple[str, int, Record]] = []
    players: dict[int, str] = {}      # the first file of each player count
    sha, unfinished = None, 0
    for path in files:
        if not os.path.lexists(path):
            raise click.BadParameter(f"no file {path!r}", param_hint="FILES")
        for line, record in numbered_records(path):   # every field checked
            if record["end"] == "unfinished":   # a saved game still in play
                unfinished += 1
                continue
            this = record["card_set"]["sha256"]
            if sha and this != sha:
                raise RecordsError(f"{path}:{line}: mixes card sets ({this} after {sha}); "
                                   "ratings need one card set")
            sha = this
            players.setdefault(record["players"], path)
            located.append((path, line, record))
    records = without_repeats(located, lambda text: click.echo(text, err=True))
    if len(players) > 1 and not mix_players:
        counts = ", ".join(f"{p} players ({path})" for p, path in sorted(players.items()))
        raise RecordsError(f"the records mix games of {counts}; rate them apart, "
                           "or pass --mix-players to fit them together")
    if unfinished:
        click.echo(f"left out {unfinished} unfinished game(s)", err=True)
    return Standings(None, records)


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
    standings = load_standings(files, mix_players)
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
    standings = load_standings(files, mix_players)
    if fmt == "pgn":
        text = export.pgn(standings)
    elif fmt == "csv":
        text = export.csv_text(standings)
    else:
        text = export.json_text(rating_table(standings, anchor), standings)
    if out:
        from coexist_ai.paths import check_writable
        from coexist_ai.records import RecordsError
        check_writable(out)          # a device or a fifo is not overwritten
        try:
            with open(out, "w", encoding="utf-8", newline="") as f:
                f.write(text)
        except OSError as e:
            raise RecordsError(f"cannot write to {out}: {e.strerror}") from None
        click.echo(f"wrote {out}")
    else:
        click.echo(text, nl=False)


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
    standings = load_standings(files, mix_players)
    written = report.write(rating_table(standings, anchor), standings, out, anchor)
    click.echo(f"wrote {out} and {len(written)} figures: {', '.join(written)}")
