"""Difficulty levels for people: presets shipped in the package
(coexist_ai/data/presets/NAME.toml), each rated by a published tournament
whose figures coexist_ai/data/levels.toml carries (tests/test_levels.py
checks them against the records). `play --level NAME` and the web game
pick a level by name through `levels()` / `level(name)`.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

from coexist_ai.bots.spec import PRESETS, BotSpecError

LEVELS_FILE = resources.files("coexist_ai") / "data" / "levels.toml"


@dataclass(frozen=True)
class Level:
    name: str           # the preset's name: spec "preset:NAME"
    spec: str
    description: str    # the preset's own
    elo: float          # over the anchor of the rating tournament
    low: float          # 95% interval (may be -inf / inf: one-sided)
    high: float
    anchor: str         # the bot at Elo 0

    def interval_text(self) -> str:
        """`[+350, +480]`, as `tournament ratings` prints it."""
        return f"[{_signed(self.low)}, {_signed(self.high)}]"

    def elo_text(self) -> str:
        """`+412 [+350, +480] over random`, as a person reads it."""
        return f"{_signed(self.elo)} {self.interval_text()} over {self.anchor}"


def _signed(x: float) -> str:
    if abs(x) == float("inf"):
        return "inf" if x > 0 else "-inf"
    return "0" if round(x) == 0 else f"{x:+.0f}"


def _load() -> dict[str, Any]:
    with LEVELS_FILE.open("rb") as f:
        return tomllib.load(f)


def levels() -> list[Level]:
    """Every level, weakest first."""
    data = _load()
    out = []
    for entry in data["level"]:
        with (PRESETS / f"{entry['name']}.toml").open("rb") as f:
            preset = tomllib.load(f)
        low, high = entry["interval"]
        out.append(Level(entry["name"], f"preset:{entry['name']}",
                         preset.get("description", ""), entry["elo"], low, high,
                         data["anchor"]))
    return sorted(out, key=lambda level: level.elo)


def level(name: str) -> Level:
    """The level of this name; BotSpecError naming the levels otherwise."""
    known = {lv.name: lv for lv in levels()}
    if name not in known:
        raise BotSpecError(f"no level {name!r}: expected one of {', '.join(known)}")
    return known[name]


def level_of_spec(spec: object) -> Level | None:
    """The level a spec names (`preset:NAME` of a level), or None."""
    if not isinstance(spec, str) or not spec.startswith("preset:"):
        return None
    return next((lv for lv in levels() if lv.spec == spec.strip()), None)


def format_levels() -> str:
    """The table `coexist-ai levels` prints."""
    rows = [(lv.name, lv.elo_text(), lv.description) for lv in levels()]
    width = [max(len(r[i]) for r in rows) for i in range(2)]
    lines = [f"{'level':<{width[0]}}  {'Elo, 95% interval':<{width[1]}}  bot"]
    lines += [f"{n:<{width[0]}}  {e:<{width[1]}}  {d}" for n, e, d in rows]
    lines.append("Play one: coexist-ai play --level NAME; use one anywhere a bot goes: "
                 "preset:NAME. Ratings: tournaments/levels.toml (README, \"Levels\").")
    return "\n".join(lines)
