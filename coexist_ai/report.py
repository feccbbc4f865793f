"""An HTML report of some records, with PNG figures drawn by matplotlib
(an optional dependency: pip install 'coexist-ai[report]').

Figures: the Elo of each bot with its 95% interval; the score matrix as a
heat map; each bot's Elo as the games came in (the same fit on the first k
games, in canonical order); the advantage of each seat.
"""
from __future__ import annotations

import html
import math
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from coexist_ai import ratings
from coexist_ai.errors import CoexistError
from coexist_ai.results import Standings
from coexist_ai.tables import interval_text, signed

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from coexist_ai.merged import GameOrder
    from coexist_ai.ratings import RatingTable

PROGRESSION_POINTS = 40


class ReportError(CoexistError):
    """A report that cannot be made (no matplotlib, an unwritable file)."""


def _figure(width: float = 7, height: float = 4) -> Figure:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ReportError("the report needs matplotlib: pip install "
                          "'coexist-ai[report]' (or pip install matplotlib)") from None
    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def elo_figure(table: RatingTable) -> Figure:
    """Elo with its interval, best at the top; an open end is drawn to the
    edge with an arrow, an interval that is n/a is not drawn."""
    rows = table.rows[::-1]
    fig = _figure(7, 1 + 0.45 * len(rows))
    ax = fig.add_subplot()
    y = np.arange(len(rows))
    ax.plot([r.elo for r in rows], y, "o", color="tab:blue")
    finite = [x for r in rows for x in (r.low, r.high, r.elo) if math.isfinite(x)]
    left, right = min(finite) - 50, max(finite) + 50
    for k, r in enumerate(rows):
        if math.isnan(r.low) or r.note == "anchor":
            continue
        lo, hi = max(r.low, left), min(r.high, right)
        ax.plot([lo, hi], [k, k], color="tab:blue", linewidth=2)
        if math.isinf(r.high) or math.isinf(r.low):
            ax.annotate("", xy=(right if math.isinf(r.high) else left, k),
                        xytext=(hi if math.isinf(r.high) else lo, k),
                        arrowprops={"arrowstyle": "->", "color": "tab:blue"})
    ax.set_xlim(left, right)
    ax.set_yticks(y, [r.name for r in rows])
    anchors = ", ".join(sorted({table.names[g.anchor] for g in table.groups}))
    ax.set_xlabel(f"Elo ({anchors} = 0), 95% interval")
    ax.grid(axis="x", alpha=0.3)
    return fig


def score_figure(table: RatingTable) -> Figure:
    """Score of the row bot against the column bot, as a heat map."""
    order = [r.bot for r in table.rows]
    names = [table.names[i] for i in order]
    played = table.games[np.ix_(order, order)]
    share = np.where(played > 0, table.wins[np.ix_(order, order)] / np.maximum(played, 1), np.nan)
    fig = _figure(2.5 + 0.8 * len(order), 1.5 + 0.7 * len(order))
    ax = fig.add_subplot()
    image = ax.imshow(share, cmap="RdYlGn", vmin=0, vmax=1)
    for a in range(len(order)):
        for b in range(len(order)):
            if not np.isnan(share[a, b]):
                ax.text(b, a, f"{share[a, b]:.0%}", ha="center", va="center", fontsize=9)
    ax.set_xticks(range(len(order)), names, rotation=30, ha="right")
    ax.set_yticks(range(len(order)), names)
    ax.set_title("score of the row bot against the column bot")
    fig.colorbar(image, ax=ax, shrink=0.8)
    return fig


