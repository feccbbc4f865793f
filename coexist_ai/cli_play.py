"""`coexist-ai play` (a person against bots) and `coexist-ai replay`."""
from __future__ import annotations

import os
import secrets
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

import click
from click.core import ParameterSource

from coexist_ai.cards import DEFAULT_NAME
from coexist_ai.cards import FAUNAS as FAUNA_NAMES
from coexist_ai.cards import CardSet, CardSetError, card_set_named_by, resolve_card_set

if TYPE_CHECKING:
    from coexist_ai.bots.levels import Level
    from coexist_ai.match import Record

T = TypeVar("T")

COLOR_OPTION = click.option(
    "--color", "color", default="auto", show_default=True,
    type=click.Choice(["auto", "always", "never"]),
    help="Colour: auto = only on a terminal, and not when NO_COLOR is set.")
CARDS_OPTION = click.option(
    "--cards", "cards_spec", default=None,
    help=f"Card set: a packaged set's name, 'default' ({DEFAULT_NAME}) or a path to a "
         "TOML file [default: for a saved game, the packaged set it names; else "
         "the default].")
NEW_GAME_OPTIONS = ("players", "vs", "level", "seat", "seed", "fauna")


def _card_set(spec: str | None, record: Record | None = None) -> CardSet:
    """The set given, else (for a record) the packaged set it names, else
    the default."""
    try:
        return card_set_named_by(record.get("card_set"), spec) if record \
            else resolve_card_set(spec)
    except CardSetError as e:
        raise click.BadParameter(str(e), param_hint="--cards") from None


BUDGETS = {"iterations", "time", "turn_iterations", "turn_time"}


def with_time(spec: str, seconds: float) -> str:
    """An ismcts spec that sets no budget searches for `seconds` a turn
    (all its decisions together: a person waits for the turn)."""
    name, _, rest = spec.partition(":")
    keys = {item.partition("=")[0].strip() for item in rest.split(",") if item.strip()}
    if name.strip() != "ismcts" or keys & BUDGETS:
        return spec
    return f"{spec}{',' if rest else ':'}turn_time={seconds:g}"


def opponent_specs(vs: tuple[str, ...], players: int, seconds: float,
                   level: str | None = None) -> list[str]:
    """One spec per opponent from --vs (none, one for all, or one each) or
    the preset of --level."""
    vs = level_specs(vs, level)
    if not vs:
        vs = ("ismcts",)
    if len(vs) == 1:
        vs = vs * (players - 1)
    if len(vs) != players - 1:
        raise click.BadParameter(f"{len(vs)} given for {players - 1} opponents: give "
                                 "--vs once for all of them or once per opponent",
                                 param_hint="--vs")
    return [with_time(s, seconds) for s in vs]


LEVEL_OPTION = click.option(
    "--level", metavar="NAME", help="Opponents of a difficulty level (`coexist-ai levels`: "
    "beginner ... expert, with their Elo) instead of --vs.")


def level_specs(vs: tuple[str, ...], level: str | None) -> tuple[str, ...]:
    """--vs, or the spec of --level's preset (one of them)."""
    if level and vs:
        raise click.UsageError("--level and --vs: give one of them")
    return (level_named(level).spec,) if level else vs


def level_named(name: str) -> Level:
    from coexist_ai.bots.levels import level
    from coexist_ai.bots.spec import BotSpecError
    try:
        return level(name)
    except BotSpecError as e:
        raise click.BadParameter(str(e), param_hint="--level") from None


def describe_opponents(specs: Sequence[object]) -> list[str]:
    """A line per opponent that is a level: its name and Elo."""
    from coexist_ai.bots.levels import level_of_spec
    shown = []
    for spec in dict.fromkeys(specs):
        lv = level_of_spec(spec)
        if lv is not None:
            shown.append(f"Level {lv.name}: Elo {lv.elo_text()} ({lv.description}).")
    return shown


