"""Where tournament games are played: this process, local worker
processes, or a Ray cluster. A session of a backend takes batches: a
function and the argument tuples of the games, whose results it yields as
the games finish; the workers (or the connection) last for the session."""
from __future__ import annotations

import concurrent.futures as futures
import contextlib
import ctypes
import itertools
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol, TypeVar

from coexist_ai.errors import CoexistError

BACKENDS = ("local", "ray")

Result = TypeVar("Result")
Args = tuple[Any, ...]     # the arguments of one call of the games' function


class BackendError(CoexistError):
    """A backend that cannot be used as asked."""


def run_inline(function: Callable[..., Result],
               jobs_args: Iterable[Args]) -> Iterator[Result]:
    for args in jobs_args:
        yield function(*args)


# A task should run long enough that sending it to a worker and its result
# back is small beside it: short games (random bots: a few milliseconds)
# travel in chunks; long ones (searching bots) one by one.
TASK_SECONDS = 0.05
MAX_CHUNK = 64


def _call_chunk(function: Callable[..., Result],
                chunk: list[Args]) -> tuple[list[Result], float]:
    """Worker side: play a chunk of games; returns their results and the
    seconds the chunk took."""
    start = time.perf_counter()
    return [function(*args) for args in chunk], time.perf_counter() - start


PR_SET_PDEATHSIG = 1          # linux/prctl.h
WATCH_SECONDS = 0.5


def start_worker(parent: int) -> None:
    """Worker initializer: Ctrl-C left to the parent, death with it."""
    _leave_interrupts_to_the_parent()
    die_with_parent(parent)


