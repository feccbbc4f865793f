"""Local worker processes that play batches of games, each worker with a
pipe of its own.

Why not concurrent.futures' process pool: its workers share one result
pipe. A worker killed while sending a result (a crash of the compiled core,
the out-of-memory killer) leaves half a message in that pipe; the pool's
reader then waits for the rest, which never comes because the other
workers hold the pipe open, and the whole run hangs instead of failing.
Here a worker is the only writer of its pipe: its death ends the pipe, so
a half-sent result reads as end of file and the run fails with a clear
error, the records written intact."""
from __future__ import annotations

import ctypes
import itertools
import multiprocessing
import multiprocessing.connection as connection
import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from coexist_ai.errors import CoexistError

Result = TypeVar("Result")
Args = tuple[Any, ...]     # the arguments of one call of the games' function

# A task should run long enough that sending it to a worker and its result
# back is small beside it: short games (random bots: a few milliseconds)
# travel in chunks; long ones (searching bots) one by one.
TASK_SECONDS = 0.05
MAX_CHUNK = 64

PR_SET_PDEATHSIG = 1          # linux/prctl.h
WATCH_SECONDS = 0.5


class WorkerDied(CoexistError):
    """A worker process ended while it had games to play."""

    def __init__(self) -> None:
        super().__init__(
            "a worker process died abruptly while playing (a crash of the "
            "compiled core, or killed, e.g. out of memory); the records "
            "written are intact: run the same command again to resume")


# -- the worker's side ---------------------------------------------------------------

def _serve(conn: connection.Connection, parent: int) -> None:
    """A worker's life: play each chunk it is sent, answer with its
    results (or the exception it raised) and the seconds it took."""
    _leave_interrupts_to_the_parent()
    die_with_parent(parent)
    while True:
        try:
            task = conn.recv()
        except EOFError:          # the pool closed the pipe: done
            return
        if task is None:
            return
        function, chunk = task
        start = time.perf_counter()
        try:
            reply: tuple[str, Any] = ("ok", [function(*args) for args in chunk])
        except BaseException as e:          # handed to the parent, which raises it
            reply = ("raised", _sendable(e))
        seconds = time.perf_counter() - start
        try:
            conn.send((*reply, seconds))
        except (pickle.PicklingError, TypeError, AttributeError) as e:
            conn.send(("raised", RuntimeError(f"a result could not be sent back: {e}"), seconds))


def _sendable(error: BaseException) -> BaseException:
    """`error` itself if it survives pickling, else a RuntimeError that
    names it (the parent must see what went wrong, not a pickling error)."""
    try:
        pickle.loads(pickle.dumps(error))
        return error
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")


def _leave_interrupts_to_the_parent() -> None:
    """Ctrl-C reaches every process of the terminal's group: a worker would
    die printing a traceback. The parent handles it and ends the workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def die_with_parent(parent: int) -> None:
    """End this process when `parent` (the pid of the run) dies, even by
    SIGKILL, which no handler of the parent sees. Left behind, a worker
    plays on for minutes, holding the terminal's output (and, through its
    inherited fd, multiprocessing's resource tracker). On Linux the kernel
    sends SIGKILL at once (PR_SET_PDEATHSIG: it fires when the thread that
    started the worker ends; the pool starts its workers in the thread that
    plays the batches); everywhere, a thread checks that the parent is
    still this process's parent."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass                 # the watchdog below still holds
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True,
                     name="watch-parent").start()


def _watch_parent(parent: int) -> None:
    # checked at once too: the parent may have died before prctl was made
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os.kill(os.getpid(), signal.SIGKILL)


# -- the pool's side -----------------------------------------------------------------

class _Worker:
    """One started worker process and this end of its pipe."""

    def __init__(self, context: Any) -> None:
        self.conn, theirs = context.Pipe(duplex=True)
        # spawned: no state leaks from here into the games
        self.process = context.Process(target=_serve, args=(theirs, os.getpid()),
                                       daemon=True, name="coexist-worker")
        self.process.start()
        theirs.close()           # the worker is now its pipe's only writer

    def send(self, task: Any) -> None:
        try:
            self.conn.send(task)
        except OSError:          # its pipe is closed: the worker is gone
            raise WorkerDied() from None

    def receive(self) -> tuple[str, Any, float]:
        try:
            answer: tuple[str, Any, float] = self.conn.recv()
        except (EOFError, OSError):   # died before its answer was whole
            raise WorkerDied() from None
        return answer

    def stop(self) -> None:
        self.process.terminate()
        self.process.join()
        self.conn.close()


class ProcessPool:
    """Up to `jobs` worker processes, each ending with this process, kept
    for every batch played until `close`."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.context = multiprocessing.get_context("spawn")
        self.workers: list[_Worker] = []

    def close(self) -> None:
        for worker in self.workers:
            worker.stop()
        self.workers = []

    def run(self, function: Callable[..., Result],
            jobs_args: Iterable[Args]) -> Iterator[Result]:
        """The results of `function` over `jobs_args`, as they finish. A
        worker stopped in the middle of a chunk (the caller left early,
        Ctrl-C) is ended: its answer is lost, as are its games."""
        while len(self.workers) < self.jobs:
            self.workers.append(_Worker(self.context))
        busy: dict[Any, _Worker] = {}          # its pipe's end -> a worker playing
        try:
            yield from self._play(function, iter(jobs_args), busy)
        finally:
            for worker in busy.values():
                worker.stop()
                self.workers.remove(worker)

    def _play(self, function: Callable[..., Result], queue: Iterator[Args],
              busy: dict[Any, _Worker]) -> Iterator[Result]:
        size = 1                     # games a task, adapted to their length
        while True:
            for worker in self.workers:
                if worker.conn not in busy and (chunk := list(itertools.islice(queue, size))):
                    worker.send((function, chunk))
                    busy[worker.conn] = worker
            if not busy:
                return
            for worker in self._answering(busy):
                status, payload, seconds = worker.receive()
                del busy[worker.conn]
                if status == "raised":
                    raise payload
                size = max(1, min(MAX_CHUNK, int(TASK_SECONDS * len(payload) /
                                                 max(seconds, 1e-6))))
                yield from payload

    @staticmethod
    def _answering(busy: dict[Any, _Worker]) -> list[_Worker]:
        """The busy workers with an answer to read, once one has; a worker
        that died without one is an error (one that died after sending it
        has its answer read first, so its games are kept)."""
        sentinels = {w.process.sentinel: w for w in busy.values()}
        ready = connection.wait([*busy, *sentinels])
        answering = [busy[r] for r in ready if r in busy]
        if not answering:
            raise WorkerDied()
        return answering
