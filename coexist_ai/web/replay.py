"""Stepping through a recorded game in the browser.

Any game record reads here (duel and tournament records, saved plays from
the terminal or the web). A record holds the whole deck, but the page only
ever gets the Observation of the position it shows: the deck stays here.
"""
from __future__ import annotations

import threading
from typing import Any

from coexist_ai.play import gamefile
from coexist_ai.web.live import Refused
from coexist_ai.web.story import final_view, turns_view
from coexist_ai.web.view import board_view


class ReplayGame:
    """The positions of one record; the page asks for one at a time."""

    mode = "replay"

    def __init__(self, card_set: Any, record: dict[str, Any], label: str) -> None:
        self.cs, self.record, self.label = card_set, record, label
        self.states = gamefile.replay_states(record, card_set)
        self.moves = record.get("moves", [])
        self.names = gamefile.seat_names(record)
        self.human = next(iter(gamefile.human_seats(record)), None)
        self.step = 0
        self.version = 0
        self.closed = False
        self.changed = threading.Condition()   # a page's long poll waits on it

    @property
    def last(self) -> int:
        return len(self.moves)

    def go(self, step: Any) -> None:
        if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step <= self.last:
            raise Refused(f"step {step!r}: the record has moves 0 to {self.last}")
        with self.changed:
            self.step = step
            self.version += 1
            self.changed.notify_all()

    def snapshot(self) -> dict[str, Any]:
        k = self.step
        state = self.states[k]
        obs = state.observation(max(state.current_player, 0))
        at_end = k == self.last
        return {
            "mode": self.mode, "version": self.version, "you": self.human,
            "names": self.names, "board": board_view(obs), "label": self.label,
            "turns": turns_view(self.cs, {"moves": self.moves[:k],
                                          "times": self.record.get("times", [])[:k]},
                                self.names),
            "moves_made": k, "last": self.last, "thinking": None, "your_move": False,
            "legal": [], "can_undo": False, "save_path": None, "forfeits": [],
            "next": self.moves[k] if not at_end else None,
            "final": final_view(obs, self.names, self.human, self.record) if at_end else None,
        }

    def close(self) -> None:
        with self.changed:
            self.closed = True
            self.changed.notify_all()