def default_save_path() -> str:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path, n = f"coexist-game-{stamp}.jsonl", 1
    while os.path.exists(path):
        n += 1
        path = f"coexist-game-{stamp}-{n}.jsonl"
    return path


def _in_game(path: str, index: int, make: Callable[[], T]) -> T:
    """make(): a replay or a resumed game of the record at `index` of the
    file at `path`, whose refusals (a move that cannot be played, a deck
    that is not the card set's, a bot spec that names no bot) name that
    file and game."""
    from coexist_ai.errors import CoexistError
    from coexist_ai.play.gamefile import GameFileError
    try:
        return make()
    except CoexistError as e:
        raise GameFileError(f"{path}: game {index + 1}: {e}") from None


def _existing_records(path: str) -> list[Record]:
    """The games already in the save file (refused before the game if it
    is no file to save to, not at the game's first save)."""
    from coexist_ai.play.gamefile import check_save_path
    from coexist_ai.records import read_records
    check_save_path(path)
    return read_records(path) if os.path.exists(path) else []


@click.command()
@click.option("--players", default=2, show_default=True, type=click.IntRange(2, 4),
              help="Seats at the table: you and players-1 bots.")
@click.option("--vs", multiple=True, metavar="BOTSPEC",
              help="Opponent bot spec: once for all opponents, or once per opponent "
                   "in seat order [default: ismcts searching --time a turn].")
@LEVEL_OPTION
@click.option("--seat", default=0, show_default=True, type=click.IntRange(0, 3),
              help="Your seat (seat 0 plays first).")
@click.option("--seed", type=int, help="Deal seed (faunas and draw pile) [default: random].")
@click.option("--fauna", type=click.Choice(FAUNA_NAMES),
              help="Your fauna specialty; the others are drawn from the seed "
                   "[default: all drawn from the seed].")
@click.option("--time", "seconds", default=1.0, show_default=True,
              type=click.FloatRange(0.01, 3600),
              help="Seconds an ISMCTS opponent whose spec sets no budget thinks per "
                   "turn (all its decisions), and the hint bot per decision.")
@click.option("--hint-bot", metavar="BOTSPEC",
              help="The bot that answers `hint` [default: ismcts:time=--time,reuse=false].")
@click.option("--resume", type=click.Path(dir_okay=False),
              help="Continue the saved game in this file.")
@click.option("--game", type=click.IntRange(1),
              help="With --resume: which game of the file (1 = first).")
@click.option("--save", type=click.Path(dir_okay=False),
              help="Save the game here [default: the --resume file, or "
                   "coexist-game-DATE-TIME.jsonl].")
