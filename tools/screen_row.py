#!/usr/bin/env python3
"""Print the docs/balance.md table row of a balance study's report.json.

    python tools/screen_row.py SCREEN "what changed" DIR/report.json...

One row a player count: win % by fauna (bold where the share differs from
fair), the largest gap with the widest 95% half-width, each fauna's mean
specialty points and the seats' win %. The screens' tables are written
from the reports by this, so a number is never typed by hand.
"""

from __future__ import annotations

import json
import sys

FAUNAS = ("forest", "air", "sea", "savannah")


def percent(value: float) -> str:
    return f"{100 * value:.1f}"


def row(screen: str, change: str, count: dict) -> str:
    by_fauna = {s["fauna"]: s for s in count["specialties"]}
    wins = " / ".join(f"**{percent(s['share'])}**" if s["differs"] else percent(s["share"])
                      for s in (by_fauna[f] for f in FAUNAS))
    points = {s["fauna"]: s["parts"]["specialty"] for s in count["scores"]["by_fauna"]}
    verdict = count["verdict"]
    gap = f"{percent(verdict['max_deviation'])} (±{percent(verdict['max_half_width'])})"
    seats = ", ".join(percent(seat["share"]) for seat in count["seats"])
    cells = (screen, change, str(count["players"]), str(count["games"]), wins, gap,
             " / ".join(f"{points[f]:.1f}" for f in FAUNAS), seats)
    return "| " + " | ".join(cells) + " |"


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    screen, change, *paths = argv
    for path in paths:
        with open(path, encoding="utf-8") as file:
            report = json.load(file)
        for count in report["counts"]:
            print(row(screen, change, count))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
