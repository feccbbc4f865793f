"""A study's figures as text lines: what `balance` prints when it is done
and what `cards report` prints (the same data as the JSON report)."""
from __future__ import annotations

import math
from typing import Any

from coexist_ai.balance.strength import rating_text

TOP_CARDS = 3     # cards shown at each end of the impact order


def pct(x: float) -> str:
    return "n/a" if x is None or math.isnan(x) else f"{100 * x:.1f}"


def interval(row: dict[str, Any], low: str = "low", high: str = "high") -> str:
    return f"[{pct(row[low])}, {pct(row[high])}]"


def study_lines(summary: dict[str, Any]) -> list[str]:
    cs = summary["card_set"]
    label = " (reconstructed)" if cs["reconstructed"] else ""
    lines = [f"card set {cs['name']!r}{label}, sha256 {cs['sha256'][:16]}",
             f"every seat played by {summary['bot']!r}: "
             + rating_text(summary["bot_rating"]),
             f"the same games: {summary['command']} --out DIR"]
    for count in summary["counts"]:
        lines += count_lines(count)
    return lines


def count_lines(c: dict[str, Any]) -> list[str]:
    n, games = c["players"], c["games"]
    length, scores = c["length"], c["scores"]
    v = c["verdict"]
    lines = [f"{n} players, {games} games" + (f" ({c['forfeits']} forfeited, left out)"
                                             if c.get("forfeits") else ""),
             f"  rounds: mean {length['rounds']['mean']:.1f}, min {length['rounds']['min']:.0f},"
             f" max {length['rounds']['max']:.0f}; moves a game: mean "
             f"{length['moves']['mean']:.0f}",
             "  ends by: " + ", ".join(f"{e['reason']} {pct(e['share'])}%"
                                       for e in length["ends"] if e["games"]),
             f"  winner's score: mean {scores['winner']['mean']:.1f}, min "
             f"{scores['winner']['min']:.0f}, max {scores['winner']['max']:.0f}",
             f"  specialty wins, % with 95% interval (fair {pct(c['fair_share'])}; "
             "ties split; * differs from fair, Holm-corrected):"]
    for row, part in zip(c["specialties"], scores["by_fauna"]):
        mark = "*" if row["differs"] else " "
        lines.append(f"   {mark}{row['fauna']:<9} {pct(row['share']):>5} {interval(row):<13}"
                     f" of {row['games']} games; score {part['mean']:.1f} ="
                     f" {part['parts']['conservation']:.1f} + {part['parts']['reputation']:.1f}"
                     f" + {part['parts']['specialty']:.1f} specialty")
    lines.append(f"  fair within {pct(v['tolerance'])} points: "
                 f"{'yes' if v['within_tolerance'] else 'no'} (largest gap "
                 f"{pct(v['max_deviation'])}; intervals +-{pct(v['max_half_width'])})")
    lines.append("  seats (turn order), % won: " + ", ".join(
        f"{s['order'] + 1}{'*' if s['differs'] else ''} {pct(s['share'])} {interval(s)}"
        for s in c["seats"]))
    lines += matchup_lines(c.get("matchups", []))
    lines += effect_lines(c["effects"])
    lines += card_lines(c["cards"])
    return lines


def matchup_lines(matchups: list[dict[str, Any]]) -> list[str]:
    if not matchups:
        return []
    return ["  matchups, % won by the first of the two (* differs from 50, Holm-corrected):"] + [
        f"   {'*' if m['differs'] else ' '}{m['faunas'][0]:<9} vs {m['faunas'][1]:<9}"
        f" {pct(m['share']):>5} {interval(m):<13} of {m['games']} games" for m in matchups]


def effect_lines(effects: list[dict[str, Any]]) -> list[str]:
    lines = ["  effects: released / applied a game; win % of seats that released one"
             " vs the others (difference, 95% interval); score difference"]
    for e in effects:
        applied = "    -" if math.isnan(e["applied_per_game"]) else f"{e['applied_per_game']:5.2f}"
        lines.append(f"    {e['kind']:<25} {e['released_per_game']:5.2f} / {applied}   "
                     f"{pct(e['with'])} vs {pct(e['without'])} ({pct(e['impact'])} "
                     f"{interval(e)}); {_points(e['score_impact'])}")
    return lines


def _points(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{x:+.1f} points"


def card_lines(cards: list[dict[str, Any]]) -> list[str]:
    rated = sorted((c for c in cards if not math.isnan(c["low"])),
                   key=lambda c: -c["impact"])
    if not rated:
        return ["  cards: too few releases to compare releasers with the others"]
    shown = rated if len(rated) <= 2 * TOP_CARDS else rated[:TOP_CARDS] + rated[-TOP_CARDS:]
    lines = ["  cards with the largest and smallest impact (releaser's win % minus the"
             " others', 95% interval; released / housed % of games):"]
    for c in shown:
        lines.append(f"    {c['id']:<28} {pct(c['impact']):>6} {interval(c):<15} "
                     f"{pct(c['released'])} / {pct(c['housed'])}")
    return lines
