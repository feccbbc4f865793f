"""The move requests of `protocol check`: whole games against random
opponents, pings spread over every decision's thinking time, the info the
bot reports, and stop.

A ping sent at once after a move request is read before a search gets
going; a bot whose input thread starves while it searches still answers
it in time. So each decision gets PINGS pings, at 0, 1/PINGS, 2/PINGS...
of the move time (those the bot is still thinking for), and the check
reports the worst delay over them all.
"""
from __future__ import annotations

import random
import statistics
import time
from typing import NoReturn

from coexist_ai import _engine
from coexist_ai.cards import CardSet
from coexist_ai.errors import CoexistError
from coexist_ai.protocol.connection import Connection, PeerFailure, check_reply
from coexist_ai.protocol.messages import Message, move_command

PINGS = 5


class MoveStats:
    """What the move requests showed, for the report."""

    def __init__(self) -> None:
        self.decisions = 0
        self.slowest = 0.0
        self.ping_delays: list[float] = []
        self.thinking_pings = 0     # pings sent while the move was outstanding
        self.infos = 0              # move replies carrying info
        self.info_problem: str | None = None    # the first ill-formed info

    def ping_summary(self, allowed: float) -> str:
        delays = self.ping_delays
        return (f"{len(delays)} pings over {self.decisions} decisions: worst "
                f"{max(delays):.3f} s, median {statistics.median(delays):.3f} s "
                f"(allowed {allowed:g} s)")


class MoveAsker:
    """Asks a bot for moves over a Connection, pinging while it thinks."""

    def __init__(self, conn: Connection, move_time: float, time_margin: float,
                 ping_timeout: float) -> None:
        self.conn, self.move_time = conn, move_time
        self.time_margin, self.ping_timeout = time_margin, ping_timeout
        self.stats = MoveStats()

    def play(self, card_set: CardSet, players: int, seat: int, seed: int,
             max_moves: int) -> None:
        """One game: the bot in `seat`, random moves for the others."""
        state = _engine.State.new(card_set, players=players, seed=seed)
        others = random.Random(seed)
        made = 0
        while not state.is_over() and not (max_moves and made >= max_moves):
            if state.current_player != seat:
                state.apply(others.choice(state.legal_actions()))
                continue
            action, seconds, _ = self.ask(state.observation(seat))
            state.apply(action)
            made += 1
            self.stats.decisions += 1
            self.stats.slowest = max(self.stats.slowest, seconds)

    def ask(self, observation: _engine.Observation,
            stop_after: float | None = None) -> tuple[int, float, float | None]:
        """One move request; (action, seconds, seconds from stop to the move
        or None). With `stop_after`, a stop is sent that many seconds after
        the request if the move has not come by then."""
        request = dict(move_command(observation, self.move_time, self.time_margin),
                       id=self.conn.new_id())
        start = time.monotonic()
        deadline = start + self.move_time + self.time_margin
        self.conn.send(request, deadline, "time")
        exchange = _Exchange(self, request["id"], start, deadline, stop_after)
        move, seconds = exchange.run()
        return self._action(observation, move), seconds, exchange.after_stop(start + seconds)

    def _action(self, observation: _engine.Observation, move: Message) -> int:
        text = move.get("move")
        legal = observation.legal_moves()
        try:
            action = observation.parse_move(text if isinstance(text, str) else repr(text))
        except CoexistError:
            raise PeerFailure("illegal", f"move {text!r} is not one of {legal}") from None
        info = move.get("info")
        if info is not None:
            self.stats.infos += 1
            self.stats.info_problem = self.stats.info_problem or info_problem(info)
        return action


