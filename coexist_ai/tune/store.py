"""A tuning run's folder (--out): `run.json`, the settings that decide its
games; `games.jsonl`, the record of every game (docs/formats.md), appended
as each ends; and, written as the run ends or stops, `theta.csv` and
`theta.json`, the history of theta. The records file is locked for the
whole run, so that two runs never write one folder."""
from __future__ import annotations

import json
import operator
import os
from collections.abc import Callable
from typing import Any

from coexist_ai.match import Record

from coexist_ai.paths import PathError, open_for_reading, write_replacing
from coexist_ai.records import RecordWriter, numbered_records, repair_truncated_tail
from coexist_ai.tune.settings import FORMAT, Settings, TuneError, same_bot, same_models

RUN_FILE, GAMES_FILE = "run.json", "games.jsonl"
CSV_FILE, JSON_FILE = "theta.csv", "theta.json"
BOT_KEYS = {"spec", "against"}      # compared as bots (same_bot), not as text

# the option that sets each setting of run.json, for the message of a resume
# whose arguments differ from the run's
OPTIONS = {"spec": "SPEC", "params": "--param", "against": "--against",
           "players": "--players", "iterations": "--iterations",
           "deals_per_iteration": "--games-per-iteration (deals)", "seed": "--seed",
           "rate": "--rate", "card_set": "--cards", "format": "format",
           "version": "format version", "models": "model files (sha256 by bot)"}


def recorded_seed(out: str | None) -> int | None:
    """The seed of the run in `out`, if there is one (a resume without --seed)."""
    identity = _read_identity(out) if out else None
    return identity.get("seed") if identity else None


def _read_identity(out: str) -> dict[str, Any] | None:
    path = os.path.join(out, RUN_FILE)
    if not os.path.isfile(path):
        return None
    try:
        with open_for_reading(path) as f:
            identity = json.load(f)
    except (ValueError, UnicodeDecodeError) as e:
        raise TuneError(f"{path}: not a tuning run's settings ({e}); use another --out") from None
    except PathError as e:
        raise TuneError(str(e)) from None
    if not isinstance(identity, dict) or identity.get("format") != FORMAT:
        raise TuneError(f"{path}: not a tuning run's settings (no \"format\": "
                        f"\"{FORMAT}\"); use another --out")
    return identity


class Store:
    """The folder of a run: checked, locked, its records read."""

    def __init__(self, out: str, settings: Settings, echo: Callable[[str], None]) -> None:
        self.out = out
        _make_folder(out)
        self.games_path = os.path.join(out, GAMES_FILE)
        self.writer = RecordWriter(self.games_path)    # the lock, before reading
        try:
            self._check_identity(settings)
            self.recorded = self._read_records(settings, echo)
        except BaseException:
            self.writer.close()
            raise

    def _check_identity(self, settings: Settings) -> None:
        ours, theirs = settings.identity(), _read_identity(self.out)
        if theirs is None:
            if os.path.getsize(self.games_path):
                raise TuneError(f"{self.games_path} has no {RUN_FILE} beside it: not the "
                                "folder of a tuning run; use another --out")
            write_replacing(os.path.join(self.out, RUN_FILE),
                            [json.dumps(ours, indent=1) + "\n"])
            return
        for key in list(ours) + [k for k in theirs if k not in ours]:
            same = (same_bot if key in BOT_KEYS else same_models if key == "models"
                    else operator.eq)
            if not same(theirs.get(key), ours.get(key)):
                raise TuneError(
                    f"{self.out} holds a tuning run of other settings: its "
                    f"{OPTIONS.get(key, key)} is {_shown(key, theirs.get(key))}, this "
                    f"command's {_shown(key, ours.get(key))}; rerun with the run's "
                    f"arguments ({os.path.join(self.out, RUN_FILE)}) or use another --out")
        settings.resume(theirs)

    def _read_records(self, settings: Settings,
                      echo: Callable[[str], None]) -> dict[int, tuple[int, Record]]:
        """{game index: (line, record)} of the games recorded, each once."""
        recorded: dict[int, tuple[int, Record]] = {}
        for line, record in numbered_records(self.games_path):
            where = f"{self.games_path}:{line}: game {record['game']}"
            if record["run"] != settings.run_id:
                raise TuneError(f"{where} belongs to another run (run {record['run']!r}, "
                                f"this one is {settings.run_id}); use another --out")
            if record["game"] in recorded:
                echo(f"warning: {where} repeats line {recorded[record['game']][0]}; "
                     "counted once")
                continue
            recorded[record["game"]] = (line, _slim(record))
        repaired = repair_truncated_tail(self.games_path)
        if repaired:
            echo(f"{self.games_path}: removed a cut-off last line ({repaired} bytes): "
                 "that game is played again")
        return recorded

    def write(self, record: Record) -> None:
        self.writer.write(record)

    def write_history(self, csv_text: str, document: dict[str, Any]) -> None:
        write_replacing(os.path.join(self.out, CSV_FILE), [csv_text])
        write_replacing(os.path.join(self.out, JSON_FILE), [json.dumps(document, indent=1) + "\n"])

    def close(self) -> None:
        self.writer.close()


def _slim(record: Record) -> Record:
    """What a resume needs of a record: its head (checked against the game
    the run plays there), its result and its forfeits; not its moves."""
    keep = ("run", "tournament", "seed", "game", "block", "round", "rotation",
            "entrants", "players", "ranks", "forfeits")
    slim = {key: record.get(key) for key in keep}
    slim["bots"] = [{"spec": b["spec"], "seed": b["seed"]} for b in record["bots"]]
    return slim


def _shown(key: str, value: Any) -> str:
    if key == "params" and isinstance(value, list):
        return " ".join(f"{p.get('name')}={p.get('low')}:{p.get('high')}:{p.get('step')}"
                        for p in value if isinstance(p, dict))
    return repr(value)


def _make_folder(out: str) -> None:
    if os.path.exists(out) and not os.path.isdir(out):
        raise TuneError(f"--out {out} is a file: the tuner writes a folder "
                        "(run.json, games.jsonl, theta.csv, theta.json); give a folder or a new path")
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        raise TuneError(f"cannot make the folder {out}: {e.strerror}") from None
