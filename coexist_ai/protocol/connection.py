"""A bot process seen from the frontend: requests out, replies back, with
every wait bounded by a deadline and everything read bounded in size.

The process runs in its own session so that killing it also kills whatever
it started (a shell script's children would otherwise keep the pipes open).
Two reader threads drain its stdout (into a small queue of lines, none
longer than `max_line`) and its stderr (only the tail is kept), so a bot
that writes without end neither blocks nor fills memory.
"""
import os
import queue
import selectors
import signal
import subprocess
import threading
import time
import weakref

from coexist_ai.protocol.messages import (MAX_REPLY_LINE, ProtocolError, decode,
                                          encode, shorten)

STDERR_KEEP = 16 * 1024     # bytes of stderr kept
STDERR_SHOWN = 800          # characters of it quoted in a failure
QUEUE_LINES = 64            # lines read ahead of the frontend at most


class PeerFailure(Exception):
    """The bot did not do what the protocol asks; `kind` is a BotFailure
    kind: crash (not started, exited, closed its output), stall (no reply
    in time outside a move), time (no move in time), illegal (a reply the
    protocol does not allow)."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind, self.message = kind, message


class Connection:
    """One run of a bot's command. Not thread-safe: one caller at a time."""

    def __init__(self, command, cwd=None, max_line=MAX_REPLY_LINE, log=None):
        self.command, self.cwd, self.max_line = list(command), cwd, max_line
        self.log = log              # log(direction, text): '>' sent, '<' received
        self.proc = None
        self.next_id = 1
        self._lines = queue.Queue(QUEUE_LINES)
        self._stderr = bytearray()
        self._closed = threading.Event()
        self._finalizer = None

    # -- the process -------------------------------------------------------------
    def start(self):
        try:
            self.proc = subprocess.Popen(
                self.command, cwd=self.cwd, stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,
                start_new_session=True)
        except (OSError, ValueError) as e:
            raise PeerFailure("crash", f"cannot start {self.command!r}"
                              f"{f' in {self.cwd!r}' if self.cwd else ''}: {e}") from None
        os.set_blocking(self.proc.stdin.fileno(), False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self.proc.stdin.fileno(), selectors.EVENT_WRITE)
        self._threads = [threading.Thread(target=target, args=(pipe.fileno(),),
                                          daemon=True, name=f"bot{target.__name__}")
                         for target, pipe in ((self._read_stdout, self.proc.stdout),
                                              (self._read_stderr, self.proc.stderr))]
        for thread in self._threads:
            thread.start()
        # a bot nobody closed must not outlive us
        self._finalizer = weakref.finalize(self, _kill_group, self.proc)

    def is_alive(self):
        return self.proc is not None and self.proc.poll() is None

    def kill(self):
        """Kill the bot and everything it started; idempotent."""
        if self.proc is None:
            return
        self._closed.set()
        _kill_group(self.proc)
        self._selector.close()
        pipes = [(self.proc.stdin, None), (self.proc.stdout, self._threads[0]),
                 (self.proc.stderr, self._threads[1])]
        for pipe, reader in pipes:
            if reader is not None:
                reader.join(1.0)
                if reader.is_alive():
                    # something the bot started elsewhere holds the pipe: closing
                    # it under the reader could hand its number to another file
                    continue
            try:
                pipe.close()
            except OSError:
                pass
        if self._finalizer:
            self._finalizer.detach()

    def quit(self, grace=0.5):
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

    def close_input(self):
        """Close the bot's stdin: end of input."""
        try:
            self._selector.unregister(self.proc.stdin.fileno())
            self.proc.stdin.close()
        except (OSError, KeyError, ValueError):
            pass

    def exit_status(self, wait=0.5):
        """How the process ended (for failure messages)."""
        try:
            code = self.proc.wait(wait)
        except subprocess.TimeoutExpired:
            return "closed its output but is still running"
        if code < 0:
            try:
                return f"was killed by signal {signal.Signals(-code).name}"
            except ValueError:
                return f"was killed by signal {-code}"
        return f"exited with code {code}"

    def stderr_tail(self, limit=STDERR_SHOWN):
        """The last `limit` characters the bot wrote to stderr."""
        if self.proc is not None and self.proc.poll() is not None:
            self._threads[1].join(0.3)     # let it read what a dead bot left
        return bytes(self._stderr[-limit:]).decode("utf-8", "replace").strip()

    # -- messages ----------------------------------------------------------------
    def new_id(self):
        self.next_id += 1
        return self.next_id - 1

    def send(self, message, deadline, timeout_kind="stall"):
        """Write one message; PeerFailure if the bot is gone (crash) or does
        not read its input before the deadline (`timeout_kind`)."""
        self.send_raw(encode(message), deadline, timeout_kind)

    def send_raw(self, data, deadline, timeout_kind="stall"):
        if self.log:
            self.log(">", data.decode("utf-8", "replace").rstrip("\n"))
        if self.proc.stdin.closed:
            raise PeerFailure("crash", "the bot's input is closed")
        fd = self.proc.stdin.fileno()
        view = memoryview(data)
        while view:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                if not self.is_alive():
                    raise PeerFailure("crash", f"the bot {self.exit_status(0.1)}")
                raise PeerFailure(timeout_kind, "the bot does not read its input")
            if not self._selector.select(min(remaining, 0.05)):
                continue
            try:
                view = view[os.write(fd, view):]
            except BlockingIOError:
                continue
            except OSError:
                raise PeerFailure("crash", f"the bot {self.exit_status()} "
                                  "(its input is closed)") from None

    def receive(self, deadline, what, timeout_kind, allowed=None):
        """The next message the bot writes (blank lines skipped).
        PeerFailure: `timeout_kind` if none comes before the deadline, crash
        on end of output, illegal for a line that is not a message."""
        while True:
            try:
                event, payload = self._lines.get(
                    timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                within = f" within {allowed:.3g} s" if allowed else " in time"
                raise PeerFailure(timeout_kind, f"no reply to {what}{within}") from None
            if event == "eof":
                self._lines.put(("eof", None))    # for whoever asks next
                raise PeerFailure("crash", f"the bot {self.exit_status()} "
                                  f"while the frontend waited for its reply to {what}")
            if event == "long":
                raise PeerFailure("illegal", f"the bot wrote a line longer than "
                                  f"{self.max_line} bytes (in reply to {what})")
            text = payload.decode("utf-8", "replace")
            if self.log:
                self.log("<", text)
            if not text.strip():
                continue
            try:
                return decode(payload)
            except ProtocolError as e:
                raise PeerFailure("illegal", f"unreadable reply to {what}: {e}") from None

    def request(self, message, timeout, what, timeout_kind, expect):
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

    # -- reader threads ----------------------------------------------------------
    def _put(self, item):
        while not self._closed.is_set():
            try:
                self._lines.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def _read_stdout(self, fd):
        line, skipping = bytearray(), False
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                if line and not skipping:
                    self._put(("line", bytes(line)))
                self._put(("eof", None))
                return
            start = 0
            while start < len(chunk):
                end = chunk.find(b"\n", start)
                piece = chunk[start:] if end < 0 else chunk[start:end]
                start = len(chunk) if end < 0 else end + 1
                if not skipping:
                    line += piece
                    if len(line) > self.max_line:
                        line.clear()
                        skipping = True
                        if not self._put(("long", None)):
                            return
                if end >= 0:
                    if not skipping and not self._put(("line", bytes(line))):
                        return
                    line.clear()
                    skipping = False

    def _read_stderr(self, fd):
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            self._stderr += chunk
            if len(self._stderr) > 2 * STDERR_KEEP:
                del self._stderr[:-STDERR_KEEP]


def check_reply(reply, expected_id, expect, what):
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


def _kill_group(proc):
    # the whole group, even if the leader is gone: its children may not be
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (OSError, AttributeError):
        try:
            proc.kill()
        except OSError:
            pass
    try:
        proc.wait(2)
    except subprocess.TimeoutExpired:
        pass
