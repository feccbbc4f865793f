#!/usr/bin/env python3
"""Print the docs/balance.md table row of a balance study's report.json.

    python tools/screen_row.py SCREEN "what changed" DIR/report.json...
    python tools/screen_row.py --study DIR/report.json

One row a player count: win % by fauna (bold where the share differs from
fair), the largest gap with the widest 95% half-width, each fauna's mean
specialty points and the seats' win %. `--study` prints the table of a
confirming study instead: each share with its 95% interval. The tables are
written from the reports by this, so a number is never typed by hand.
"""

from __future__ import annotations

import json
import sys

FAUNAS = ("forest", "air", "sea", "savannah")


def percent(value: float) -> str:
    return f"{100 * value:.1f}"


def row(screen: str, change: str, count: dict) -> str:
    by_fauna = {s["fauna"]: s for s in count["specialties"]}
    wins = " / ".join(bold_if(s["differs"], percent(s["share"]))
                      for s in (by_fauna[f] for f in FAUNAS))
    points = {s["fauna"]: s["parts"]["specialty"] for s in count["scores"]["by_fauna"]}
    gap = gap_text(count["verdict"])
    seats = ", ".join(percent(seat["share"]) for seat in count["seats"])
    cells = (screen, change, str(count["players"]), str(count["games"]), wins, gap,
             " / ".join(f"{points[f]:.1f}" for f in FAUNAS), seats)
    return "| " + " | ".join(cells) + " |"


def gap_text(verdict: dict) -> str:
    """The largest gap from fair, with the widest 95% half-width."""
    return f"{percent(verdict['max_deviation'])} (±{percent(verdict['max_half_width'])})"


def bold_if(differs: bool, text: str) -> str:
    return f"**{text}**" if differs else text


def study_row(count: dict) -> str:
    by_fauna = {s["fauna"]: s for s in count["specialties"]}
    shares = [bold_if(s["differs"], percent(s["share"])) +
              f" [{percent(s['low'])}, {percent(s['high'])}]"
              for s in (by_fauna[f] for f in FAUNAS)]
    gap = gap_text(count["verdict"])
    seats = ", ".join(bold_if(seat["differs"], percent(seat["share"]))
                      for seat in count["seats"])
    return "| " + " | ".join((str(count["players"]), f"{count['games']:,}", *shares,
                              gap, seats)) + " |"


def main(argv: list[str]) -> int:
    study = argv[:1] == ["--study"]
    if (study and len(argv) != 2) or (not study and len(argv) < 3):
        print(__doc__, file=sys.stderr)
        return 2
    if study:
        print("| players | games | " + " | ".join(FAUNAS) + " | largest gap | seats |")
        print("|---" * (4 + len(FAUNAS)) + "|")
    for path in argv[1:] if study else argv[2:]:
        with open(path, encoding="utf-8") as file:
            report = json.load(file)
        for count in report["counts"]:
            print(study_row(count) if study else row(argv[0], argv[1], count))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
