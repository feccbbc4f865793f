"""Game records on disk: one JSON object per line, appended and flushed as
each game ends, so that a killed run loses at most the games in flight.

A last line without its newline is a game cut off mid-write: `repair`
removes it (and only it) and says so. Any other bad line is an error that
names the file and the line, and nothing is rewritten.
"""
import json
import os

from coexist_ai.errors import CoexistError
from coexist_ai.match import RECORD_FORMAT, RECORD_VERSION


class RecordsError(CoexistError):
    """A records file that cannot be used as asked."""


def read_records(path):
    """Every record of a file, checked; a truncated last line is ignored
    here (see `repair_truncated_tail`)."""
    records = []
    with open(path, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    complete = lines[:-1]   # the last piece is empty, or a cut-off line
    for number, line in enumerate(complete, 1):
        if not line.strip():
            continue
        records.append(_parse_line(path, number, line))
    return records


def _parse_line(path, number, line):
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
    return record


def truncated_tail(path):
    """Bytes at the end of the file after its last newline (a cut-off line)."""
    with open(path, "rb") as f:
        data = f.read()
    cut = data.rfind(b"\n") + 1
    return data[cut:]


def repair_truncated_tail(path):
    """Remove a cut-off last line; returns its length in bytes (0: none).
    Complete lines are never touched."""
    tail = truncated_tail(path)
    # a game cut off mid-write starts like every record line; any other tail
    # (the last line of a file that holds no records) is not ours to cut
    head = json.dumps({"format": RECORD_FORMAT}, separators=(",", ":"))[:-1].encode()
    if tail and not (tail.startswith(head) or head.startswith(tail)):
        with open(path, "rb") as f:
            line = f.read().count(b"\n") + 1
        raise RecordsError(f"{path}:{line}: not a {RECORD_FORMAT!r} record and "
                           "not a cut-off one; no record was changed")
    if tail:
        size = os.path.getsize(path)
        with open(path, "r+b") as f:
            f.truncate(size - len(tail))
    return len(tail)


class RecordWriter:
    """Appends records to a file, one flushed line each."""

    def __init__(self, path):
        self.path = path
        try:
            self.file = open(path, "a", encoding="utf-8")
        except OSError as e:
            raise RecordsError(f"cannot write to {path}: {e.strerror}") from None

    def write(self, record):
        line = json.dumps(record, separators=(",", ":")) + "\n"
        try:
            self.file.write(line)
            self.file.flush()
            os.fsync(self.file.fileno())
        except OSError as e:
            raise RecordsError(f"cannot write to {self.path}: {e.strerror}; "
                               "the records already written are intact") from None

    def close(self):
        try:
            self.file.close()
        except OSError:
            pass
