"""Game records of played games: made, saved, loaded and replayed.

A record has exactly the keys of coexist_ai/match.py (docs: "Added since"
in the engine brief): format, version, run, tournament, game, block, round,
rotation, entrants, card_set, players, faunas, first_player, bots [{spec,
seed}], moves [[seat, notation]], times, deck, end, scores, ranks,
breakdown, rounds, forfeits. A person's seat has the spec "human" (seed
null). A game that was left before its end has "end": "unfinished" and the
scores of the position reached; `play --resume` continues it.

Files hold one JSON record per line (coexist_ai/records.py), so tournament
and duel files and saved games are read the same way.
"""
from __future__ import annotations

import json
import os
import random
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from coexist_ai import _engine
from coexist_ai.errors import CoexistError
from coexist_ai.match import (RECORD_FORMAT, RECORD_VERSION, Record, forfeit_ranks,
                              state_initial_deck)
from coexist_ai.paths import StrPath, check_writable, is_locked
from coexist_ai.records import PLAY_RUN, read_records
from coexist_ai.schedule import derive_seed

if TYPE_CHECKING:
    from coexist_ai.cards import CardSet

# a turn of a record: (seat, its moves in a row, seconds taken or None)
TurnRun = tuple[int, list[str], float | None]

HUMAN = "human"
UNFINISHED = "unfinished"


class GameFileError(CoexistError):
    """A record that cannot be played on or replayed as asked."""


def faunas_with(card_set: CardSet, fauna: str, seat: int, players: int,
                deal_seed: int) -> list[str]:
    """Faunas by seat with `fauna` at `seat`; the other seats' faunas are
    drawn from the deal seed among the card set's other faunas."""
    if fauna not in card_set.faunas():
        raise GameFileError(f"fauna {fauna!r}: card set {card_set.name!r} has "
                            f"{', '.join(card_set.faunas())}")
    rest = [f for f in card_set.faunas() if f != fauna]
    random.Random(derive_seed("faunas", deal_seed)).shuffle(rest)
    return rest[:seat] + [fauna] + rest[seat:players - 1]


def new_record(card_set: CardSet, specs: Sequence[str], seeds: Sequence[int | None],
               deal_seed: int, names: Iterable[str],
               faunas: Sequence[str] | None = None) -> tuple[Record, _engine.State]:
    """A record of a game about to start (no moves yet), and its State.
    specs/seeds/names: one per seat ("human" for a person); faunas: by seat
    (default: drawn from the deal seed)."""
    state = _engine.State.new(card_set, players=len(specs), faunas=faunas, seed=deal_seed)
    record: Record = {
        "format": RECORD_FORMAT, "version": RECORD_VERSION,
        "run": PLAY_RUN, "tournament": "play", "game": 1, "block": 0, "round": 0,
        "rotation": 0, "entrants": list(names),
        "card_set": {"name": card_set.name, "sha256": card_set.sha256},
        "players": state.num_players,
        "faunas": [str(seat.fauna) for seat in state.seats],
        "first_player": state.first_player,
        "bots": [{"spec": s, "seed": seed} for s, seed in zip(specs, seeds)],
        "moves": [], "times": [],
        "deck": [card_set.cards[c].id for c in state_initial_deck(state)],
    }
    finish_record(record, state)
    return record, state


def check_card_set(record: Record, card_set: CardSet, where: str = "the record") -> None:
    named = record.get("card_set") or {}
    if named.get("sha256") != card_set.sha256:
        raise GameFileError(
            f"{where} was played with card set {named.get('name')!r} (sha256 "
            f"{str(named.get('sha256'))[:12]}...), not {card_set.name!r}: "
            "pass that card set with --cards")


def initial_state(record: Record, card_set: CardSet) -> _engine.State:
    """The position before the first move of a record."""
    check_card_set(record, card_set)
    try:
        return _engine.State.new(card_set, players=record["players"],
                               faunas=record["faunas"],
                               first_player=record["first_player"], deck=record["deck"])
    except (KeyError, TypeError) as e:
        raise GameFileError(f"the record lacks a usable {e} field") from None


def replay_states(record: Record, card_set: CardSet,
                  upto: int | None = None) -> list[_engine.State]:
    """The States after 0, 1, ..., `upto` (default: all) moves."""
    return [state.copy() for state in _replayed(record, card_set, upto)]


def state_after(record: Record, card_set: CardSet, upto: int | None = None) -> _engine.State:
    """The State after the first `upto` moves (default: all)."""
    for state in _replayed(record, card_set, upto):
        pass
    return state


