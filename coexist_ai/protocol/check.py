"""`coexist-ai protocol check -- COMMAND...`: does a program speak the
protocol? Each check is reported PASS, FAIL, WARN (recommended behaviour
missing) or SKIP (an earlier failure made it impossible, or nothing to
check it on); every check made is reported, one line each.

Required: the handshake, ping, an error reply to an unknown command, its
own options, newgame, legal moves within the time (whole games against
random opponents), pings spread over every decision's thinking answered in
time, quit. Recommended: an error reply to an undeclared option, a float
option set with an integer, well-formed info, stop, leaving at end of
input, an error reply to a line that is not JSON.
"""
from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Iterable
from typing import Any, NoReturn

from coexist_ai import _engine
from coexist_ai.cards import resolve_card_set
from coexist_ai.errors import CoexistError
from coexist_ai.protocol.check_moves import MoveAsker, MoveStats
from coexist_ai.protocol.client import _payload
from coexist_ai.protocol.connection import Connection, Log, PeerFailure, check_reply
from coexist_ai.protocol.messages import (PROTOCOL_VERSION, Message, check_option,
                                          newgame_command)

EXIT_WAIT = 2.0
STOP_AFTER = 0.2    # share of the move time after which the stop check sends stop


class CheckFailed(CoexistError):
    """Ends a group of checks; already reported."""


