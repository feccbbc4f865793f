"""A bot process seen from the frontend: requests out, replies back, with
every wait bounded by a deadline and everything read bounded in size.

On Linux the bot runs under a small launcher (launcher.py), a child
subreaper that kills everything the bot started when the bot ends, even a
child that left its session with setsid; elsewhere the bot runs in its own
session and its process group is killed. The bot's output is read in the
caller's thread, while the caller waits for a reply or for room to write
(poll over stdout and stderr): no reader threads, so nothing is left
running or open after `kill`, and a bot that writes without end neither
blocks the frontend nor fills its memory (lines longer than `max_line` are
skipped, only the tail of stderr is kept).
"""
from __future__ import annotations

import collections
import os
import select
import signal
import subprocess
import sys
import time
import weakref
from collections.abc import Callable, Iterable
from typing import IO

from coexist_ai.errors import CoexistError
from coexist_ai.protocol.messages import (MAX_REPLY_LINE, Message, ProtocolError, decode,
                                          encode, shorten)

STDERR_KEEP = 16 * 1024     # bytes of stderr kept
STDERR_SHOWN = 800          # characters of it quoted in a failure
READ_AHEAD = 64             # lines read ahead of the frontend at most
CHUNK = 65536
LAUNCHER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "launcher.py")
USE_LAUNCHER = sys.platform.startswith("linux")
LAUNCHER_EXIT = 5.0         # seconds for the launcher to kill the bot's processes

Log = Callable[[str, str], object]     # log(direction, text): '>' sent, '<' received


