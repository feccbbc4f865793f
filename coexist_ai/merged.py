"""Standings of records files merged, read one line at a time: no record is
kept, only the standings' figures and, for the exports and reports that
list every game, where each game's line is (GameOrder), to read the games
again one at a time in their canonical order."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import BinaryIO

from coexist_ai.match import Record
from coexist_ai.paths import StrPath, open_for_reading
from coexist_ai.records import RecordsError, numbered_records, placed_records, record_at
from coexist_ai.repeats import Repeats
from coexist_ai.results import RosterSplit, Standings, record_digest


class GameOrder:
    """Where each counted game lies; `records()` reads them again in the
    canonical order (run, game, content), so that the same records give
    the same file whatever their order."""

    def __init__(self, paths: Iterable[StrPath]) -> None:
        self.paths = list(paths)
        # (run, game, digest, file number, byte offset) of every game counted
        self.places: list[tuple[str, int, bytes, int, int]] = []

    def note(self, file_no: int, offset: int, record: Record, digest: bytes) -> None:
        self.places.append((record["run"], record["game"], digest, file_no, offset))

    def __len__(self) -> int:
        return len(self.places)

    def records(self, upto: int | None = None) -> Iterator[Record]:
        """The first `upto` records (all: None) in canonical order; refused
        if a file was changed since it was read."""
        self.places.sort()
        files: dict[int, BinaryIO] = {}
        try:
            for _, _, digest, file_no, offset in self.places[:upto]:
                path = self.paths[file_no]
                if file_no not in files:
                    files[file_no] = open_for_reading(path)
                record = record_at(path, files[file_no], offset)
                if record_digest(record) != digest:
                    raise RecordsError(f"{path}: changed while it was read (the line at byte "
                                       f"{offset} is another game); run the command again")
                yield record
        finally:
            for f in files.values():
                f.close()


def load(paths: Sequence[StrPath], mix_players: bool = False,
         warn: Callable[[str], object] = print,
         ordered: bool = False) -> tuple[Standings, GameOrder | None]:
    """(Standings, GameOrder if `ordered` else None) of the finished games
    in `paths` (one card set; one player count unless `mix_players`), each
    scheduled game once. `warn` gets the warnings (repeats, unfinished
    games left out)."""
    standings = Standings()
    try:
        return _count(standings, paths, mix_players, warn, ordered)
    except RosterSplit:   # a run's spec got a second name late: read again, declared
        standings = Standings()
        for path in paths:
            standings.declare(record for _, record in numbered_records(path))
        return _count(standings, paths, mix_players, warn, ordered)


def _count(standings: Standings, paths: Sequence[StrPath], mix_players: bool,
           warn: Callable[[str], object], ordered: bool) -> tuple[Standings, GameOrder | None]:
    repeats, order = Repeats(), GameOrder(paths) if ordered else None
    sha, unfinished = None, 0
    players: dict[int, StrPath] = {}      # the first file of each player count
    for file_no, path in enumerate(paths):
        for line, offset, record in placed_records(path):   # every field checked
            if record["end"] == "unfinished":   # a saved game still in play
                unfinished += 1
                continue
            this = record["card_set"]["sha256"]
            if sha and this != sha:
                raise RecordsError(f"{path}:{line}: mixes card sets ({this} after {sha}); "
                                   "ratings need one card set")
            sha = this
            players.setdefault(record["players"], path)
            if repeats.is_repeat(path, line, record):
                continue
            digest = standings.add(record)
            if order is not None:
                order.note(file_no, offset, record, digest)
    repeats.report(paths, warn)
    if len(players) > 1 and not mix_players:
        counts = ", ".join(f"{p} players ({path})" for p, path in sorted(players.items()))
        raise RecordsError(f"the records mix games of {counts}; rate them apart, "
                           "or pass --mix-players to fit them together")
    if unfinished:
        warn(f"left out {unfinished} unfinished game(s)")
    return standings, order
