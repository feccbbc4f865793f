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

    def close(self):
        """Release what the bot holds (threads, processes)."""

    def __repr__(self):
        return f"<{type(self).__name__} {self.spec!r}>"
