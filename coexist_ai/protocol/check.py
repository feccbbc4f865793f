"""`coexist-ai protocol check -- COMMAND...`: does a program speak the
protocol? Each check is reported PASS, FAIL, WARN (recommended behaviour
missing) or SKIP (an earlier failure made it impossible).

Required: the handshake, ping, an error reply to an unknown command, its
own options, newgame, legal moves within the time (whole games against
random opponents), ping answered while thinking, quit. Recommended: an
error reply to a line that is not JSON, a refused unknown option, leaving
at end of input, well-formed info.
"""
import json
import random
import subprocess
import time

from coexist_ai import _core
from coexist_ai.cards import resolve_card_set
from coexist_ai.errors import CoexistError
from coexist_ai.protocol.client import _payload
from coexist_ai.protocol.connection import Connection, PeerFailure, check_reply
from coexist_ai.protocol.messages import PROTOCOL_VERSION, check_option

EXIT_WAIT = 2.0


class CheckFailed(Exception):
    """Ends a group of checks; already reported."""


class Checker:
    def __init__(self, command, cwd=None, move_time=1.0, start_timeout=10.0,
                 time_margin=0.5, ping_timeout=0.5, games=1, max_moves=0, players=2,
                 seed=1, cards=None, echo=print, log=None):
        self.command, self.cwd = list(command), cwd
        self.move_time, self.start_timeout = move_time, start_timeout
        self.time_margin, self.ping_timeout = time_margin, ping_timeout
        self.games, self.max_moves, self.players, self.seed = games, max_moves, players, seed
        self.card_set = resolve_card_set(cards)
        self.echo, self.log = echo, log
        self.results = []
        self.conn = None
        self.options = []

    # -- reporting -----------------------------------------------------------------
    def report(self, status, name, detail):
        self.results.append((status, name, detail))
        self.echo(f"{status:<5} {name}: {detail}")

    def fail(self, name, detail):
        self.report("FAIL", name, detail)
        raise CheckFailed(name)

    def summary(self):
        failed = sum(1 for r in self.results if r[0] == "FAIL")
        warned = sum(1 for r in self.results if r[0] == "WARN")
        passed = sum(1 for r in self.results if r[0] == "PASS")
        verdict = "FAIL" if failed else "PASS"
        self.echo(f"result: {verdict} ({passed} passed, {failed} failed, "
                  f"{warned} warnings)")
        return not failed

    # -- the checks -----------------------------------------------------------------
    def run(self):
        """Every check; True if none failed."""
        main = ["handshake", "ping", "unknown command", "options", "games", "quit"]
        try:
            self.start_and_handshake()
            self.check_ping()
            self.check_unknown_command()
            self.check_options()
            self.check_games()
            self.check_quit()
        except CheckFailed as failed:
            for name in main[main.index(str(failed)) + 1:]:
                self.report("SKIP", name, f"not checked after the {failed} failure")
        finally:
            if self.conn:
                self.conn.kill()
        self.check_end_of_input()
        self.check_bad_input()
        return self.summary()

    def fresh_start(self):
        """A new process of the bot, its hello done: (reply, seconds)."""
        if self.conn:
            self.conn.kill()
        self.conn = Connection(self.command, self.cwd, log=self.log)
        self.conn.start()
        hello, seconds = self.exchange({"type": "hello", "protocol": PROTOCOL_VERSION},
                                       self.start_timeout, "hello", "stall")
        check_reply(hello, hello.get("id"), "hello", "hello")
        return hello, seconds

    def start_and_handshake(self):
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

    def check_ping(self):
        try:
            reply, seconds = self.exchange({"type": "ping"}, self.ping_timeout, "ping", "stall")
            check_reply(reply, reply.get("id"), "pong", "ping")
        except PeerFailure as e:
            self.fail("ping", self._with_stderr(e.message))
        self.report("PASS", "ping", f"pong in {seconds:.3f} s")

    def check_unknown_command(self):
        try:
            reply, _ = self.exchange({"type": "no-such-command"}, self.ping_timeout,
                                     "an unknown command", "stall")
        except PeerFailure as e:
            self.fail("unknown command", self._with_stderr(e.message))
        if reply["type"] != "error":
            self.fail("unknown command", f"expected an error reply, got {reply['type']!r}")
        self.report("PASS", "unknown command", f"error reply: {str(reply.get('message'))[:80]!r}")

    def check_options(self):
        try:
            for option in self.options:
                reply, _ = self.exchange({"type": "setoption", "name": option["name"],
                                          "value": option["default"]}, self.start_timeout,
                                         f"setoption {option['name']}", "stall")
                check_reply(reply, reply.get("id"), "ok", f"setoption {option['name']} "
                            f"to its default {option['default']!r}")
            reply, _ = self.exchange({"type": "setoption", "name": "no-such-option",
                                      "value": 1}, self.start_timeout,
                                     "setoption no-such-option", "stall")
        except PeerFailure as e:
            self.fail("options", self._with_stderr(e.message))
        self.report("PASS", "options", f"{len(self.options)} option(s) set to their defaults")
        if reply["type"] != "error":
            self.report("WARN", "unknown option",
                        f"setoption of an option it did not declare: {reply['type']!r}, "
                        "expected an error reply")

    def check_games(self):
        stats = {"decisions": 0, "slowest": 0.0, "ping": None, "bad_info": None}
        for game in range(self.games):
            seat = game % self.players
            try:
                self.exchange_expect({"type": "newgame", "seat": seat,
                                      "players": self.players, "seed": self.seed + game,
                                      "card_set": _payload(self.card_set)},
                                     self.start_timeout, "newgame", "stall", "ok")
                self.play(game, seat, stats)
            except PeerFailure as e:
                self.fail("games", f"game {game + 1} (seat {seat}), after "
                          f"{stats['decisions']} good moves: {self._with_stderr(e.message)}")
        self.report("PASS", "games", f"{stats['decisions']} legal moves in {self.games} "
                    f"game(s), slowest {stats['slowest']:.3f} s of {self.move_time:g} s "
                    f"(+{self.time_margin:g} s margin)")
        if stats["ping"] is None:
            self.report("WARN", "ping while thinking", "no decision to try it on")
        elif stats["ping"] > self.ping_timeout:
            self.fail("games", f"ping while thinking: pong after {stats['ping']:.3f} s, "
                      f"allowed {self.ping_timeout:g} s")
        else:
            self.report("PASS", "ping while thinking", f"pong after {stats['ping']:.3f} s")
        if stats["bad_info"]:
            self.report("WARN", "info", stats["bad_info"])

    def play(self, game, seat, stats):
        state = _core.State.new(self.card_set, players=self.players,
                                seed=self.seed * 1000 + game)
        others = random.Random(self.seed + game)
        made = 0
        while not state.is_over() and not (self.max_moves and made >= self.max_moves):
            if state.current_player != seat:
                state.apply(others.choice(state.legal_actions()))
                continue
            observation = state.observation(seat)
            with_ping = stats["ping"] is None and made >= 1
            action, seconds = self.ask(observation, with_ping, stats)
            state.apply(action)
            made += 1
            stats["decisions"] += 1
            stats["slowest"] = max(stats["slowest"], seconds)

    def ask(self, observation, with_ping, stats):
        """One move request (followed at once by a ping if `with_ping`)."""
        legal = observation.legal_moves()
        request = {"type": "move", "id": self.conn.new_id(),
                   "observation": json.loads(observation.to_json()),
                   "legal": legal, "time": self.move_time}
        start = time.monotonic()
        deadline = start + self.move_time + self.time_margin
        self.conn.send(request, deadline, "time")
        ping_id = None
        if with_ping:
            ping_id = self.conn.new_id()
            ping_sent = time.monotonic()
            self.conn.send({"type": "ping", "id": ping_id}, deadline, "time")
        move = None
        while move is None or ping_id is not None:
            reply = self.conn.receive(deadline, "the move request" if move is None
                                      else "ping (sent while thinking)", "time")
            if reply["type"] == "info":
                continue
            if ping_id is not None and reply.get("id") == ping_id:
                check_reply(reply, ping_id, "pong", "ping (sent while thinking)")
                stats["ping"], ping_id = time.monotonic() - ping_sent, None
                continue
            check_reply(reply, request["id"], "move", "the move request")
            move, seconds = reply, time.monotonic() - start
        text = move.get("move")
        try:
            action = observation.parse_move(text if isinstance(text, str) else repr(text))
        except CoexistError:
            raise PeerFailure("illegal", f"move {text!r} is not one of {legal}") from None
        stats["bad_info"] = stats["bad_info"] or _info_problem(move.get("info"))
        return action, seconds

    def check_quit(self):
        start = time.monotonic()
        try:
            self.conn.send({"type": "quit"}, start + self.ping_timeout)
            code = self.conn.proc.wait(EXIT_WAIT)
        except PeerFailure as e:
            self.fail("quit", e.message)
        except subprocess.TimeoutExpired:
            self.fail("quit", f"still running {EXIT_WAIT:g} s after quit")
        status = "PASS" if code == 0 else "WARN"
        self.report(status, "quit", f"exited with code {code} after "
                    f"{time.monotonic() - start:.3f} s")

    def check_end_of_input(self):
        try:
            self.fresh_start()
            start = time.monotonic()
            self.conn.close_input()
            code = self.conn.proc.wait(EXIT_WAIT)
            self.report("PASS" if code == 0 else "WARN", "end of input",
                        f"exited with code {code} after {time.monotonic() - start:.3f} s")
        except subprocess.TimeoutExpired:
            self.report("WARN", "end of input",
                        f"still running {EXIT_WAIT:g} s after its input was closed")
        except PeerFailure as e:
            self.report("WARN", "end of input", f"not checked: {self._with_stderr(e.message)}")
        finally:
            self.conn.kill()

    def check_bad_input(self):
        try:
            self.fresh_start()
            deadline = time.monotonic() + self.ping_timeout
            self.conn.send_raw(b"this line is not JSON\n", deadline)
            reply = self.conn.receive(deadline, "a line that is not JSON", "stall")
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
            self.conn.kill()

    # -- helpers ---------------------------------------------------------------------
    def exchange(self, message, timeout, what, timeout_kind):
        """Send with a fresh id; the reply with that id, whatever its type."""
        message = dict(message, id=self.conn.new_id())
        start = time.monotonic()
        deadline = start + timeout
        self.conn.send(message, deadline, timeout_kind)
        while True:
            reply = self.conn.receive(deadline, what, timeout_kind, timeout)
            if reply["type"] == "info":
                continue
            if reply.get("id") != message["id"]:
                raise PeerFailure("illegal", f"in reply to {what} (id {message['id']}) the "
                                  f"bot sent {reply['type']!r} with id {reply.get('id')!r}")
            return reply, time.monotonic() - start

    def exchange_expect(self, message, timeout, what, timeout_kind, expect):
        reply, seconds = self.exchange(message, timeout, what, timeout_kind)
        check_reply(reply, reply.get("id"), expect, what)
        return reply, seconds

    def _with_stderr(self, message):
        tail = self.conn.stderr_tail(300) if self.conn else ""
        return message + (f"; stderr: {tail}" if tail else "")


def _info_problem(info):
    if info is None:
        return None
    if not isinstance(info, dict):
        return f"'info' should be an object, got {info!r:.80}"
    kinds = {"iterations": int, "value": (int, float), "line": list}
    for key, kind in kinds.items():
        if key in info and not isinstance(info[key], kind):
            return f"info {key!r} has the wrong type: {info[key]!r:.80}"
    if "line" in info and not all(isinstance(m, str) for m in info["line"]):
        return "info 'line' should be a list of moves in notation"
    return None


def check_bot(command, echo=print, **settings):
    """Run every check on `command`; True if it passed."""
    return Checker(command, echo=echo, **settings).run()
