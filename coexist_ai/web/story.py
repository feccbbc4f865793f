"""The game's story for the page: the moves so far, turn by turn, in words,
and the final breakdown with its tie-breaks explained."""
from __future__ import annotations

from typing import Any

from coexist_ai.play import gamefile
from coexist_ai.web import words


def turns_view(card_set: Any, record: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    """The record's moves grouped into turns (runs of one seat), oldest
    first, each move with its words; `first` is the number of its first
    move (1-based), `seconds` what the turn's moves took together (None
    where the record keeps no times): what a person waits for a bot."""
    turns, first = [], 1
    for seat, moves, seconds in gamefile.turn_runs(record):
        turns.append({"seat": seat, "name": names[seat], "first": first,
                      "seconds": None if seconds is None else round(seconds, 2),
                      "moves": [{"move": m, "text": words.describe_move(card_set, m)}
                                for m in moves]})
        first += len(moves)
    return turns


def ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def final_view(obs: Any, names: list[str], you: int | None,
               record: dict[str, Any]) -> dict[str, Any]:
    """The final table (best place first), tie-breaks and the verdict.
    The places are the record's: a forfeit ranks its seat last."""
    seats = obs.seats
    ranks = list(record.get("ranks") or obs.ranks())
    forfeited = {f["seat"]: f for f in record.get("forfeits") or []}
    rows = [{"place": ranks[p], "seat": p, "name": names[p], "fauna": str(seats[p].fauna),
             "track": seats[p].track, **seats[p].score.as_dict(),
             "forfeit": forfeited[p]["kind"] if p in forfeited else None}
            for p in sorted(range(len(seats)), key=lambda s: (ranks[s], s))]
    notes = words.tie_breaks(obs, names, exclude=set(forfeited))
    notes += [f"seat {f['seat']} ({names[f['seat']]}) forfeited ({f['kind']}): "
              f"{f.get('reason', '')}" for f in forfeited.values()]
    end = record.get("end")
    return {"rows": rows, "notes": notes, "end": end, "rounds": obs.rounds,
            "verdict": verdict(ranks, you, end)}


def verdict(ranks: list[int], you: int | None, end: str | None) -> str:
    if end == "unfinished":
        return "The record ends here: the game was left unfinished."
    if you is None:
        winners = [p for p, r in enumerate(ranks) if r == 1]
        return (f"Seat {winners[0]} wins." if len(winners) == 1 else
                f"Seats {', '.join(map(str, winners))} share first place.")
    place = ranks[you]
    if place == 1:
        return "You win!" if ranks.count(1) == 1 else "A shared first place!"
    return f"You finish {ordinal(place)} of {len(ranks)}."
