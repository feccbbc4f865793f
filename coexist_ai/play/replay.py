"""Stepping through a recorded game, forwards and backwards.

Any game record reads here: tournament and duel records, saved plays
(finished or not). Every position is drawn by the same renderer as a game
in play, from an Observation: a record holds the whole deck, but the screen
shows only the draw pile's size.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from coexist_ai.match import Record
from coexist_ai.play import gamefile
from coexist_ai.play.render import group_runs, render_final, render_position
from coexist_ai.play.style import Style

if TYPE_CHECKING:
    from coexist_ai._engine import Observation
    from coexist_ai.cards import CardSet
    from coexist_ai.play.console import Console

REPLAY_HELP = ("n or Enter: next move | p: previous | g N: go to move N | "
               "s: start | e: end | q: quit")


class Replay:
    """The positions of one record, drawn on demand."""

    def __init__(self, card_set: CardSet, record: Record, label: str) -> None:
        self.cs, self.record, self.label = card_set, record, label
        self.states = gamefile.replay_states(record, card_set)
        self.moves = record.get("moves", [])
        self.names = gamefile.seat_names(record)

    @property
    def last(self) -> int:
        """The number of moves in the record."""
        return len(self.moves)

    def screen(self, k: int, style: Style) -> str:
        """The position after k moves, with the moves around it; after the
        last move, the final score breakdown."""
        state = self.states[k]
        obs = state.observation(state.current_player)
        title = (f"{self.label} | card set {self.cs.display_name} | "
                 f"move {k} of {self.last}")
        runs = group_runs([(seat, move) for seat, move in self.moves[:k]])[-state.num_players:]
        recent = [(seat, move) for seat, moves in runs for move in moves]
        lines = [render_position(obs, self.names, None, recent, style, title=title)]
        if k > 0:
            seat, move = self.moves[k - 1]
            lines.append(f"last move ({k}): {self._who(seat, style)} played {style.bold(move)}")
        if k < self.last:
            seat, move = self.moves[k]
            lines.append(f"next move ({k + 1}): {self._who(seat, style)} plays {move}")
        else:
            lines.append("")
            lines.append(self._ending(obs, style))
        return "\n".join(lines)

    def _who(self, seat: int, style: Style) -> str:
        return style.seat(seat, f"seat {seat} ({self.names[seat]})")

    def _ending(self, obs: Observation, style: Style) -> str:
        end = self.record.get("end")
        if end == gamefile.UNFINISHED:
            return style.bold("The record ends here: the game was left unfinished. "
                              "Scores so far:") + "\n" + render_final(obs, self.names, None, style)
        forfeits = self.record.get("forfeits") or []
        ranks = self.record.get("ranks") if forfeits else None
        text = render_final(obs, self.names, None, style, ranks=ranks, forfeits=forfeits)
        for f in forfeits:
            text += (f"\nseat {f['seat']} forfeited ({f['kind']}): {f.get('reason', '')}")
        return text


def parse_command(line: str, k: int, last: int) -> int | str:
    """The move number to show next, "quit", "help", or an error text."""
    words = line.strip().lower().split()
    if not words or words[0] in ("n", "next"):
        return min(k + 1, last) if k < last else "at the end of the game (p: back, q: quit)"
    word = words[0]
    if word in ("p", "prev", "previous", "b", "back"):
        return max(k - 1, 0) if k > 0 else "at the start of the game (n: forward, q: quit)"
    if word in ("q", "quit", "exit"):
        return "quit"
    if word in ("s", "start"):
        return 0
    if word in ("e", "end"):
        return last
    if word in ("h", "help", "?"):
        return "help"
    if word in ("g", "go", "goto") or word.isdigit():
        arg = words[1] if word in ("g", "go", "goto") and len(words) > 1 else word
        if arg.isdigit() and 0 <= int(arg) <= last:
            return int(arg)
        return f"g N: N is a move number from 0 to {last}"
    return f"{line.strip()!r}: {REPLAY_HELP}"


def run_replay(replay: Replay, console: Console, start: int = 0) -> int:
    """The interactive viewer; returns 0 when the person quits."""
    k = start
    console.screen(replay.screen(k, console.style))
    while True:
        try:
            line = console.read(f"move {k}/{replay.last} [n, p, g N, s, e, q] > ")
        except EOFError:
            console.write("")
            return 0
        answer = parse_command(line, k, replay.last)
        if answer == "quit":
            return 0
        if answer == "help":
            console.write(REPLAY_HELP)
        elif isinstance(answer, str):
            console.write(console.style.error(answer))
        else:
            k = answer
            console.screen(replay.screen(k, console.style))
