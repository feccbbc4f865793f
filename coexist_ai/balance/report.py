"""The files of a balance report, in the study's folder: report.json (every
figure), cards.csv, specialties.csv and effects.csv (a row per player
count and card / specialty / effect), the PNG figures (figures.py) and
report.html, which lays them out; its card tables sort by any column
(a few lines of plain JavaScript, no external script)."""
from __future__ import annotations

import csv
import html
import json
import math
import os
from collections.abc import Callable, Sequence
from typing import Any

from coexist_ai.balance.strength import rating_text
from coexist_ai.paths import check_writable
from coexist_ai.report import ReportError

CARD_COLUMNS = ("id", "name", "fauna", "effect", "capture", "conservation", "games",
                "housed", "protected", "released", "discarded", "board", "mission",
                "deck", "with", "without", "seats_with", "impact", "low", "high",
                "significant")
SPECIALTY_COLUMNS = ("fauna", "games", "wins", "share", "low", "high", "fair",
                     "p_value", "differs")
EFFECT_COLUMNS = ("kind", "animals", "released_per_game", "applied_per_game", "with",
                  "without", "seats_with", "impact", "low", "high", "significant",
                  "score_with", "score_without", "score_impact", "score_low", "score_high")


def json_ready(value: Any) -> Any:
    """JSON has no NaN: a figure that cannot be given is null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    return value


def write(summary: dict[str, Any], folder: str) -> list[str]:
    """Write every file of the report into `folder`; their names."""
    from coexist_ai.balance.figures import figures
    written: list[str] = []

    def target(name: str) -> str:
        path = os.path.join(folder, name)
        check_writable(path)            # a device or a fifo is never replaced
        written.append(name)
        return path
    try:
        with open(target("report.json"), "w", encoding="utf-8") as f:
            json.dump(json_ready(summary), f, indent=1)
        _csv(target("cards.csv"), summary, "cards", CARD_COLUMNS)
        _csv(target("specialties.csv"), summary, "specialties", SPECIALTY_COLUMNS)
        _csv(target("effects.csv"), summary, "effects", EFFECT_COLUMNS)
        images = []
        for stem, fig in figures(summary).items():
            fig.savefig(target(f"{stem}.png"))
            images.append(f"{stem}.png")
        with open(target("report.html"), "w", encoding="utf-8") as f:
            f.write(page(summary, images))
    except OSError as e:
        raise ReportError(f"cannot write the report in {folder}: {e.strerror}") from None
    return written


def _csv(path: str, summary: dict[str, Any], key: str, columns: tuple[str, ...]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as f:
        out = csv.writer(f)
        out.writerow(("players",) + columns)
        for c in summary["counts"]:
            for row in c[key]:
                out.writerow([c["players"]] + [_cell(row.get(k)) for k in columns])


def _cell(value: object) -> object:
    if isinstance(value, float):
        return "" if math.isnan(value) else f"{value:.6g}"
    return value


def _pct(x: float | None) -> str:
    return "" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}"


Row = dict[str, Any]
Column = tuple[str, Callable[[Row], object]]


def _table(rows: Sequence[Row], columns: Sequence[Column], sortable: bool = False) -> str:
    """columns: (heading, function of a row giving its text)."""
    e = html.escape
    head = "".join(f"<th>{e(h)}</th>" for h, _ in columns)
    body = "".join("<tr>" + "".join(f"<td>{e(str(f(r)))}</td>" for _, f in columns)
                   + "</tr>\n" for r in rows)
    cls = ' class="sortable"' if sortable else ""
    return f"<table{cls}>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}</tbody></table>\n"


def _interval(r: Row, low: str = "low", high: str = "high") -> str:
    return f"[{_pct(r[low])}, {_pct(r[high])}]" if not math.isnan(r[low]) else "n/a"


def _count_section(c: dict[str, Any]) -> str:
    v = c["verdict"]
    fair = (f"every specialty within {_pct(v['tolerance'])} points of fair: "
            f"<b>{'yes' if v['within_tolerance'] else 'no'}</b> (largest gap "
            f"{_pct(v['max_deviation'])} points; intervals &plusmn;{_pct(v['max_half_width'])}"
            f" points{'' if v['precise_enough'] else ', wider than the tolerance'}); "
            f"differs from fair (Holm-corrected 5%): {', '.join(v['flagged']) or 'none'}")
    parts = {r["fauna"]: r for r in c["scores"]["by_fauna"]}
    specialties = _table(c["specialties"], [
        ("specialty", lambda r: r["fauna"]), ("games", lambda r: r["games"]),
        ("won %", lambda r: _pct(r["share"])), ("95% interval", _interval),
        ("p (fair)", lambda r: f"{r['p_value']:.3g}"),
        ("differs", lambda r: "yes" if r["differs"] else ""),
        ("mean score", lambda r: f"{parts[r['fauna']]['mean']:.1f}"),
        ("conservation + reputation + specialty", lambda r: " + ".join(
            f"{parts[r['fauna']]['parts'][k]:.1f}"
            for k in ("conservation", "reputation", "specialty")))])
    seats = _table(c["seats"], [
        ("seat", lambda r: r["order"] + 1), ("won %", lambda r: _pct(r["share"])),
        ("95% interval", _interval), ("differs", lambda r: "yes" if r["differs"] else "")])
    if c.get("matchups"):
        seats += "<h3>Matchups (2 players)</h3>\n" + _table(c["matchups"], [
            ("specialty", lambda r: r["faunas"][0]), ("against", lambda r: r["faunas"][1]),
            ("games", lambda r: r["games"]), ("won %", lambda r: _pct(r["share"])),
            ("95% interval", _interval), ("differs", lambda r: "yes" if r["differs"] else "")])
    ends = ", ".join(f"{e['reason']} {_pct(e['share'])}%" for e in c["length"]["ends"])
    rounds = c["length"]["rounds"]
    return (f"<h2>{c['players']} players: {c['games']} games</h2>\n<p>{fair}</p>\n"
            + specialties + "<h3>Seats</h3>\n" + seats
            + f"<p>rounds: mean {rounds['mean']:.1f} (10% {rounds['p10']:.0f}, 90% "
              f"{rounds['p90']:.0f}, max {rounds['max']:.0f}); ends by {html.escape(ends)}; "
              f"winner's score mean {c['scores']['winner']['mean']:.1f}</p>\n"
            + "<h3>Effects</h3>\n" + _effects(c["effects"])
            + "<h3>Cards</h3>\n<p>Click a heading to sort. Impact: the win % of the seat "
              "that released the card minus that of the other seats of the games it was in "
              "(an association, not a proof).</p>\n" + _cards(c["cards"])
            + f'<p><img src="cards-{c["players"]}p.png" alt="card impact"></p>\n')


def _effects(rows: Sequence[Row]) -> str:
    return _table(rows, [
        ("effect", lambda r: r["kind"]), ("animals", lambda r: r["animals"]),
        ("released a game", lambda r: f"{r['released_per_game']:.2f}"),
        ("applied a game", lambda r: "" if math.isnan(r["applied_per_game"])
         else f"{r['applied_per_game']:.2f}"),
        ("win % with / without", lambda r: f"{_pct(r['with'])} / {_pct(r['without'])}"),
        ("impact", lambda r: _pct(r["impact"])), ("95% interval", _interval),
        ("score impact", lambda r: "" if math.isnan(r["score_impact"])
         else f"{r['score_impact']:+.1f}")], sortable=True)


def _cards(rows: Sequence[Row]) -> str:
    return _table(rows, [
        ("card", lambda r: r["id"]), ("fauna", lambda r: r["fauna"]),
        ("effect", lambda r: r["effect"]), ("capture", lambda r: r["capture"]),
        ("conservation", lambda r: r["conservation"]), ("games", lambda r: r["games"]),
        ("housed %", lambda r: _pct(r["housed"])),
        ("protected %", lambda r: _pct(r["protected"])),
        ("released %", lambda r: _pct(r["released"])),
        ("discarded %", lambda r: _pct(r["discarded"])),
        ("left on board %", lambda r: _pct(r["board"])),
        ("releaser won %", lambda r: _pct(r["with"])),
        ("others won %", lambda r: _pct(r["without"])),
        ("impact", lambda r: _pct(r["impact"])), ("95% interval", _interval)],
        sortable=True)


SORT_SCRIPT = """<script>
// Sort a table by the column whose heading is clicked; again: the other way.
document.querySelectorAll("table.sortable th").forEach(function (th, column) {
  th.style.cursor = "pointer";
  th.addEventListener("click", function () {
    var body = th.closest("table").tBodies[0];
    var down = th.dataset.down !== "1";
    th.dataset.down = down ? "1" : "0";
    var key = function (row) {
      var text = row.cells[column].textContent.replace(/^\\[/, "");
      var number = parseFloat(text);
      return isNaN(number) ? text : number;
    };
    Array.from(body.rows).sort(function (a, b) {
      var x = key(a), y = key(b);
      var order = (typeof x === typeof y) ? (x < y ? -1 : x > y ? 1 : 0)
                                          : (typeof x === "number" ? -1 : 1);
      return down ? -order : order;
    }).forEach(function (row) { body.appendChild(row); });
  });
});
</script>
"""

STYLE = ("<style>body{font-family:sans-serif;max-width:1100px;margin:auto}"
         "table{border-collapse:collapse;margin:0.5em 0;font-size:90%}"
         "th,td{border:1px solid #bbb;padding:2px 6px;text-align:right}"
         "th{background:#eee}td:first-child{text-align:left}</style>\n")


def page(summary: dict[str, Any], images: list[str]) -> str:
    e = html.escape
    cs = summary["card_set"]
    name = cs["name"] + (" (reconstructed)" if cs["reconstructed"] else "")
    figures = "".join(f'<p><img src="{e(i)}" alt="{e(i)}"></p>\n' for i in images
                      if not i.startswith("cards-"))
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            f"<title>balance of {e(name)}</title>\n{STYLE}</head><body>\n"
            f"<h1>Balance of the card set {e(name)}</h1>\n"
            f"<p>sha256 {e(cs['sha256'])}; every seat played by <code>{e(summary['bot'])}"
            f"</code>: {e(rating_text(summary['bot_rating']))}; seed {summary['seed']}. "
            "Intervals are 95%. Data: report.json, cards.csv, specialties.csv, "
            f"effects.csv. The same games: <code>{e(summary['command'])} --out DIR</code>"
            "</p>\n" + figures
            + "".join(_count_section(c) for c in summary["counts"])
            + SORT_SCRIPT + "</body></html>\n")
