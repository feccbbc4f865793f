"""What every bot is."""


class Bot:
    """A player. Subclasses implement `choose`; `info` holds what the last
    decision reported (iterations, value, principal line...)."""

    name = "bot"

    def __init__(self, spec, params):
        self.spec = spec          # the spec string it was made from
        self.params = params      # every setting, defaults filled in
        self.info = {}

    def new_game(self, seat, num_players):
        """Called before a game; bots that keep state between moves reset it."""

    def choose(self, observation):
        """The action (an int from observation.legal_actions()) to play."""
        raise NotImplementedError

    def stop(self):
        """Called from another thread while `choose` runs: answer now with
        the best move found so far. It holds (later decisions also answer at
        once) until `clear_stop`, which the caller makes before a decision it
        may stop, so that a stop arriving before the thinking has begun is
        not lost. Bots that answer at once ignore both."""

    def clear_stop(self):
        """Think fully again (see `stop`)."""

    def close(self):
        """Release what the bot holds (threads, processes)."""

    def __repr__(self):
        return f"<{type(self).__name__} {self.spec!r}>"