def progression(table: RatingTable, standings: Standings, order: GameOrder,
                anchor: str | None) -> list[tuple[int, list[float]]]:
    """(games so far, Elo of every bot) after a growing share of the games,
    read again one at a time in canonical order."""
    total = len(order)
    steps = {max(1, round(total * k / PROGRESSION_POINTS))
             for k in range(1, PROGRESSION_POINTS + 1)}
    partial = Standings()
    partial.roster.declared_like(standings.roster)   # the bots' final keys from the start
    out: list[tuple[int, list[float]]] = []
    done = 0
    for record in order.records():
        partial.add(record)
        done += 1
        if done in steps:
            estimates = ratings.point_estimates(partial, anchor)
            by_name = dict(zip(partial.names, estimates))
            out.append((done, [by_name.get(name, np.nan) for name in table.names]))
    return out


def progression_figure(table: RatingTable, standings: Standings, order: GameOrder,
                       anchor: str | None) -> Figure:
    points = progression(table, standings, order, anchor)
    fig = _figure(7, 4)
    ax = fig.add_subplot()
    games = [p[0] for p in points]
    for r in table.rows:
        ax.plot(games, [p[1][r.bot] for p in points], label=r.name)
    ax.set_xlabel("games played")
    ax.set_ylabel("Elo")
    ax.set_title("Elo as the games came in")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return fig


def seat_figure(table: RatingTable) -> Figure:
    seats = sorted(table.seat_advantage)
    fig = _figure(2 + 0.8 * len(seats), 3)
    ax = fig.add_subplot()
    ax.bar([f"seat {s}" for s in seats], [100 * table.seat_advantage[s] for s in seats],
           color="tab:gray")
    ax.axhline(50, color="black", linewidth=1)
    ax.set_ylabel("mean pairwise score, %")
    ax.set_title("seat advantage")
    return fig


def figures(table: RatingTable, standings: Standings, order: GameOrder,
            anchor: str | None = None) -> dict[str, Figure]:
    """{file suffix: Figure}; `order`: the games (merged.GameOrder)."""
    return {"elo": elo_figure(table), "scores": score_figure(table),
            "progression": progression_figure(table, standings, order, anchor),
            "seats": seat_figure(table)}


def write(table: RatingTable, standings: Standings, order: GameOrder, out: str,
          anchor: str | None = None) -> list[str]:
    """Write the HTML file and its figures beside it; returns the figures'
    file names."""
    stem = os.path.splitext(out)[0]
    names = []
    try:
        for suffix, fig in figures(table, standings, order, anchor).items():
            path = f"{stem}-{suffix}.png"
            fig.savefig(path)
            names.append(os.path.basename(path))
        with open(out, "w", encoding="utf-8") as f:
            f.write(page(table, standings, names))
    except OSError as e:
        raise ReportError(f"cannot write the report {out}: {e.strerror}") from None
    return names


def page(table: RatingTable, standings: Standings, figure_files: Sequence[str]) -> str:
    e = html.escape
    head = ["bot", "games", "W", "D", "L", "score", "Elo", "95% interval", "LOS", "note"]
    rows = "".join(
        "<tr>" + "".join(f"<td>{e(str(c))}</td>" for c in (
            r.name, r.games, r.wins, r.draws, r.losses, f"{r.score:.1%}", signed(r.elo),
            interval_text(r), "" if math.isnan(r.los_next) else f"{r.los_next:.2f}",
            "" if r.note == "anchor" else r.note)) + "</tr>\n" for r in table.rows)
    images = "".join(f'<p><img src="{e(name)}" alt="{e(name)}"></p>\n' for name in figure_files)
    from coexist_ai.tables import failure_lines
    failures = "\n".join(failure_lines(standings))
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            f"<title>coexist-ai ratings: {table.records} games</title></head><body>\n"
            f"<h1>Ratings of {table.records} games</h1>\n"
            f"<table border=\"1\" cellpadding=\"4\">\n<tr>"
            + "".join(f"<th>{h}</th>" for h in head) + "</tr>\n" + rows + "</table>\n"
            + (f"<h2>Failures</h2><pre>{e(failures)}</pre>\n" if failures else "")
            + "<h2>Figures</h2>\n" + images + "</body></html>\n")
