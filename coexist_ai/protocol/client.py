"""External bots: any program that speaks the protocol, as a Bot.

`make_bot("cmd:python3 bots/examples/first_legal.py")` or a TOML file with
`bot = "external"` gives an ExternalBot. Its process starts at the first
decision of a game (so that making a bot to check its spec starts nothing),
and every way it can fail becomes a BotFailure that forfeits the game:

- crash: it cannot be started, exits, or closes its output;
- stall: it does not complete the handshake, an option or a new game in
  `start_timeout` seconds;
- time: it gives no move within `move_time` plus `time_margin` seconds;
- illegal: it writes a line that is not a message, an error, a reply of the
  wrong type or id, or a move that is not legal.

The process is then killed; the next game starts a fresh one.
"""
from __future__ import annotations

import functools
import json
import shlex
from typing import TYPE_CHECKING, Any

from coexist_ai.bots.base import Bot
from coexist_ai.errors import CoexistError
from coexist_ai.match import BotFailure
from coexist_ai.protocol.connection import Connection, PeerFailure
from coexist_ai.protocol.messages import (PROTOCOL_VERSION, card_set_payload, move_command,
                                          newgame_command)
from coexist_ai.protocol.specs import Params, typed_option

if TYPE_CHECKING:
    from coexist_ai._engine import Observation
    from coexist_ai.cards import CardSet

QUIT_GRACE = 0.5


class ExternalBot(Bot):
    """A bot in another process, reached over the protocol."""

    name = "external"

    def __init__(self, spec: str, params: Params) -> None:
        super().__init__(spec, params)
        self.conn: Connection | None = None
        self.identity: dict[str, Any] = {}    # name, author, options from its hello
        self._game: tuple[int, int] | None = None   # (seat, players) of the next game
        self._announced = False

    def new_game(self, seat: int, num_players: int) -> None:
        self._game, self._announced = (seat, num_players), False

    def choose(self, observation: Observation) -> int:
        try:
            if self.conn is None:
                self._start()
            if not self._announced:
                self._announce(observation)
            return self._ask(observation)
        except PeerFailure as failure:
            detail = self._detail(failure.message)
            self.close(grace=0)
            raise BotFailure(failure.kind, detail) from None

    def close(self, grace: float = QUIT_GRACE) -> None:
        if self.conn is not None:
            if grace:
                self.conn.quit(grace)
            else:
                self.conn.kill()
            self.conn = None

    # -- the conversation ----------------------------------------------------------
    def _start(self) -> None:
        p = self.params
        self.conn = conn = Connection(p["command"], p["cwd"])
        self._announced = False
        conn.start()
        hello, _ = conn.request({"type": "hello", "protocol": PROTOCOL_VERSION},
                                p["start_timeout"], "hello", "stall", "hello")
        if hello.get("protocol") != PROTOCOL_VERSION:
            raise PeerFailure("illegal", f"the bot speaks protocol {hello.get('protocol')!r}; "
                              f"this frontend speaks {PROTOCOL_VERSION}")
        self.identity = {k: hello.get(k) for k in ("name", "author", "options")}
        options = hello.get("options")
        declared = {o.get("name"): o for o in (options if isinstance(options, list) else ())
                    if isinstance(o, dict)}
        for name, value in p["options"].items():
            value = typed_option(value, declared.get(name))
            conn.request({"type": "setoption", "name": name, "value": value},
                         p["start_timeout"], f"setoption {name}={value!r}", "stall", "ok")

    def _announce(self, observation: Observation) -> None:
        seat, players = self._game or (observation.viewer, observation.num_players)
        self._conn().request(newgame_command(seat, players, self.params["seed"],
                                             _payload(observation.card_set)),
                             self.params["start_timeout"], "newgame", "stall", "ok")
        self._announced = True

    def _ask(self, observation: Observation) -> int:
        p = self.params
        request = move_command(observation, p["move_time"], p["time_margin"])
        legal = request["legal"]
        what = f"the move request ({p['move_time']:g} s + {p['time_margin']:g} s margin)"
        reply, seconds = self._conn().request(request, p["move_time"] + p["time_margin"],
                                              what, "time", "move")
        text = reply.get("move")
        if not isinstance(text, str):
            raise PeerFailure("illegal", f"move reply without a \"move\" string: "
                              f"{json.dumps(reply)[:200]}")
        try:
            action = observation.parse_move(text)
        except CoexistError:
            shown = ", ".join(legal[:12]) + (", ..." if len(legal) > 12 else "")
            raise PeerFailure("illegal", f"move {text[:100]!r} is not legal in the "
                              f"'{observation.phase}' decision (legal: {shown})") from None
        info = reply.get("info")
        self.info = dict(info) if isinstance(info, dict) else {}
        self.info["seconds"] = seconds
        return action

    def _conn(self) -> Connection:
        assert self.conn is not None, "choose() starts the bot first"
        return self.conn

    def _detail(self, message: str) -> str:
        command = " ".join(shlex.quote(part) for part in self.params["command"])
        name, author = self.identity.get("name"), self.identity.get("author")
        who = f"{name!r} by {author!r}: " if isinstance(name, str) and name else ""
        detail = f"{message} [{who}{command}]"
        tail = self.conn.stderr_tail() if self.conn else ""
        if tail.startswith("cannot start "):   # the launcher's own word: say it first
            return f"{tail.strip()} [{who}{command}]"
        return detail + (f"; stderr: {tail}" if tail else "; stderr: (empty)")


@functools.lru_cache(maxsize=8)
def _payload(card_set: CardSet) -> dict[str, Any]:
    return card_set_payload(card_set)