class Checker:
    def __init__(self, command: Iterable[str], cwd: str | None = None, move_time: float = 1.0,
                 start_timeout: float = 10.0, time_margin: float = 0.5,
                 ping_timeout: float = 0.5, games: int = 1, max_moves: int = 0,
                 players: int = 2, seed: int = 1, cards: str | None = None,
                 echo: Callable[[str], object] = print, log: Log | None = None) -> None:
        self.command, self.cwd = list(command), cwd
        self.move_time, self.start_timeout = move_time, start_timeout
        self.time_margin, self.ping_timeout = time_margin, ping_timeout
        self.games, self.max_moves, self.players, self.seed = games, max_moves, players, seed
        self.card_set = resolve_card_set(cards)
        self.echo, self.log = echo, log
        self.results: list[tuple[str, str, str]] = []    # (status, check, detail)
        self.conn: Connection | None = None
        self.options: list[dict[str, Any]] = []         # those the hello declared

    # -- reporting -----------------------------------------------------------------
    def report(self, status: str, name: str, detail: str) -> None:
        self.results.append((status, name, detail))
        self.echo(f"{status:<5} {name}: {detail}")

    def fail(self, name: str, detail: str) -> NoReturn:
        self.report("FAIL", name, detail)
        raise CheckFailed(name)

    def summary(self) -> bool:
        failed = sum(1 for r in self.results if r[0] == "FAIL")
        warned = sum(1 for r in self.results if r[0] == "WARN")
        passed = sum(1 for r in self.results if r[0] == "PASS")
        verdict = "FAIL" if failed else "PASS"
        self.echo(f"result: {verdict} ({passed} passed, {failed} failed, "
                  f"{warned} warnings)")
        return not failed

    # -- the checks -----------------------------------------------------------------
    def run(self) -> bool:
        """Every check; True if none failed."""
        order = ["handshake", "ping", "unknown command", "options", "unknown option",
                 "integer for float", "games", "info", "ping while thinking", "stop", "quit"]
        try:
            self.start_and_handshake()
            self.check_ping()
            self.check_unknown_command()
            self.check_options()
            self.check_games()
            self.check_quit()
        except CheckFailed as failed:
            done = {name for _, name, _ in self.results}
            for name in order[order.index(str(failed)) + 1:]:
                if name not in done:
                    self.report("SKIP", name, f"not checked after the {failed} failure")
        finally:
            if self.conn:
                self.conn.kill()
        self.check_end_of_input()
        self.check_bad_input()
        return self.summary()

    @property
    def live(self) -> Connection:
        """The connection to the bot's process (fresh_start makes it)."""
        assert self.conn is not None, "fresh_start() first"
        return self.conn

    def fresh_start(self) -> tuple[Message, float]:
        """A new process of the bot, its hello done: (reply, seconds)."""
        if self.conn:
            self.conn.kill()
        self.conn = Connection(self.command, self.cwd, log=self.log)
        self.conn.start()
        hello, seconds = self.exchange({"type": "hello", "protocol": PROTOCOL_VERSION},
                                       self.start_timeout, "hello", "stall")
        check_reply(hello, hello.get("id"), "hello", "hello")
        return hello, seconds

    def start_and_handshake(self) -> None:
        name = "handshake"
        try:
            hello, seconds = self.fresh_start()
        except PeerFailure as e:
            self.fail(name, self._with_stderr(e.message))
        problems = []
        if hello.get("protocol") != PROTOCOL_VERSION:
            problems.append(f"protocol {hello.get('protocol')!r}, expected {PROTOCOL_VERSION}")
        for key in ("name", "author"):
            if not isinstance(hello.get(key), str) or not hello.get(key):
                problems.append(f"no {key!r} string")
        options = hello.get("options")
        if not isinstance(options, list):
            problems.append(f"'options' must be a list (may be empty), got {options!r}")
            options = []
        problems += [p for p in map(check_option, options) if p]
        if problems:
            self.fail(name, "the hello reply has " + "; ".join(problems))
        self.options = options
        names = ", ".join(o["name"] for o in options) or "none"
        self.report("PASS", name, f"{hello['name']!r} by {hello['author']!r}, protocol "
                    f"{PROTOCOL_VERSION}, options: {names} ({seconds:.3f} s)")

    def check_ping(self) -> None:
        try:
            reply, seconds = self.exchange({"type": "ping"}, self.ping_timeout, "ping", "stall")
            check_reply(reply, reply.get("id"), "pong", "ping")
        except PeerFailure as e:
            self.fail("ping", self._with_stderr(e.message))
        self.report("PASS", "ping", f"pong in {seconds:.3f} s")

    def check_unknown_command(self) -> None:
        try:
            reply, _ = self.exchange({"type": "no-such-command"}, self.ping_timeout,
                                     "an unknown command", "stall")
        except PeerFailure as e:
            self.fail("unknown command", self._with_stderr(e.message))
        if reply["type"] != "error":
            self.fail("unknown command", f"expected an error reply, got {reply['type']!r}")
        self.report("PASS", "unknown command", f"error reply: {str(reply.get('message'))[:80]!r}")

    def check_options(self) -> None:
        try:
            for option in self.options:
                self.set_option(option["name"], option["default"], "ok")
            undeclared = self.set_option("no-such-option", 1)
        except PeerFailure as e:
            self.fail("options", self._with_stderr(e.message))
        self.report("PASS", "options", f"{len(self.options)} option(s) set to their defaults")
        if undeclared["type"] == "error":
            self.report("PASS", "unknown option", "error reply to an option it did not "
                        f"declare: {str(undeclared.get('message'))[:80]!r}")
        else:
            self.report("WARN", "unknown option", "setoption of an option it did not "
                        f"declare: {undeclared['type']!r}, expected an error reply")
        self.check_integer_for_float()

    def check_integer_for_float(self) -> None:
        """JSON has one kind of number, and some frontends write 2.0 as 2."""
        name = "integer for float"
        whole = [o for o in self.options if o["type"] == "float"
                 and isinstance(o["default"], (int, float)) and float(o["default"]).is_integer()]
        if not whole:
            self.report("SKIP", name, "no float option with a whole default to try")
            return
        try:
            for option in whole:
                self.set_option(option["name"], int(option["default"]), "ok")
        except PeerFailure as e:
            self.report("WARN", name, f"a float option set with an integer should be "
                        f"accepted: {self._with_stderr(e.message)}")
            return
        self.report("PASS", name, f"{', '.join(o['name'] for o in whole)} accepted "
                    "whole numbers")

    def set_option(self, name: str, value: object, expect: str | None = None) -> Message:
        reply, _ = self.exchange({"type": "setoption", "name": name, "value": value},
                                 self.start_timeout, f"setoption {name}={value!r}", "stall")
        if expect:
            check_reply(reply, reply.get("id"), expect, f"setoption {name}={value!r}")
        return reply

    def check_games(self) -> None:
        asker = MoveAsker(self.live, self.move_time, self.time_margin, self.ping_timeout)
        stats = asker.stats
        for game in range(self.games):
            seat = game % self.players
            try:
                self.new_game(seat, self.seed + game)
                asker.play(self.card_set, self.players, seat, self.seed * 1000 + game,
                           self.max_moves)
            except PeerFailure as e:
                self.fail("games", f"game {game + 1} (seat {seat}), after "
                          f"{stats.decisions} good moves: {self._with_stderr(e.message)}")
        self.report("PASS", "games", f"{stats.decisions} legal moves in {self.games} "
                    f"game(s), slowest {stats.slowest:.3f} s of {self.move_time:g} s "
                    f"(+{self.time_margin:g} s margin)")
        self.report_thinking(stats)
        self.check_stop(asker)

    def new_game(self, seat: int, seed: int) -> None:
        self.exchange_expect(newgame_command(seat, self.players, seed, _payload(self.card_set)),
                             self.start_timeout, "newgame", "stall", "ok")

    def report_thinking(self, stats: MoveStats) -> None:
        if stats.info_problem:
            self.report("WARN", "info", stats.info_problem)
        elif stats.infos:
            self.report("PASS", "info", f"{stats.infos} of {stats.decisions} moves carried "
                        "well-formed info")
        else:
            self.report("SKIP", "info", "no move carried info (it is optional)")
        if not stats.ping_delays:
            self.report("SKIP", "ping while thinking", "no decision to try it on")
        elif max(stats.ping_delays) > self.ping_timeout:
            self.fail("ping while thinking", stats.ping_summary(self.ping_timeout) +
                      ": a bot must keep reading its input while it thinks")
        else:
            self.report("PASS", "ping while thinking", stats.ping_summary(self.ping_timeout))

    def check_stop(self, asker: MoveAsker) -> None:
        """Recommended: a stop makes the bot move at once."""
        state = _engine.State.new(self.card_set, players=self.players, seed=self.seed)
        try:
            self.new_game(state.current_player, self.seed)
            _, seconds, after_stop = asker.ask(state.observation(state.current_player),
                                               stop_after=self.move_time * STOP_AFTER)
        except PeerFailure as e:
            self.report("WARN", "stop", f"not checked: {self._with_stderr(e.message)}")
            return
        if after_stop is None:
            self.report("SKIP", "stop", f"moved in {seconds:.3f} s, before a stop was sent")
        elif after_stop > self.ping_timeout:
            self.report("WARN", "stop", f"moved {after_stop:.3f} s after stop: a stop "
                        "should make the bot answer at once")
        else:
            self.report("PASS", "stop", f"moved {after_stop:.3f} s after stop")

    def check_quit(self) -> None:
        start = time.monotonic()
        try:
            self.live.send({"type": "quit"}, start + self.ping_timeout)
            code = self.live.wait(EXIT_WAIT)
        except PeerFailure as e:
            self.fail("quit", e.message)
        except subprocess.TimeoutExpired:
            self.fail("quit", f"still running {EXIT_WAIT:g} s after quit")
        status = "PASS" if code == 0 else "WARN"
        self.report(status, "quit", f"exited with code {code} after "
                    f"{time.monotonic() - start:.3f} s")

    def check_end_of_input(self) -> None:
        try:
            self.fresh_start()
            start = time.monotonic()
            self.live.close_input()
            code = self.live.wait(EXIT_WAIT)
            self.report("PASS" if code == 0 else "WARN", "end of input",
                        f"exited with code {code} after {time.monotonic() - start:.3f} s")
        except subprocess.TimeoutExpired:
            self.report("WARN", "end of input",
                        f"still running {EXIT_WAIT:g} s after its input was closed")
        except PeerFailure as e:
            self.report("WARN", "end of input", f"not checked: {self._with_stderr(e.message)}")
        finally:
            self.live.kill()

    def check_bad_input(self) -> None:
        try:
            self.fresh_start()
            deadline = time.monotonic() + self.ping_timeout
            self.live.send_raw(b"this line is not JSON\n", deadline)
            reply = self.live.receive(deadline, "a line that is not JSON", "stall")
            if reply["type"] != "error":
                raise PeerFailure("illegal", f"answered with {reply['type']!r}")
            reply, _ = self.exchange({"type": "ping"}, self.ping_timeout, "ping", "stall")
            check_reply(reply, reply.get("id"), "pong", "ping")
            self.report("PASS", "bad input", "error reply to a line that is not JSON, "
                        "and carried on")
        except PeerFailure as e:
            self.report("WARN", "bad input", "a line that is not JSON should get an "
                        f"error reply and the bot carry on: {self._with_stderr(e.message)}")
        finally:
            self.live.kill()

    # -- helpers ---------------------------------------------------------------------
    def exchange(self, message: Message, timeout: float, what: str,
                 timeout_kind: str) -> tuple[Message, float]:
        """Send with a fresh id; the reply with that id, whatever its type."""
        message = dict(message, id=self.live.new_id())
        start = time.monotonic()
        deadline = start + timeout
        self.live.send(message, deadline, timeout_kind)
        while True:
            reply = self.live.receive(deadline, what, timeout_kind, timeout)
            if reply["type"] == "info":
                continue
            if reply.get("id") != message["id"]:
                raise PeerFailure("illegal", f"in reply to {what} (id {message['id']}) the "
                                  f"bot sent {reply['type']!r} with id {reply.get('id')!r}")
            return reply, time.monotonic() - start

    def exchange_expect(self, message: Message, timeout: float, what: str, timeout_kind: str,
                        expect: str) -> tuple[Message, float]:
        reply, seconds = self.exchange(message, timeout, what, timeout_kind)
        check_reply(reply, reply.get("id"), expect, what)
        return reply, seconds

    def _with_stderr(self, message: str) -> str:
        tail = self.conn.stderr_tail(300) if self.conn else ""
        return message + (f"; stderr: {tail}" if tail else "")


def check_bot(command: Iterable[str], echo: Callable[[str], object] = print,
              **settings: Any) -> bool:
    """Run every check on `command`; True if it passed."""
    return Checker(command, echo=echo, **settings).run()