class PeerFailure(CoexistError):
    """The bot did not do what the protocol asks; `kind` is a BotFailure
    kind: crash (not started, exited, closed its output), stall (no reply
    in time outside a move), time (no move in time), illegal (a reply the
    protocol does not allow)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind, self.message = kind, message


class Connection:
    """One run of a bot's command. Not thread-safe: one caller at a time."""

    def __init__(self, command: Iterable[str], cwd: str | None = None,
                 max_line: int = MAX_REPLY_LINE, log: Log | None = None) -> None:
        self.command, self.cwd, self.max_line = list(command), cwd, max_line
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        self.next_id = 1
        # ("line", bytes) | ("long", None)
        self._events: collections.deque[tuple[str, bytes | None]] = collections.deque()
        self._line = bytearray()             # the line being read
        self._skipping = False               # ...is too long: dropped to its end
        self._stderr = bytearray()
        self._open: set[str] = set()         # "out", "err": pipes not yet at their end
        self._killed = False
        self._finalizer: weakref.finalize[[subprocess.Popen[bytes]], Connection] | None = None

    # -- the process -------------------------------------------------------------
    def start(self) -> None:
        argv = self.command
        if USE_LAUNCHER:
            argv = [sys.executable, "-I", "-S", LAUNCHER, str(os.getpid()), *argv]
        try:
            self.proc = subprocess.Popen(
                argv, cwd=self.cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, bufsize=0, start_new_session=True)
        except (OSError, ValueError) as e:
            raise PeerFailure("crash", f"cannot start {self.command!r}"
                              f"{f' in {self.cwd!r}' if self.cwd else ''}: {e}") from None
        for pipe in self._pipes():
            os.set_blocking(pipe.fileno(), False)
        self._open = {"out", "err"}
        # a bot nobody closed must not outlive us
        self._finalizer = weakref.finalize(self, _end_process, self.proc)

    def _started(self) -> subprocess.Popen[bytes]:
        if self.proc is None:
            raise RuntimeError("the bot is not started: call start() first")
        return self.proc

    def _pipes(self) -> tuple[IO[bytes], IO[bytes], IO[bytes]]:
        """The started bot's stdin, stdout and stderr."""
        proc = self._started()
        stdin, stdout, stderr = proc.stdin, proc.stdout, proc.stderr
        assert stdin is not None and stdout is not None and stderr is not None, \
            "start() opens all three"
        return stdin, stdout, stderr

    def is_alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """Kill the bot and everything it started, close every pipe;
        idempotent."""
        if self.proc is None or self._killed:
            return
        self._killed = True
        if self._finalizer:
            self._finalizer.detach()
        _end_process(self.proc)
        self._open.clear()
        for pipe in self._pipes():
            try:
                pipe.close()
            except OSError:
                pass

    def quit(self, grace: float = 0.5) -> int | None:
        """Ask the bot to quit, give it `grace` seconds, then kill it.
        Returns its exit code if it left by itself, else None."""
        if self.proc is None:
            return None
        code = None
        if self.is_alive():
            try:
                self.send({"type": "quit"}, time.monotonic() + min(grace, 0.2))
            except PeerFailure:
                pass
            try:
                code = self.proc.wait(grace)
            except subprocess.TimeoutExpired:
                code = None
        else:
            code = self.proc.returncode
        self.kill()
        return code

    def wait(self, timeout: float) -> int:
        """The bot's exit code once it ends (subprocess.TimeoutExpired if it
        has not within `timeout` seconds)."""
        return self._started().wait(timeout)

    def close_input(self) -> None:
        """Close the bot's stdin: end of input."""
        try:
            self._pipes()[0].close()
        except OSError:
            pass

    def exit_status(self, wait: float = 0.5) -> str:
        """How the process ended (for failure messages)."""
        try:
            code = self._started().wait(wait)
        except subprocess.TimeoutExpired:
            return "closed its output but is still running"
        if code < 0:
            try:
                return f"was killed by signal {signal.Signals(-code).name}"
            except ValueError:
                return f"was killed by signal {-code}"
        return f"exited with code {code}"

    def stderr_tail(self, limit: int = STDERR_SHOWN) -> str:
        """The last `limit` characters the bot wrote to stderr (of a bot
        that has exited, everything it left in the pipe is read first)."""
        if self.proc is not None and not self._killed:
            if self.proc.poll() is not None:
                deadline = time.monotonic() + 0.3
                while "err" in self._open and time.monotonic() < deadline:
                    self._pump(deadline - time.monotonic())
            else:
                self._pump(0)
        return bytes(self._stderr[-limit:]).decode("utf-8", "replace").strip()

    # -- messages ----------------------------------------------------------------
    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id - 1

    def send(self, message: Message, deadline: float, timeout_kind: str = "stall") -> None:
        """Write one message; PeerFailure if the bot is gone (crash) or does
        not read its input before the deadline (`timeout_kind`)."""
        self.send_raw(encode(message), deadline, timeout_kind)

    def send_raw(self, data: bytes, deadline: float, timeout_kind: str = "stall") -> None:
        if self.log:
            self.log(">", data.decode("utf-8", "replace").rstrip("\n"))
        stdin = self._pipes()[0]
        if stdin.closed:
            raise PeerFailure("crash", "the bot's input is closed")
        fd = stdin.fileno()
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(fd, view):]
                continue
            except BlockingIOError:
                pass
            except OSError:
                raise PeerFailure("crash", f"the bot {self.exit_status()} "
                                  "(its input is closed)") from None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                if not self.is_alive():
                    raise PeerFailure("crash", f"the bot {self.exit_status(0.1)}")
                raise PeerFailure(timeout_kind, "the bot does not read its input")
            # the bot may be blocked writing to us: read while waiting for room
            self._pump(min(remaining, 0.05), write_fd=fd)

    def receive(self, deadline: float, what: str, timeout_kind: str,
                allowed: float | None = None) -> Message:
        """The next message the bot writes (blank lines skipped).
        PeerFailure: `timeout_kind` if none comes before the deadline, crash
        on end of output, illegal for a line that is not a message."""
        message = self.next_message(deadline, what)
        if message is None:
            within = f" within {allowed:.3g} s" if allowed else " in time"
            raise PeerFailure(timeout_kind, f"no reply to {what}{within}")
        return message

    def next_message(self, deadline: float, what: str) -> Message | None:
        """Like `receive`, but None if nothing comes before the deadline."""
        while True:
            while not self._events and "out" in self._open:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self._pump(remaining)
            if not self._events:
                raise PeerFailure("crash", f"the bot {self.exit_status()} "
                                  f"while the frontend waited for its reply to {what}")
            event, payload = self._events.popleft()
            if event == "long":
                raise PeerFailure("illegal", f"the bot wrote a line longer than "
                                  f"{self.max_line} bytes (in reply to {what})")
            assert payload is not None, "a line event carries its line"
            text = payload.decode("utf-8", "replace")
            if self.log:
                self.log("<", text)
            if not text.strip():
                continue
            try:
                return decode(payload)
            except ProtocolError as e:
                raise PeerFailure("illegal", f"unreadable reply to {what}: {e}") from None

    def request(self, message: Message, timeout: float, what: str, timeout_kind: str,
                expect: str) -> tuple[Message, float]:
        """Send `message` with a fresh id and return (reply, seconds) for the
        reply of type `expect` carrying that id; "info" lines are skipped."""
        message = dict(message, id=self.new_id())
        start = time.monotonic()
        deadline = start + timeout
        self.send(message, deadline, timeout_kind)
        while True:
            reply = self.receive(deadline, what, timeout_kind, timeout)
            if reply["type"] == "info":
                continue
            check_reply(reply, message["id"], expect, what)
            return reply, time.monotonic() - start

    # -- reading the bot's output ------------------------------------------------
    def _pump(self, timeout: float, write_fd: int | None = None) -> None:
        """Wait up to `timeout` seconds for output (or, with `write_fd`, room
        to write there) and read what has come. Stdout is not read while
        READ_AHEAD lines wait for the caller, so memory stays bounded."""
        watched: dict[int, tuple[str, Callable[[int, str], None]]] = {}
        _, stdout, stderr = self._pipes()
        if "out" in self._open and len(self._events) < READ_AHEAD:
            watched[stdout.fileno()] = ("out", self._read_stdout)
        if "err" in self._open:
            watched[stderr.fileno()] = ("err", self._read_stderr)
        poller = select.poll()
        for fd in watched:
            poller.register(fd, select.POLLIN)
        if write_fd is not None:
            poller.register(write_fd, select.POLLOUT)
        for fd, _ in poller.poll(max(0, int(timeout * 1000 + 0.999))):
            if fd in watched:
                name, read = watched[fd]
                read(fd, name)

    def _read_chunk(self, fd: int, name: str) -> bytes | None:
        """A chunk of what the bot wrote on `fd`; b"" at its end (the pipe
        is then no longer watched), None if nothing is there yet."""
        try:
            chunk = os.read(fd, CHUNK)
        except BlockingIOError:
            return None
        except OSError:
            chunk = b""
        if not chunk:
            self._open.discard(name)
        return chunk

    def _read_stdout(self, fd: int, name: str) -> None:
        chunk = self._read_chunk(fd, name)
        if chunk is None:
            return
        if not chunk:
            if self._line and not self._skipping:
                self._events.append(("line", bytes(self._line)))
            return
        start = 0
        while start < len(chunk):
            end = chunk.find(b"\n", start)
            piece = chunk[start:] if end < 0 else chunk[start:end]
            start = len(chunk) if end < 0 else end + 1
            if not self._skipping:
                self._line += piece
                if len(self._line) > self.max_line:
                    self._line.clear()
                    self._skipping = True
                    self._events.append(("long", None))
            if end >= 0:
                if not self._skipping:
                    self._events.append(("line", bytes(self._line)))
                self._line.clear()
                self._skipping = False

    def _read_stderr(self, fd: int, name: str) -> None:
        chunk = self._read_chunk(fd, name)
        if chunk:
            self._stderr += chunk
            if len(self._stderr) > 2 * STDERR_KEEP:
                del self._stderr[:-STDERR_KEEP]


