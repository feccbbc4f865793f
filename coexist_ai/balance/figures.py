"""The figures of a balance report, drawn by matplotlib (the optional
`report` extra): win shares with their 95% intervals, score histograms,
card impacts and game lengths. Each takes the study's data (study.summarize)."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from coexist_ai.report import _figure

if TYPE_CHECKING:
    from matplotlib.figure import Figure

Summary = dict[str, Any]     # study.summarize's data

COLOURS = {"forest": "tab:green", "air": "tab:cyan", "sea": "tab:blue",
           "savannah": "tab:orange"}


def _error_bars(rows: list[dict[str, Any]], key: str) -> tuple[np.ndarray, np.ndarray]:
    shares = np.array([100 * r["share"] for r in rows])
    low = shares - np.array([100 * r["low"] for r in rows])
    high = np.array([100 * r["high"] for r in rows]) - shares
    return shares, np.vstack([low, high])


def _share_panels(summary: Summary, what: str, label: Callable[[dict[str, Any]], str],
                  title: str) -> Figure:
    counts = summary["counts"]
    fig = _figure(3.2 * len(counts) + 0.6, 3.4)
    axes = fig.subplots(1, len(counts), squeeze=False)[0]
    for ax, c in zip(axes, counts):
        rows = c[what]
        shares, errors = _error_bars(rows, "share")
        names = [label(r) for r in rows]
        colours = [COLOURS.get(r.get("fauna"), "tab:gray") for r in rows]
        ax.bar(names, shares, yerr=errors, capsize=4, color=colours)
        fair, tol = 100 * c["fair_share"], 100 * c["verdict"]["tolerance"]
        ax.axhspan(fair - tol, fair + tol, color="black", alpha=0.08, linewidth=0)
        ax.axhline(fair, color="black", linewidth=1)
        ax.set_title(f"{c['players']} players, {c['games']} games", fontsize=10)
        ax.tick_params(axis="x", labelrotation=30, labelsize=8)
    axes[0].set_ylabel("% of games won (95% interval)")
    fig.suptitle(title, fontsize=11)
    return fig


def specialty_figure(summary: Summary) -> Figure:
    return _share_panels(summary, "specialties", lambda r: r["fauna"],
                         "specialty win share; line: fair share, band: the tolerance")


def seat_figure(summary: Summary) -> Figure:
    return _share_panels(summary, "seats", lambda r: f"seat {r['order'] + 1}",
                         "win share by turn order (seat 1 moves first)")


def score_figure(summary: Summary) -> Figure:
    counts = summary["counts"]
    fig = _figure(3.2 * len(counts) + 0.6, 3.4)
    axes = fig.subplots(1, len(counts), squeeze=False)[0]
    for ax, c in zip(axes, counts):
        for row in c["scores"]["by_fauna"]:
            values, hist = row["histogram"]["values"], row["histogram"]["counts"]
            total = sum(hist)
            ax.step(values, [100 * h / total for h in hist], where="mid",
                    color=COLOURS.get(row["fauna"]), label=f"{row['fauna']} {row['mean']:.1f}")
        ax.set_title(f"{c['players']} players", fontsize=10)
        ax.set_xlabel("final score")
        ax.legend(fontsize=7, title="mean", title_fontsize=7)
    axes[0].set_ylabel("% of seats")
    fig.suptitle("final scores by specialty", fontsize=11)
    return fig


def card_figure(count: dict[str, Any]) -> Figure:
    """Each card's impact with its interval, highest first."""
    rated = sorted((r for r in count["cards"] if not math.isnan(r["low"])),
                   key=lambda r: r["impact"])
    fig = _figure(7, 1 + 0.16 * max(1, len(rated)))
    ax = fig.add_subplot()
    y = np.arange(len(rated))
    impact = np.array([100 * r["impact"] for r in rated])
    ax.errorbar(impact, y, xerr=[impact - [100 * r["low"] for r in rated],
                                 [100 * r["high"] for r in rated] - impact],
                fmt="o", markersize=3, color="tab:blue", ecolor="tab:gray")
    ax.axvline(0, color="black", linewidth=1)
    ax.set_yticks(y, [r["id"] for r in rated], fontsize=6)
    ax.set_xlabel("releaser's win % minus the other seats' (95% interval)")
    ax.set_title(f"card impact, {count['players']} players", fontsize=10)
    return fig


def length_figure(summary: Summary) -> Figure:
    fig = _figure(6, 3.2)
    ax = fig.add_subplot()
    for c in summary["counts"]:
        hist = c["length"]["rounds_histogram"]
        total = sum(hist["counts"])
        ax.step(hist["values"], [100 * h / total for h in hist["counts"]], where="mid",
                label=f"{c['players']} players")
    ax.set_xlabel("rounds")
    ax.set_ylabel("% of games")
    ax.legend(fontsize=8)
    ax.set_title("game length", fontsize=10)
    return fig


def figures(summary: Summary) -> dict[str, Figure]:
    """{file stem: Figure}."""
    out = {"specialties": specialty_figure(summary), "seats": seat_figure(summary),
           "scores": score_figure(summary), "rounds": length_figure(summary)}
    for c in summary["counts"]:
        out[f"cards-{c['players']}p"] = card_figure(c)
    return out
