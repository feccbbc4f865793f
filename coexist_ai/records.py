"""Game records on disk: one JSON object per line, appended and flushed as
each game ends, so that a killed run loses at most the games in flight.

A last line without its newline is a game cut off mid-write: `repair`
removes it (and only it) and says so. Any other bad line is an error that
names the file and the line, and nothing is rewritten. Every record read is
checked field by field (recordschema.py). A run holds its file's lock while
it writes, so that two runs never write one file.
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import BinaryIO

from coexist_ai.errors import CoexistError
from coexist_ai.match import RECORD_FORMAT, RECORD_VERSION, Record
from coexist_ai.paths import PathError, StrPath, open_for_reading, open_locked_for_append
from coexist_ai.recordschema import FieldError, check_record

PLAY_RUN = "play"      # the run of a saved play: no schedule, no repeats


class RecordsError(CoexistError):
    """A records file that cannot be used as asked."""


def read_records(path: StrPath) -> list[Record]:
    """Every record of a file, checked, in a list (a saved play's few
    games; a run's records are read one at a time with `numbered_records`);
    a truncated last line is ignored here (see `repair_truncated_tail`)."""
    return [record for _, record in numbered_records(path)]


def numbered_records(path: StrPath) -> Iterator[tuple[int, Record]]:
    """(line number, record) of every complete line of a file, checked,
    read one line at a time."""
    for number, _, record in placed_records(path):
        yield number, record


def placed_records(path: StrPath) -> Iterator[tuple[int, int, Record]]:
    """(line number, byte offset, record) of every complete line of a file,
    checked, read one line at a time."""
    with open_for_reading(path) as f:
        offset = 0
        for number, line in enumerate(f, 1):
            if not line.endswith(b"\n"):
                break          # a cut-off last line
            if line.strip():
                yield number, offset, _parse_line(path, number, line)
            offset += len(line)


def record_at(path: StrPath, f: BinaryIO, offset: int) -> Record:
    """The record of the line at `offset` of the open file `f` of `path`."""
    f.seek(offset)
    return _parse_line(path, f"byte {offset}", f.readline())


def _parse_line(path: StrPath, number: int | str, line: bytes) -> Record:
    try:
        record = json.loads(line)
    except ValueError as e:
        raise RecordsError(f"{path}:{number}: not a JSON game record ({e}); "
                           "no record was changed") from None
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise RecordsError(f"{path}:{number}: not a {RECORD_FORMAT!r} record "
                           f"(format {record.get('format') if isinstance(record, dict) else None!r})")
    if record.get("version") != RECORD_VERSION:
        raise RecordsError(f"{path}:{number}: record version {record.get('version')!r}, "
                           f"this build reads version {RECORD_VERSION}")
    try:
        check_record(record)
    except FieldError as e:
        raise RecordsError(f"{path}:{number}: {e}; no record was changed") from None
    return record


TAIL_BLOCK = 1 << 16


def truncated_tail(path: StrPath) -> bytes:
    """Bytes at the end of the file after its last newline (a cut-off
    line), read from the end: a long file is not read whole."""
    with open_for_reading(path) as f:
        pos, tail = f.seek(0, os.SEEK_END), b""
        while pos > 0:
            step = min(TAIL_BLOCK, pos)
            pos -= step
            f.seek(pos)
            tail = f.read(step) + tail
            cut = tail.rfind(b"\n")
            if cut >= 0:
                return tail[cut + 1:]
        return tail


def repair_truncated_tail(path: StrPath) -> int:
    """Remove a cut-off last line; returns its length in bytes (0: none).
    Complete lines are never touched."""
    tail = truncated_tail(path)
    # a game cut off mid-write starts like every record line; any other tail
    # (the last line of a file that holds no records) is not ours to cut
    head = json.dumps({"format": RECORD_FORMAT}, separators=(",", ":"))[:-1].encode()
    if tail and not (tail.startswith(head) or head.startswith(tail)):
        with open_for_reading(path) as f:
            line = sum(block.count(b"\n") for block in iter(lambda: f.read(TAIL_BLOCK), b"")) + 1
        raise RecordsError(f"{path}:{line}: not a {RECORD_FORMAT!r} record and "
                           "not a cut-off one; no record was changed")
    if tail:
        size = os.path.getsize(path)
        with open(path, "r+b") as f:
            f.truncate(size - len(tail))
    return len(tail)


class RecordWriter:
    """Appends records to a file, one flushed line each, holding the file's
    lock until closed: a second run on the same file is refused."""

    def __init__(self, path: StrPath) -> None:
        self.path = path
        try:
            self.file = open_locked_for_append(path)
        except PathError as e:
            raise RecordsError(str(e)) from None

    def write(self, record: Record) -> None:
        line = json.dumps(record, separators=(",", ":")) + "\n"
        try:
            self.file.write(line)
            self.file.flush()
            os.fsync(self.file.fileno())
        except OSError as e:
            raise RecordsError(f"cannot write to {self.path}: {e.strerror}; "
                               "the records already written are intact") from None

    def close(self) -> None:
        try:
            self.file.close()
        except OSError:
            pass