def check_reply(reply: Message, expected_id: object, expect: str, what: str) -> None:
    """PeerFailure (illegal) unless `reply` is the `expect` reply to the
    request `expected_id`."""
    if reply.get("id") != expected_id:
        raise PeerFailure("illegal", f"in reply to {what} (id {expected_id}) the bot "
                          f"sent {reply['type']!r} with id {reply.get('id')!r}")
    if reply["type"] == "error":
        raise PeerFailure("illegal", f"the bot answered {what} with an error: "
                          f"{shorten(str(reply.get('message')), 300)}")
    if reply["type"] != expect:
        raise PeerFailure("illegal", f"the bot answered {what} with "
                          f"{reply['type']!r}, expected {expect!r}")


def _end_process(proc: subprocess.Popen[bytes]) -> None:
    """Kill the bot and everything it started, and reap the process."""
    if USE_LAUNCHER:
        # the launcher kills every descendant of the bot, then exits
        if proc.poll() is None:
            proc.terminate()
        try:
            proc.wait(LAUNCHER_EXIT)
            return
        except subprocess.TimeoutExpired:
            pass            # not reaped, so its group id is still ours to kill
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        try:
            proc.kill()
        except OSError:
            pass
    try:
        proc.wait(2)
    except subprocess.TimeoutExpired:
        pass
