"""How strong the bot behind a study is: its Elo in rated records.

Results between weak players say little about a card set, so a report
names its bot and the bot's rating: by default from the project's published
tournaments (tournaments/results, when this is a source checkout), at each
player count they were played at, anchored at random = 0.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import coexist_ai
from coexist_ai import ratings
from coexist_ai.records import read_records
from coexist_ai.results import Standings

RESULTS = Path(coexist_ai.__file__).resolve().parent.parent / "tournaments" / "results"
PUBLISHED = ("ladder.jsonl", "four.jsonl")    # round robins anchored at random
ANCHOR = "random"


def published_files() -> list[Path]:
    return [RESULTS / name for name in PUBLISHED if (RESULTS / name).is_file()]


def bot_ratings(spec: str, files: list[Path] | None = None) -> list[dict[str, Any]]:
    """The bot's rating in each records file that has it (one player count
    each, anchored at random when random played): elo, low, high."""
    out = []
    for path in published_files() if files is None else files:
        records = [r for r in read_records(path) if r.get("end") != "unfinished"]
        standings = Standings(None, records)
        bot = standings.roster.find(spec)
        if bot is None or len(standings.players) != 1:
            continue
        table = ratings.compute(standings, ANCHOR)
        row = next(r for r in table.rows if r.bot == bot)
        anchor = table.names[table.groups[row.group].anchor]
        out.append({"source": path.name, "players": next(iter(standings.players)),
                    "card_set": records[0]["card_set"]["name"], "games": row.games,
                    "anchor": anchor, "elo": row.elo, "low": _finite(row.low),
                    "high": _finite(row.high), "note": row.note})
    return out


def _finite(value: float) -> float | None:
    """JSON has no infinity: an open end is None."""
    return value if math.isfinite(value) else None


def rating_text(rated: list[dict[str, Any]]) -> str:
    if not rated:
        return ("not in the rated records: rate it, e.g. coexist-ai duel SPEC greedy "
                "--games 200, to know how strong the play behind these figures is")
    parts = []
    for r in rated:
        if r["note"] == "anchor":
            parts.append(f"{r['players']} players: the anchor (0) of {r['source']}")
            continue
        low = "-inf" if r["low"] is None else f"{r['low']:+.0f}"
        high = "inf" if r["high"] is None else f"{r['high']:+.0f}"
        parts.append(f"{r['players']} players: Elo {r['elo']:+.0f} [{low}, {high}] "
                     f"({r['anchor']} = 0; {r['source']}, {r['games']} games, "
                     f"{r['card_set']})")
    return "; ".join(parts)
