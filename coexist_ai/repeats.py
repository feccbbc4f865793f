"""Each scheduled game counted once, in one pass over records read line by
line, keeping a bit per game, not the games.

A file written by two runs at once (before runs locked their file) holds
games twice: the first of a (run, game) counts, every later one is
reported with its file and line and the line it repeats, and left out.
Saved plays are no scheduled games: every one counts.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator

from coexist_ai.match import Record
from coexist_ai.paths import StrPath
from coexist_ai.records import PLAY_RUN, numbered_records

REPEATS_SHOWN = 10     # repeated games reported one by one; then a count


class GameSet:
    """Game indices (whole numbers, dense from 0 in a schedule) as a bit
    map: a million games take 125 KB, not the 60 MB of a set of ints.
    Indices beyond DENSE (a hand-edited record) go to a set."""

    DENSE = 1 << 24

    def __init__(self) -> None:
        self._bits, self._count = bytearray(), 0
        self._far: set[int] = set()

    def add(self, game: int) -> bool:
        """Add `game`; False if it was in already."""
        if game in self:
            return False
        if game >= self.DENSE:
            self._far.add(game)
        else:
            byte = game >> 3
            if byte >= len(self._bits):    # grown by doubling: few copies
                self._bits.extend(bytes(max(byte + 1, 2 * len(self._bits)) - len(self._bits)))
            self._bits[byte] |= 1 << (game & 7)
        self._count += 1
        return True

    def __contains__(self, game: int) -> bool:
        if game >= self.DENSE:
            return game in self._far
        byte = game >> 3
        return byte < len(self._bits) and bool(self._bits[byte] >> (game & 7) & 1)

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[int]:
        for byte, bits in enumerate(self._bits):
            if bits:
                yield from (8 * byte + k for k in range(8) if bits >> k & 1)
        yield from sorted(self._far)


class Repeats:
    """The (run, game) of every record seen; `is_repeat` says whether a
    record's game was seen before, and `report` warns of the repeats."""

    def __init__(self) -> None:
        self.seen: defaultdict[str, GameSet] = defaultdict(GameSet)   # run -> its games seen
        # (path, line, run, game) of the first REPEATS_SHOWN repeats
        self.found: list[tuple[StrPath, int, str, int]] = []
        self.count = 0

    def is_repeat(self, path: StrPath, line: int, record: Record) -> bool:
        run, game = record["run"], record["game"]
        if run == PLAY_RUN or self.seen[run].add(game):
            return False
        self.count += 1
        if len(self.found) < REPEATS_SHOWN:
            self.found.append((path, line, run, game))
        return True

    def report(self, paths: Iterable[StrPath], warn: Callable[[str], object]) -> None:
        """Warn of each repeat (the first REPEATS_SHOWN), naming the line it
        repeats: found by reading `paths` again, which only a file with
        repeats costs."""
        if not self.found:
            return
        first = _first_lines(paths, {(run, game) for _, _, run, game in self.found})
        for path, line, run, game in self.found:
            warn(f"warning: {path}:{line}: game {game} of run {run} repeats "
                 f"{first[run, game]}; counted once")
        if self.count > REPEATS_SHOWN:
            warn(f"warning: {self.count} repeated games in all, each counted once")


def _first_lines(paths: Iterable[StrPath],
                 wanted: Collection[tuple[str, int]]) -> dict[tuple[str, int], str]:
    """{(run, game): "path:line"} of the first record of each wanted game."""
    first: dict[tuple[str, int], str] = {}
    for path in paths:
        for line, record in numbered_records(path):
            key = (record["run"], record["game"])
            if key in wanted and key not in first:
                first[key] = f"{path}:{line}"
                if len(first) == len(wanted):
                    return first
    return first
