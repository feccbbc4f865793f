"""Standings of records files merged, read one line at a time: no record is
kept, only the standings' figures and, for the exports and reports that
list every game, where each game's line is (GameOrder), to read the games
again one at a time in their canonical order."""
from coexist_ai.paths import open_for_reading
from coexist_ai.records import RecordsError, numbered_records, placed_records, record_at
from coexist_ai.repeats import Repeats
from coexist_ai.results import RosterSplit, Standings, record_digest


class GameOrder:
    """Where each counted game lies; `records()` reads them again in the
    canonical order (run, game, content), so that the same records give
    the same file whatever their order."""

    def __init__(self, paths):
        self.paths, self.places = list(paths), []

    def note(self, file_no, offset, record, digest):
        self.places.append((record["run"], record["game"], digest, file_no, offset))

    def __len__(self):
        return len(self.places)

    def records(self, upto=None):
        """The first `upto` records (all: None) in canonical order; refused
        if a file was changed since it was read."""
        self.places.sort()
        files = {}
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


def load(paths, mix_players=False, warn=print, ordered=False):
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


def _count(standings, paths, mix_players, warn, ordered):
    repeats, order = Repeats(), GameOrder(paths) if ordered else None
    sha, unfinished, players = None, 0, {}
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