class _Exchange:
    """The lines of one move request: the move, pongs, info, stop."""

    def __init__(self, asker: MoveAsker, request_id: int, start: float, deadline: float,
                 stop_after: float | None) -> None:
        self.asker, self.conn, self.stats = asker, asker.conn, asker.stats
        self.request_id, self.start, self.deadline = request_id, start, deadline
        step = asker.move_time / PINGS
        self.ping_times = [start + k * step for k in range(PINGS)]
        self.stop_at = None if stop_after is None else start + stop_after
        self.stop_sent: float | None = None
        self.pending: dict[int, float] = {}    # ping id -> when it was sent

    def run(self) -> tuple[Message, float]:
        move: Message | None = None
        while move is None or self.pending:
            if move is None and self._send_due():
                continue
            limit = self._limit(move is None)
            wake = min([limit] + ([self._next_due()] if move is None else []))
            reply = self.conn.next_message(wake, "the move request" if move is None
                                           else "a ping sent while it was thinking")
            if reply is None:
                if time.monotonic() >= limit:
                    self._time_out(move is None)
                continue
            if self._is_side_line(reply):
                continue
            check_reply(reply, self.request_id, "move", "the move request")
            move, seconds = reply, time.monotonic() - self.start
        return move, seconds

    def after_stop(self, moved_at: float) -> float | None:
        return None if self.stop_sent is None else moved_at - self.stop_sent

    def _next_due(self) -> float:
        due = self.ping_times[:1] + ([self.stop_at] if self.stop_at is not None else [])
        return min(due) if due else self.deadline

    def _send_due(self) -> bool:
        """Send the ping or stop that is due, if any; True if one was sent."""
        now = time.monotonic()
        if self.ping_times and now >= self.ping_times[0]:
            self.ping_times.pop(0)
            ping_id = self.conn.new_id()
            self.conn.send({"type": "ping", "id": ping_id}, self.deadline, "time")
            self.pending[ping_id] = time.monotonic()
            self.stats.thinking_pings += 1
            return True
        if self.stop_at is not None and now >= self.stop_at:
            self.stop_at = None
            self.conn.send({"type": "stop"}, self.deadline, "time")
            self.stop_sent = time.monotonic()
            return True
        return False

    def _limit(self, waiting_for_move: bool) -> float:
        """Until when to wait: the move's deadline, and for each ping sent,
        at least the ping timeout."""
        latest = max(self.pending.values(), default=0.0) + self.asker.ping_timeout
        return self.deadline if waiting_for_move else max(self.deadline, latest)

    def _time_out(self, waiting_for_move: bool) -> NoReturn:
        if waiting_for_move:
            raise PeerFailure("time", f"no reply to the move request within "
                              f"{self.asker.move_time:g} s + {self.asker.time_margin:g} s")
        now = time.monotonic()
        self.stats.ping_delays += [now - sent for sent in self.pending.values()]
        raise PeerFailure("time", f"no pong to a ping sent while it was thinking, "
                          f"{max(self.stats.ping_delays):.3f} s after sending it")

    def _is_side_line(self, reply: Message) -> bool:
        """A pong, info, or the error a bot without stop gives it: noted."""
        if reply["type"] == "info":
            return True
        if reply.get("id") in self.pending:
            check_reply(reply, reply["id"], "pong", "a ping sent while it was thinking")
            self.stats.ping_delays.append(time.monotonic() - self.pending.pop(reply["id"]))
            return True
        return (self.stop_sent is not None and reply["type"] == "error"
                and reply.get("id") is None)


def info_problem(info: object) -> str | None:
    """What is wrong with a move reply's info, or None."""
    if not isinstance(info, dict):
        return f"'info' should be an object, got {info!r:.80}"
    kinds: dict[str, type | tuple[type, ...]] = {"iterations": int, "value": (int, float), "line": list, "seconds": (int, float)}
    for key, kind in kinds.items():
        if key in info and (not isinstance(info[key], kind) or isinstance(info[key], bool)):
            return f"info {key!r} has the wrong type: {info[key]!r:.80}"
    if "value" in info and not 0 <= info["value"] <= 1:
        return f"info 'value' should be the expected result, 0 to 1: {info['value']!r}"
    if "line" in info and not all(isinstance(m, str) for m in info["line"]):
        return "info 'line' should be a list of moves in notation"
    return None