def _replayed(record: Record, card_set: CardSet,
              upto: int | None) -> Iterator[_engine.State]:
    """One State, yielded before the first move and after each move."""
    state = initial_state(record, card_set)
    yield state
    moves = record.get("moves", [])
    for number, entry in enumerate(moves[:upto] if upto is not None else moves, 1):
        apply_recorded(state, entry, number)
        yield state


def apply_recorded(state: _engine.State, entry: Any, number: int) -> None:
    try:
        seat, move = entry
    except (TypeError, ValueError):
        raise GameFileError(f"move {number}: {entry!r} is not [seat, move]") from None
    if seat != state.current_player:
        raise GameFileError(f"move {number} ({move!r}) is by seat {seat!r}, but seat "
                            f"{state.current_player} was to play")
    try:
        state.push(move)
    except CoexistError as e:
        raise GameFileError(f"move {number} ({move!r}) cannot be played: {e}") from None


def finish_record(record: Record, state: _engine.State,
                  forfeits: Iterable[Mapping[str, Any]] = ()) -> None:
    """Set the result keys from `state`: a finished game's result, or the
    scores so far with "end": "unfinished"."""
    forfeits = list(forfeits)
    scores = state.scores()
    if forfeits:
        end, ranks = "forfeit", forfeit_ranks(scores, state, {f["seat"] for f in forfeits})
    else:
        end, ranks = ("normal" if state.is_over() else UNFINISHED), state.ranks()
    record.update({"end": end, "scores": scores, "ranks": ranks,
                   "breakdown": [score.as_dict() for score in state.score_breakdown()],
                   "rounds": state.rounds,
                   "forfeits": forfeits})


def load_game(path: StrPath, game: int | None = None) -> tuple[list[Record], int]:
    """(every record of the file, the 0-based index of the chosen one).
    `game` counts records in the file from 1; default: the only one, or the
    last unfinished one, or the first."""
    if not os.path.lexists(path):
        raise GameFileError(f"no file {path!r}")
    records = read_records(path)
    if not records:
        raise GameFileError(f"{path}: no game record in the file")
    if game is not None:
        if not 1 <= game <= len(records):
            raise GameFileError(f"{path}: --game {game}: the file holds games 1 to "
                                f"{len(records)}")
        return records, game - 1
    unfinished = [i for i, r in enumerate(records) if r.get("end") == UNFINISHED]
    return records, (unfinished[-1] if unfinished else 0)


def check_save_path(path: StrPath) -> str:
    """The file a save to `path` replaces (a symlink's target); refused if
    it is no regular file, or a records file a run is writing."""
    check_writable(path, "save the game to")
    path = os.path.realpath(path)
    if is_locked(path):
        raise GameFileError(f"cannot save the game to {path}: a running duel or "
                            "tournament is writing it; give another --save file")
    return path


def save_game(path: StrPath, records: Iterable[Record], index: int,
              record: Record) -> list[Record]:
    """Put `record` at `index` of the file's records (appending when
    index == len(records)) and write the file atomically: a crash mid-write
    leaves the previous file whole. Only a regular file or a new path is
    replaced (through a symlink, its target), never a device or a fifo,
    nor the records file of a run that is writing it."""
    records = list(records)
    if index == len(records):
        records.append(record)
    else:
        records[index] = record
    path = check_save_path(path)
    folder = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(prefix=".coexist-save-", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            for r in records:
                f.write(json.dumps(r, separators=(",", ":")) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise GameFileError(f"cannot save the game to {path}: {e.strerror}") from None
    return records


def human_seats(record: Record) -> list[int]:
    return [p for p, b in enumerate(record.get("bots", [])) if b.get("spec") == HUMAN]


def seat_names(record: Record) -> list[str]:
    """A label per seat: the record's entrants, or the bots' specs."""
    names = record.get("entrants")
    if isinstance(names, list) and len(names) == record.get("players"):
        return [str(n) for n in names]
    return [str(b.get("spec", "?")) for b in record.get("bots", [])]


def turn_runs(record: Record) -> list[TurnRun]:
    """The record's moves as turns: [(seat, [move, ...], seconds)], a run
    of consecutive moves of one seat each, with the seconds they took
    (None where the record has no times)."""
    times = record.get("times") or []
    runs: list[TurnRun] = []
    for i, (seat, move) in enumerate(record.get("moves", [])):
        took = times[i] if i < len(times) else None
        if runs and runs[-1][0] == seat:
            last = runs[-1]
            total = None if last[2] is None or took is None else last[2] + took
            runs[-1] = (seat, last[1] + [move], total)
        else:
            runs.append((seat, [move], took))
    return runs