def _leave_interrupts_to_the_parent() -> None:
    """Ctrl-C reaches every process of the terminal's group: a worker would
    die printing a traceback. The parent handles it and ends the workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def die_with_parent(parent: int) -> None:
    """End this process when `parent` (the pid of the run) dies, even by SIGKILL, which no handler of the parent sees. Left
    behind, a worker plays on for minutes, holding the terminal's output
    (and, through its inherited fd, multiprocessing's resource tracker).
    On Linux the kernel sends SIGKILL at once (PR_SET_PDEATHSIG: it fires
    when the thread that started the worker ends; the pool starts its
    workers in the thread that submits the games, which is the one running
    the whole run); everywhere, a thread checks that the parent is still
    this process's parent."""
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


class Runner(Protocol):
    """Plays one batch: the results of `function` over `jobs_args`, as
    they finish."""

    def __call__(self, function: Callable[..., Result],
                 jobs_args: Iterable[Args]) -> Iterator[Result]: ...


@contextlib.contextmanager
def process_session(jobs: int) -> Iterator[Runner]:
    """Up to `jobs` worker processes (spawned: no state leaks from here),
    each ending with this process, kept for every batch played in the
    block."""
    context = multiprocessing.get_context("spawn")
    with futures.ProcessPoolExecutor(max_workers=jobs, mp_context=context,
                                     initializer=start_worker,
                                     initargs=(os.getpid(),)) as pool:
        def run(function: Callable[..., Result],
                jobs_args: Iterable[Args]) -> Iterator[Result]:
            return _pool_batch(pool, function, jobs_args, jobs)
        yield run


def _pool_batch(pool: futures.Executor, function: Callable[..., Result],
                jobs_args: Iterable[Args], jobs: int) -> Iterator[Result]:
    try:
        yield from _pool_results(pool, function, iter(jobs_args), jobs)
    except KeyboardInterrupt:   # the games in flight are lost: do not wait for them
        for worker in multiprocessing.active_children():
            worker.terminate()
        raise
    except futures.process.BrokenProcessPool:
        # the games in flight are lost, never the ones recorded
        raise BackendError(
            "a worker process died abruptly while playing (a crash of the "
            "compiled core, or killed, e.g. out of memory); the records "
            "written are intact: run the same command again to resume") from None


def _pool_results(pool: futures.Executor, function: Callable[..., Result],
                  queue: Iterator[Args], jobs: int) -> Iterator[Result]:
    size = 1                     # games a task, adapted to their length
    pending: set[futures.Future[tuple[list[Result], float]]] = set()
    try:
        while True:
            while len(pending) < 2 * jobs:
                chunk = list(itertools.islice(queue, size))
                if not chunk:
                    break
                pending.add(pool.submit(_call_chunk, function, chunk))
            if not pending:
                return
            done, pending = futures.wait(pending, return_when=futures.FIRST_COMPLETED)
            for f in done:
                results, seconds = f.result()
                per_game = seconds / max(1, len(results))
                size = max(1, min(MAX_CHUNK, int(TASK_SECONDS / max(per_game, 1e-6))))
                yield from results
    finally:
        for f in pending:
            f.cancel()


def _package_home() -> str:
    """The folder that holds the coexist_ai package this process runs."""
    import coexist_ai
    return os.path.dirname(os.path.dirname(os.path.abspath(coexist_ai.__file__)))


@contextlib.contextmanager
def _working_directory(path: str) -> Iterator[None]:
    """Ray puts the driver's working directory first on its workers' path:
    connecting from the package's own folder makes the workers import this
    very package, not a source checkout that happens to be the cwd."""
    before = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


@contextlib.contextmanager
def ray_session(address: str | None, in_flight: int = 64) -> Iterator[Runner]:
    """Games as Ray tasks on the cluster at `address` (an existing head, or
    None/"local" for a Ray instance started here), connected at the first
    batch and kept for every batch played in the block."""
    connected: list[Any] = []      # the ray module, once connected

    def run(function: Callable[..., Result], jobs_args: Iterable[Args]) -> Iterator[Result]:
        if not connected:
            connected.append(_connect_ray(address))
        return _ray_batch(connected[0], function, jobs_args, in_flight)
    try:
        yield run
    finally:
        if connected:
            connected[0].shutdown()


def _connect_ray(address: str | None) -> Any:
    try:
        import ray
    except ImportError:
        raise BackendError("the ray backend needs the 'ray' package: "
                           "pip install 'coexist-ai[ray]'") from None
    try:
        with _working_directory(_package_home()):
            ray.init(address=None if address in (None, "local") else address,
                     ignore_reinit_error=True, log_to_driver=False,
                     include_dashboard=False, logging_level="ERROR")
    except (ConnectionError, RuntimeError, ValueError) as e:
        raise BackendError(f"cannot reach a Ray cluster at {address!r}: {e}") from None
    return ray


def _ray_batch(ray: Any, function: Callable[..., Result], jobs_args: Iterable[Args],
               in_flight: int) -> Iterator[Result]:
    task = ray.remote(function)
    pending: list[Any] = []     # Ray's object refs
    try:
        for args in jobs_args:
            pending.append(task.remote(*args))
            if len(pending) >= in_flight:
                done, pending = ray.wait(pending, num_returns=1)
                yield ray.get(done[0])
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)


@contextlib.contextmanager
def session(jobs: int = 1, backend: str = "local",
            address: str | None = None) -> Iterator[Runner]:
    """Where batches of games are played, kept open between batches (a
    tuner plays a batch an iteration: starting the workers or Ray for each
    would cost more than its games)."""
    if backend == "ray":
        with ray_session(address) as run:
            yield run
    elif backend != "local":
        raise BackendError(f"backend {backend!r}: expected one of {', '.join(BACKENDS)}")
    elif jobs <= 1:
        yield run_inline
    else:
        with process_session(jobs) as run:
            yield run


def execute(function: Callable[..., Result], jobs_args: Iterable[Args], jobs: int = 1,
            backend: str = "local", address: str | None = None) -> Iterator[Result]:
    """One batch: the results of `function` over `jobs_args`, as they finish."""
    with session(jobs, backend, address) as run:
        yield from run(function, jobs_args)
