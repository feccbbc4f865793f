"""New games for the web page and the command line: the seats' specs, the
deal, the record, the save file; and the games a file holds (resume, replay).
"""
from __future__ import annotations

import os
import re
import secrets
from dataclasses import dataclass
from typing import Any

from coexist_ai.bots import make_bot, parse_spec
from coexist_ai.cli_play import default_save_path, with_time
from coexist_ai.cli_tournament import unique_names
from coexist_ai.errors import SetupError
from coexist_ai.play import gamefile
from coexist_ai.records import read_records
from coexist_ai.schedule import derive_seed
from coexist_ai.vocabulary import MAX_PLAYERS, MIN_PLAYERS

DEFAULT_OPPONENT = "ismcts"
PRESET_NAME = re.compile(r"[A-Za-z0-9_-]+")   # preset:NAME, no path


@dataclass
class Settings:
    """What every game of one server shares."""
    card_set: Any
    seconds: float          # an ISMCTS bot's time (with_time) and the hint's
    hint_spec: str
    save: str | None        # every game appended to this file, or one file a game
    pace: float             # least seconds between two bot moves shown
    trusted: tuple[str, ...] = ()   # the command line's --vs: the page may name them


@dataclass
class NewGame:
    """A game to start, as the page's form or the command line asks it."""
    players: int = 2
    vs: tuple[str, ...] = ()
    seat: int = 0
    seed: int | None = None
    watch: bool = False
    fauna: str | None = None


def seat_specs(game: NewGame, seconds: float) -> list[str]:
    """One spec per seat: "human" at the person's seat (none in a watched
    game), bots from `vs` (none: the default; one: every bot; or one each).
    An ISMCTS spec with no budget thinks `seconds` (cli_play.with_time, which
    the terminal game shares)."""
    if not MIN_PLAYERS <= game.players <= MAX_PLAYERS:
        raise SetupError(f"players {game.players!r}: a game has {MIN_PLAYERS} to "
                         f"{MAX_PLAYERS} players")
    bots = game.players if game.watch else game.players - 1
    vs = list(game.vs) or [DEFAULT_OPPONENT]
    if len(vs) == 1:
        vs = vs * bots
    if len(vs) != bots:
        raise SetupError(f"--vs: {len(vs)} bot specs for {bots} bots: give one for all "
                         "of them or one per bot, in seat order")
    specs = [with_time(spec, seconds) for spec in vs]
    for spec in specs:
        make_bot(spec).close()          # a spec that names no bot is refused now
    if not game.watch:
        if not 0 <= game.seat < game.players:
            raise SetupError(f"seat {game.seat!r} is not a seat of a {game.players}-player "
                             f"game (0 to {game.players - 1})")
        specs.insert(game.seat, gamefile.HUMAN)
    return specs


def check_page_specs(specs: tuple[str, ...], trusted: tuple[str, ...]) -> None:
    """A spec the page sends may name a built-in bot or a packaged preset;
    an external program (cmd:..., a TOML file, which may run one) only when
    the command line gave that very spec: whoever reaches the page must not
    start programs on this machine."""
    for spec in specs:
        if spec in trusted:
            continue
        text = spec.strip()
        is_file = text.endswith(".toml") or (text.startswith("preset:") and
                                             not PRESET_NAME.fullmatch(text[len("preset:"):]))
        if is_file or parse_spec(text)[0] == "external":
            raise SetupError(f"bot {spec!r}: the page starts no program and reads no "
                             "file; give it to the command line (coexist-ai web --vs ...) "
                             f"to offer it here{_offered(trusted)}")


def _offered(trusted: tuple[str, ...]) -> str:
    return f" (offered: {', '.join(trusted)})" if trusted else ""


def new_record(settings: Settings, game: NewGame) -> tuple[dict[str, Any], int]:
    """The record of a game about to start, and its deal seed."""
    specs = seat_specs(game, settings.seconds)
    seed = secrets.randbelow(2**31) if game.seed is None else game.seed
    seeds = [None if s == gamefile.HUMAN else derive_seed("play", seed, p)
             for p, s in enumerate(specs)]
    faunas = None
    if game.fauna:
        if game.watch:
            raise SetupError("fauna: a watched game has no seat of yours to give it to")
        faunas = gamefile.faunas_with(settings.card_set, game.fauna, game.seat,
                                      game.players, seed)
    record, _ = gamefile.new_record(settings.card_set, specs, seeds, seed,
                                    unique_names(specs), faunas)
    return record, seed


def save_target(settings: Settings) -> tuple[str, list[Any]]:
    """The file the next game goes to, and the games it already holds."""
    path = settings.save or default_save_path()
    gamefile.check_save_path(path)
    return path, read_records(path) if os.path.exists(path) else []


def resumable(path: str, game: int | None, card_set: Any) -> tuple[list[Any], int]:
    """The records of `path` and the index of an unfinished game to go on."""
    records, index = gamefile.load_game(path, game)
    record = records[index]
    if record.get("end") != gamefile.UNFINISHED:
        raise gamefile.GameFileError(
            f"{path}: game {index + 1} is over (end {record.get('end')!r}): nothing to "
            f"continue; step through it with: coexist-ai web --replay {path} "
            f"--game {index + 1}")
    gamefile.check_card_set(record, card_set, f"{path}: game {index + 1}")
    return records, index
