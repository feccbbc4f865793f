"""`coexist-ai serve BOTSPEC`: a built-in bot behind the protocol.

The main thread reads commands; a move is computed in a worker thread (the
search runs in C without the GIL), so ping is answered while the bot thinks
and stop makes it answer at once with the best move found so far.
Nothing a frontend sends stops the engine: a line that is not a message, an
unknown command or an impossible request gets an error reply and the engine
reads on. `quit` leaves at once; end of input leaves once a move being
computed has been sent.
"""
from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterable
from typing import IO, TYPE_CHECKING, Any, TypeGuard

from coexist_ai.bots.spec import BOT_TYPES, canonical_spec, make_bot, parse_spec
from coexist_ai.bots.spec import BotSpecError
from coexist_ai.cards import PACKAGED_NAMES, packaged_card_set
from coexist_ai.errors import CoexistError
from coexist_ai.protocol.messages import (COMMANDS, MAX_COMMAND_LINE, PROTOCOL_VERSION,
                                          ProtocolError, card_set_from_payload, decode,
                                          Message, encode, error_reply)

if TYPE_CHECKING:
    from coexist_ai._engine import Observation
    from coexist_ai.bots.base import Bot
    from coexist_ai.cards import CardSet

AUTHOR = "coexist-ai"
SENT_CARD_SETS = 16     # card sets from newgame kept (the most recent): memory stays bounded
TYPE_NAMES = {int: "int", float: "float", bool: "bool", str: "string"}
BUDGET_SHARE, BUDGET_RESERVE = 0.8, 0.02   # of the time a move request allows


