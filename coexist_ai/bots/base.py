"""What every bot is."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from coexist_ai._engine import Observation


class Bot:
    """A player. Subclasses implement `choose`; `info` holds what the last
    decision reported (iterations, value, principal line...)."""

    name = "bot"

    def __init__(self, spec: str, params: dict[str, Any]) -> None:
        self.spec = spec          # the spec string it was made from
        self.params = params      # every setting, defaults filled in
        self.info: dict[str, Any] = {}

    def new_game(self, seat: int, num_players: int) -> None:
        """Called before a game; bots that keep state between moves reset it."""

    def choose(self, observation: Observation) -> int:
        """The action (an int from observation.legal_actions()) to play."""
        raise NotImplementedError

    def stop(self) -> None:
        """Called from another thread while `choose` runs: answer now with
        the best move found so far. It holds (later decisions also answer at
        once) until `clear_stop`, which the caller makes before a decision it
        may stop, so that a stop arriving before the thinking has begun is
        not lost. Bots that answer at once ignore both."""

    def clear_stop(self) -> None:
        """Think fully again (see `stop`)."""

    def close(self) -> None:
        """Release what the bot holds (threads, processes)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec!r}>"