@CARDS_OPTION
@COLOR_OPTION
@click.option("--no-clear", is_flag=True, help="Never clear the screen between moves.")
@click.pass_context
def play(ctx: click.Context, players: int, vs: tuple[str, ...], level: str | None,
         seat: int, seed: int | None, fauna: str | None, seconds: float,
         hint_bot: str | None, resume: str | None, game: int | None, save: str | None,
         cards_spec: str, color: str, no_clear: bool) -> None:
    """Play Coexist in the terminal against bots."""
    from coexist_ai.bots import make_bot
    from coexist_ai.cli_tournament import unique_names
    from coexist_ai.play import gamefile
    from coexist_ai.play.session import Console, PlaySession
    from coexist_ai.play.style import detect_style
    from coexist_ai.schedule import derive_seed

    card_set = _card_set(cards_spec)     # refuse a bad --cards before anything
    hint_spec = hint_bot or f"ismcts:time={seconds:g},reuse=false"
    make_bot(hint_spec).close()                  # refuse a bad spec now
    console = Console(detect_style(color), clear=not no_clear)
    index: int | None      # where the game goes in the save file (None: appended)
    if resume:
        given = [f"--{o}" for o in NEW_GAME_OPTIONS
                 if ctx.get_parameter_source(o) == ParameterSource.COMMANDLINE]
        if given:
            raise click.UsageError(f"{', '.join(given)}: the saved game already sets "
                                   "these; drop them with --resume")
        records, index = gamefile.load_game(resume, game)
        record, source = records[index], index
        card_set = _card_set(cards_spec, record)
        if record.get("end") != gamefile.UNFINISHED:
            raise gamefile.GameFileError(
                f"{resume}: game {index + 1} is over (end {record.get('end')!r}): "
                f"nothing to continue; see it with: coexist-ai replay {resume} "
                f"--game {index + 1}")
        gamefile.check_card_set(record, card_set, f"{resume}: game {index + 1}")
        for line in describe_opponents([b.get("spec") for b in record.get("bots", [])]):
            console.write(line)
        save = save or resume
        if os.path.abspath(save) != os.path.abspath(resume):
            records, index = _existing_records(save), None
    else:
        if game is not None:
            raise click.UsageError("--game goes with --resume")
        if seat >= players:
            raise click.BadParameter(f"{seat} is not a seat of a {players}-player game "
                                     f"(0 to {players - 1})", param_hint="--seat")
        specs = opponent_specs(vs, players, seconds, level)
        for spec in specs:
            make_bot(spec).close()
        for line in describe_opponents(specs):
            console.write(line)
        seed = secrets.randbelow(2**31) if seed is None else seed
        specs.insert(seat, gamefile.HUMAN)
        seeds = [None if p == seat else derive_seed("play", seed, p) for p in range(players)]
        names = unique_names(specs)
        faunas = gamefile.faunas_with(card_set, fauna, seat, players, seed) if fauna else None
        record, _ = gamefile.new_record(card_set, specs, seeds, seed, names, faunas)
        save = save or default_save_path()
        records, index = _existing_records(save), None
        console.write(f"Deal seed {seed} (play this deal again with --seed {seed}).")
    def start() -> PlaySession:
        return PlaySession(card_set, record, console, save, hint_spec, records, index)
    session = _in_game(resume, source, start) if resume else start()
    ctx.exit(session.run())


@click.command()
def levels() -> None:
    """The difficulty levels, weakest first, with their Elo."""
    from coexist_ai.bots.levels import format_levels
    click.echo(format_levels())


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--game", type=click.IntRange(1),
              help="Which game of the file (1 = first) [default: the first].")
@click.option("--to-end", is_flag=True, help="Print the final position and score, then exit.")
@click.option("--move", "move", type=click.IntRange(0),
              help="Print the position after this many moves, then exit.")
@CARDS_OPTION
@COLOR_OPTION
@click.option("--no-clear", is_flag=True, help="Never clear the screen between moves.")
def replay(file: str, game: int | None, to_end: bool, move: int | None, cards_spec: str,
           color: str, no_clear: bool) -> None:
    """Step through a recorded game (a duel, tournament or saved play).

    Keys (then Enter): n or Enter next move, p previous, g N go to move N,
    s start, e end, q quit.
    """
    from coexist_ai.play import gamefile
    from coexist_ai.play.replay import Replay, run_replay
    from coexist_ai.play.session import Console
    from coexist_ai.play.style import detect_style

    if to_end and move is not None:
        raise click.UsageError("--to-end and --move: give one of them")
    if cards_spec is not None:
        _card_set(cards_spec)                 # refuse a bad --cards before the file
    records, index = gamefile.load_game(file, game if game is not None else 1)
    card_set = _card_set(cards_spec, records[index])
    viewer = _in_game(file, index, lambda: Replay(
        card_set, records[index], f"{os.path.basename(file)} game {index + 1} of {len(records)}"))
    style = detect_style(color)
    if to_end or move is not None:
        k = viewer.last if move is None else move     # --to-end: the last
        if k > viewer.last:
            raise click.BadParameter(f"{k}: the game has moves 0 to {viewer.last}",
                                     param_hint="--move")
        click.echo(viewer.screen(k, style))
        return
    run_replay(viewer, Console(style, clear=not no_clear))
