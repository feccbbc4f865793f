"""The one table a web server keeps: the game on it (played, watched or
replayed) and what starting the next one takes. A page that reloads finds
the same game; "new game" replaces it."""
from __future__ import annotations

import os
import tempfile
import threading
import time
from typing import Any

from coexist_ai.errors import CoexistError
from coexist_ai.play import gamefile
from coexist_ai.records import read_records
from coexist_ai.web.live import LiveGame, Refused
from coexist_ai.web.newgame import (NewGame, Settings, check_page_specs, new_record,
                                    resumable, save_target)
from coexist_ai.web.replay import ReplayGame


class Table:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.game: LiveGame | ReplayGame | None = None
        self.seed: int | None = None
        self.serial = 0             # which game the page is drawing
        self.lock = threading.Lock()

    def put(self, game: LiveGame | ReplayGame, seed: int | None = None) -> None:
        """Put a game on the table, closing the one before."""
        with self.lock:
            if self.game is not None:
                self.game.close()
            self.game, self.seed = game, seed
            self.serial += 1

    def new_game(self, asked: NewGame, from_page: bool = False) -> None:
        """A new game on the table; one the page asks runs no program that
        the command line did not name (check_page_specs)."""
        if from_page:
            check_page_specs(asked.vs, self.settings.trusted)
        record, seed = new_record(self.settings, asked)
        path, records = save_target(self.settings)
        self.put(self.live(record, path, records, None), seed)

    def live(self, record: dict[str, Any], path: str, records: list[Any],
             index: int | None) -> LiveGame:
        s = self.settings
        return LiveGame(s.card_set, record, path, s.hint_spec, records, index, s.pace)

    def replay_text(self, text: str, game: int | None, label: str) -> None:
        """Replay a game of a records file's text (one JSON record a line)."""
        records = records_of_text(text, label)
        if not records:
            raise Refused(f"{label}: no game record in it")
        game = 1 if game is None else game
        if not isinstance(game, int) or not 1 <= game <= len(records):
            raise Refused(f"{label}: game {game!r}: it holds games 1 to {len(records)}")
        self.replay_record(records[game - 1], f"{label} game {game} of {len(records)}")

    def replay_record(self, record: dict[str, Any], label: str) -> None:
        try:
            game = ReplayGame(self.settings.card_set, record, label)
        except CoexistError as e:
            raise Refused(f"{label}: {e}") from None
        self.put(game)

    def replay_current(self) -> None:
        """Step through the game on the table from its start."""
        game = self.current()
        if isinstance(game, ReplayGame):
            game.go(0)
            return
        record = dict(game.record, moves=list(game.record["moves"]))
        self.replay_record(record, f"{game.save_path} ({time.strftime('%H:%M')})")

    def current(self) -> LiveGame | ReplayGame:
        if self.game is None:
            raise Refused("no game on the table: start a new game", 404)
        return self.game

    def snapshot(self) -> dict[str, Any]:
        return self.stamp(self.current().snapshot())

    def stamp(self, snap: dict[str, Any]) -> dict[str, Any]:
        """A game's snapshot with what the table knows of it: its deal seed
        (a new game's) and which game it is."""
        return dict(snap, seed=self.seed, game=self.serial)

    def wait(self, after: int, timeout: float) -> None:
        """Return once the game's version passes `after` (or at `timeout`)."""
        game = self.current()
        with game.changed:
            game.changed.wait_for(lambda: game.version != after or game.closed
                                  or self.game is not game, timeout)

    def open_first(self, asked: NewGame, resume: str | None, replay: str | None,
                   game: int | None) -> str:
        """The game the server starts with; a line saying what it is."""
        if replay:
            record, label = load_for_replay(replay, game)
            self.replay_record(record, label)
            return f"replaying {label}"
        if resume:
            index: int | None       # where the game goes in the save file (None: appended)
            records, index = resumable(resume, game, self.settings.card_set)
            record, path = records[index], self.settings.save or resume
            if os.path.abspath(path) != os.path.abspath(resume):
                path, records = save_target(self.settings)
                index = None
            self.put(self.live(record, path, records, index))
            return f"continuing game {index + 1 if index is not None else 1} of {resume}"
        self.new_game(asked)
        assert isinstance(self.game, LiveGame)     # what new_game puts on the table
        return f"deal seed {self.seed}, saved to {self.game.save_path}"

    def farewell(self) -> str:
        """What the command prints as the server stops."""
        game = self.game
        if not isinstance(game, LiveGame):
            return "Stopped."
        if game.over():
            return f"Stopped. The game is in {game.save_path}."
        return (f"Stopped. The game is saved to {game.save_path}; go on with: "
                f"coexist-ai web --resume {game.save_path} (or coexist-ai play --resume)")

    def close(self) -> None:
        with self.lock:
            if self.game is not None:
                self.game.close()


def records_of_text(text: str, label: str) -> list[dict[str, Any]]:
    """The records of a records file's text, checked as read_records checks
    a file's (the page sends a file it opened, never a path); errors name
    the file as `label`."""
    fd, path = tempfile.mkstemp(prefix=".coexist-upload-", suffix=".jsonl")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text if text.endswith("\n") else text + "\n")
        return read_records(path)
    except CoexistError as e:
        raise Refused(str(e).replace(path, label)) from None
    finally:
        os.unlink(path)


def load_for_replay(path: str, game: int | None) -> tuple[dict[str, Any], str]:
    records, index = gamefile.load_game(path, game if game is not None else 1)
    return records[index], f"{path} game {index + 1} of {len(records)}"