class Engine:
    """The served bot and the game it is in; `run` reads commands until
    quit or end of input."""

    def __init__(self, spec: str, output: IO[bytes], card_sets: Iterable[CardSet] = ()) -> None:
        name, params = parse_spec(spec)
        if name not in BOT_TYPES:
            raise BotSpecError(f"serve runs a built-in bot; {spec!r} is an external "
                               "bot, which speaks the protocol already")
        self.kind, self.params = name, params
        self.output = output            # binary, line by line
        self.lock = threading.Lock()    # one writer at a time
        packaged = map(packaged_card_set, PACKAGED_NAMES)
        self.card_sets = {cs.sha256: cs for cs in (*packaged, *card_sets)}
        self.sent_card_sets: dict[str, CardSet] = {}   # from newgame, by sha256, oldest first
        self.bot = self._make_bot()
        self.worker: threading.Thread | None = None
        self.busy = False               # a move is being computed...
        self.thinking_on: object = None   # ...for the request with this id
        self.game: tuple[int, int] | None = None   # (seat, players)

    # -- the loop --------------------------------------------------------------------
    def run(self, stream: IO[bytes]) -> bool:
        """Handle every line of `stream` (binary); returns on quit (True)
        or at end of input (False, after the pending move is sent)."""
        while True:
            line = stream.readline(MAX_COMMAND_LINE + 1)
            if not line:
                self.wait()
                return False
            if len(line) > MAX_COMMAND_LINE and not line.endswith(b"\n"):
                _skip_rest_of_line(stream)
                self.send(error_reply(None, f"line longer than {MAX_COMMAND_LINE} bytes: "
                                            "ignored"))
                continue
            if not line.strip():
                continue
            if self.handle(line) == "quit":
                return True

    def handle(self, line: bytes) -> str | None:
        try:
            message = decode(line)
        except ProtocolError as e:
            self.send(error_reply(None, str(e)))
            return None
        kind, message_id = message["type"], message.get("id")
        if kind == "quit":
            return "quit"
        if kind == "stop":
            self.on_stop()
            return None
        if kind == "ping":
            self.send({"type": "pong", "id": message_id} if "id" in message else {"type": "pong"})
            return None
        if kind not in COMMANDS:
            self.send(error_reply(message_id, f"unknown command {kind!r}; commands: "
                                              f"{', '.join(COMMANDS)}"))
            return None
        if self.busy:
            self.send(error_reply(message_id, f"busy with move request {self.thinking_on!r}: "
                                              "until its reply only ping, stop and quit are "
                                              "answered"))
            return None
        try:
            reply: Message | None = getattr(self, "on_" + kind)(message)
        except CoexistError as e:
            reply = error_reply(message_id, f"{kind}: {e}")
        except Exception as e:   # a request nobody foresaw: refuse it, read on
            reply = error_reply(message_id, f"{kind}: cannot do this request "
                                            f"({type(e).__name__}: {e})")
        if reply is not None:
            if message_id is not None:
                reply = dict(reply, id=message_id)
            self.send(reply)
        return None

    def send(self, message: Message, done_thinking: bool = False) -> None:
        data = encode(message)
        with self.lock:
            if done_thinking:       # under the lock: nothing overtakes the move
                self.busy, self.thinking_on = False, None
            try:
                self.output.write(data)
                self.output.flush()
            except (BrokenPipeError, ValueError, OSError):
                pass        # the frontend is gone: end of input will follow

    def wait(self) -> None:
        if self.worker is not None:
            self.worker.join()

    # -- commands ----------------------------------------------------------------------
    def on_hello(self, message: Message) -> Message:
        return {"type": "hello", "protocol": PROTOCOL_VERSION,
                "name": f"coexist-ai {self.kind}", "author": AUTHOR,
                "options": self.options()}

    def options(self) -> list[dict[str, Any]]:
        out = []
        for p in BOT_TYPES[self.kind][2]:
            option: dict[str, Any] = {"name": p.name, "type": TYPE_NAMES[p.kind],
                      "default": self.params[p.name], "help": p.help}
            if p.low is not None:
                option.update(min=p.low, max=p.high)
            if p.choices:
                option["choices"] = list(p.choices)
            out.append(option)
        return out

    def on_setoption(self, message: Message) -> Message:
        name, value = message.get("name"), message.get("value")
        known = {p.name: p for p in BOT_TYPES[self.kind][2]}
        if name not in known:
            raise ProtocolError(f"no option {name!r}; options: {', '.join(known)}")
        if value is None or isinstance(value, (dict, list)):
            raise ProtocolError(f"option {name!r} needs a value (a number, string or boolean)")
        text = str(value).lower() if isinstance(value, bool) else str(value)
        params = dict(self.params, **{name: known[name].parse(text, f"setoption {name}")})
        parse_spec(canonical_spec(self.kind, params))        # the bot's own checks
        self.params = params
        self.bot = self._make_bot()
        return {"type": "ok"}

    def on_newgame(self, message: Message) -> Message:
        if "card_set" in message:
            self._learn(card_set_from_payload(message["card_set"]))
        seat, players = message.get("seat", 0), message.get("players", 2)
        if not (_whole(players) and 2 <= players <= 4 and _whole(seat) and 0 <= seat < players):
            raise ProtocolError(f"seat {seat!r} of players {players!r}: expected 2..4 players "
                                "and a seat below that")
        seed = _seed_of(message)
        if seed is not None:
            self.params = dict(self.params, seed=seed % 2**63)
        self.bot = self._make_bot()
        self.bot.new_game(seat, players)
        self.game = (seat, players)
        return {"type": "ok"}

    def on_move(self, message: Message) -> None:
        from coexist_ai.state_json import observation_from_json
        document = message.get("observation")
        if not isinstance(document, dict):
            raise ProtocolError("no \"observation\" object (a coexist-observation document)")
        card_set = self._card_set_of(document)
        observation = observation_from_json(document, card_set)
        if observation.is_over():
            raise ProtocolError("the game in this observation is over: there is no move to make")
        if observation.viewer != observation.current_player:
            raise ProtocolError(f"the observation is seat {observation.viewer}'s, but seat "
                                f"{observation.current_player} is to move")
        legal = message.get("legal")
        if legal is not None and sorted(map(str, legal)) != sorted(observation.legal_moves()):
            raise ProtocolError(f"\"legal\" lists {legal!r}, but the observation's legal "
                                f"moves are {observation.legal_moves()!r}")
        seconds = message.get("time")
        if seconds is not None and (isinstance(seconds, bool)
                                    or not isinstance(seconds, (int, float)) or seconds <= 0):
            raise ProtocolError(f"time {seconds!r}: expected a number of seconds > 0")
        self.busy, self.thinking_on = True, message.get("id")
        self.bot.clear_stop()
        self.worker = threading.Thread(target=self._think, daemon=True, name="serve-think",
                                       args=(observation, seconds, message.get("id")))
        self.worker.start()
        return None

    def on_stop(self) -> None:
        """Move now: the move being computed is answered with the best found
        so far. No reply of its own (the move is the reply), and nothing to
        do when no move is being computed: a stop that crosses the move on
        the wire must not be taken for a mistake."""
        if self.busy:
            self.bot.stop()

    # -- thinking ----------------------------------------------------------------------
    def _think(self, observation: Observation, seconds: float | None,
               message_id: object) -> None:
        try:
            action = self._choose(observation, seconds)
            reply: Message = {"type": "move", "move": observation.move_name(action),
                     "info": self._info(observation)}
        except Exception as e:   # whatever happens, the frontend gets a reply
            reply = error_reply(None, f"move: the bot failed: {type(e).__name__}: {e}")
        if message_id is not None:
            reply = dict(reply, id=message_id)
        self.send(reply, done_thinking=True)

    def _choose(self, observation: Observation, seconds: float | None) -> int:
        """The bot's move; a bot with a `time` setting searches no longer
        than the request allows (less a reserve for the reply)."""
        if seconds is None or "time" not in self.bot.params:
            return self.bot.choose(observation)
        own = self.bot.params["time"]
        budget = max(0.005, min(seconds * BUDGET_SHARE, seconds - BUDGET_RESERVE))
        self.bot.params["time"] = min(own, budget) if own > 0 else budget
        try:
            return self.bot.choose(observation)
        finally:
            self.bot.params["time"] = own

    def _info(self, observation: Observation) -> dict[str, Any]:
        info = self.bot.info or {}
        out = {k: round(info[k], 4) if isinstance(info[k], float) else info[k]
               for k in ("iterations", "value", "seconds", "nodes", "searched")
               if isinstance(info.get(k), (int, float))}
        if info.get("principal_line"):
            out["line"] = [observation.move_name(a) for a in info["principal_line"]]
        return out

    # -- helpers -----------------------------------------------------------------------
    def _make_bot(self) -> Bot:
        return make_bot(canonical_spec(self.kind, self.params))

    def _learn(self, card_set: CardSet) -> None:
        """Keep a card set sent in newgame, forgetting the least recently
        sent beyond SENT_CARD_SETS (a game's moves follow its newgame)."""
        self.sent_card_sets.pop(card_set.sha256, None)
        self.sent_card_sets[card_set.sha256] = card_set
        while len(self.sent_card_sets) > SENT_CARD_SETS:
            del self.sent_card_sets[next(iter(self.sent_card_sets))]

    def _card_set_of(self, document: dict[str, Any]) -> CardSet:
        named = document.get("card_set")
        sha = named.get("sha256") if isinstance(named, dict) else None
        card_set = (self.card_sets.get(sha) or self.sent_card_sets.get(sha)
                    if isinstance(sha, str) else None)
        if card_set is None:
            raise ProtocolError(f"the observation's card set {json.dumps(named)[:200]} is "
                                "unknown here: send it in newgame's \"card_set\"")
        return card_set


def _seed_of(message: Message) -> int | None:
    """newgame's seed: `seed_string` (exact, for frontends whose numbers
    are doubles) if given, else `seed`; None if neither."""
    text = message.get("seed_string")
    if text is not None:
        if not (isinstance(text, str) and re.fullmatch(r"-?[0-9]{1,40}", text)):
            raise ProtocolError(f"seed_string {text!r} is not a whole number in decimal")
        return int(text)
    seed = message.get("seed")
    if seed is not None and not _whole(seed):
        raise ProtocolError(f"seed {seed!r} is not a whole number")
    return seed


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _skip_rest_of_line(stream: IO[bytes]) -> None:
    while True:
        chunk = stream.readline(MAX_COMMAND_LINE)
        if not chunk or chunk.endswith(b"\n"):
            return
