"""Records as files other programs read.

- PGN: one game per pair of seats held by different bots in every
  finishing order (the better place wins, a shared place is a draw), the
  pairs the Elo fit itself uses, for Ordo, BayesElo or any PGN reader.
  White is the seat of the two that moved first in the game, so a reader
  that estimates a white advantage estimates the first mover's.
- CSV: one row per seat of every game: its bot, score, rank and how the
  game ended, for spreadsheets and pandas.
- JSON: the rating table.
Games are written in a canonical order (run, game, content), so the same
records give the same file whatever their order, read again one at a time
from their files (merged.GameOrder) and written as they come: an export of
a million games holds one game at a time, not a million.
"""
from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from coexist_ai.match import Record
from coexist_ai.results import deal_key

if TYPE_CHECKING:
    from coexist_ai.merged import GameOrder
    from coexist_ai.ratings import RatingTable
    from coexist_ai.results import Standings

RESULT = {1.0: "1-0", 0.5: "1/2-1/2", 0.0: "0-1"}


def canonical_records(standings: Standings,
                      order: GameOrder) -> Iterator[tuple[Record, list[int]]]:
    """(record, bot of each seat) of every game, in canonical order."""
    for record in order.records():
        yield record, standings.roster.lookup(record)


def _tag(name: str, value: object) -> str:
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{text}"]'


def pgn(standings: Standings, order: GameOrder) -> Iterator[str]:
    """The PGN text, a game at a time."""
    names = standings.names
    for record, seats in canonical_records(standings, order):
        players = len(seats)
        moving = sorted(range(players), key=lambda s: (s - record.get("first_player", 0)) % players)
        ranks = record["ranks"]
        for x in range(players):
            for y in range(x + 1, players):
                white, black = moving[x], moving[y]
                if seats[white] == seats[black]:
                    continue
                score = 1.0 if ranks[white] < ranks[black] else \
                    0.5 if ranks[white] == ranks[black] else 0.0
                yield _pgn_game(record, names[seats[white]], names[seats[black]],
                                white, black, RESULT[score])


def _pgn_game(record: Record, white: str, black: str, white_seat: int, black_seat: int,
              result: str) -> str:
    place = f"{record.get('run')}/{record.get('game')}"
    tags = [("Event", record.get("tournament", "coexist")), ("Site", "coexist-ai"),
            ("Date", "????.??.??"), ("Round", _round(record)), ("White", white),
            ("Black", black), ("Result", result), ("Deal", deal_key(record)),
            ("Game", place), ("Players", len(record["ranks"])),
            ("WhiteSeat", white_seat), ("BlackSeat", black_seat)]
    if record.get("end") == "forfeit":
        tags.append(("Termination", "forfeit: " + ", ".join(
            f"seat {f['seat']} {f['kind']}" for f in record.get("forfeits", []))))
    return "\n".join(_tag(k, v) for k, v in tags) + f"\n\n{result}\n\n"


def _round(record: Record) -> str:
    if isinstance(record.get("round"), int) and isinstance(record.get("rotation"), int):
        return f"{record['round'] + 1}.{record['rotation'] + 1}"
    return "-"


CSV_COLUMNS = ["run", "tournament", "game", "round", "rotation", "deal", "players", "seat",
               "first_player", "bot", "spec", "score", "rank", "end", "forfeit", "rounds"]


def csv_chunks(standings: Standings, order: GameOrder) -> Iterator[str]:
    """The CSV text: its header, then the rows of a game at a time."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    names = standings.names
    for record, seats in canonical_records(standings, order):
        lost = {f["seat"]: f["kind"] for f in record.get("forfeits", [])}
        for seat, bot in enumerate(seats):
            writer.writerow([record.get("run"), record.get("tournament"), record.get("game"),
                             record.get("round"), record.get("rotation"), deal_key(record),
                             len(seats), seat, record.get("first_player"), names[bot],
                             record["bots"][seat].get("spec") if record.get("bots") else "",
                             record["scores"][seat], record["ranks"][seat],
                             record.get("end"), lost.get(seat, ""), record.get("rounds")])
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
    yield buffer.getvalue()


def _number_or_none(x: float | None) -> float | None:
    return None if x is None or not math.isfinite(x) else round(float(x), 2)


def table_dict(table: RatingTable, standings: Standings) -> dict[str, Any]:
    """The rating table as plain data (what `--format json` writes)."""
    bots = standings.roster.bots
    interval = {"anchor": "anchor"}
    return {
        "format": "coexist-ratings", "version": 1, "games": table.records,
        "bootstrap_samples": table.samples,
        "groups": [{"anchor": table.names[g.anchor], "deals": g.deals,
                    "bots": [table.names[i] for i in g.members]} for g in table.groups],
        "bots": [{"name": r.name, "spec": bots[r.bot].spec, "group": r.group + 1,
                  "games": r.games, "wins": r.wins, "draws": r.draws, "losses": r.losses,
                  "score": round(r.score, 4), "first": round(r.first, 4),
                  "elo": round(r.elo, 2), "low": _number_or_none(r.low),
                  "high": _number_or_none(r.high),
                  "interval": interval.get(r.note, "n/a" if math.isnan(r.low) else
                                           "one-sided" if math.isinf(r.low) or math.isinf(r.high)
                                           else "bootstrap"),
                  "note": r.note, "los_next": _number_or_none(r.los_next)}
                 for r in table.rows],
        "pairs": [{"bot": table.names[i], "opponent": table.names[j],
                   "points": float(table.wins[i, j]), "pairings": int(table.games[i, j]),
                   "los": _number_or_none(table.los[i, j])}
                  for i in range(len(table.names)) for j in range(len(table.names))
                  if i != j and table.games[i, j]],
        "seat_advantage": {str(k): round(v, 4) for k, v in table.seat_advantage.items()},
    }


def json_text(table: RatingTable, standings: Standings) -> str:
    return json.dumps(table_dict(table, standings), indent=2) + "\n"
