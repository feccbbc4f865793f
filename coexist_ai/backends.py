"""Where tournament games are played: this process, local worker
processes, or a Ray cluster. A session of a backend takes batches: a
function and the argument tuples of the games, whose results it yields as
the games finish; the workers (or the connection) last for the session."""
from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

from coexist_ai.errors import CoexistError
from coexist_ai.worker_pool import Args, ProcessPool, Result

BACKENDS = ("local", "ray")



class BackendError(CoexistError):
    """A backend that cannot be used as asked."""


def run_inline(function: Callable[..., Result],
               jobs_args: Iterable[Args]) -> Iterator[Result]:
    for args in jobs_args:
        yield function(*args)


class Runner(Protocol):
    """Plays one batch: the results of `function` over `jobs_args`, as
    they finish."""

    def __call__(self, function: Callable[..., Result],
                 jobs_args: Iterable[Args]) -> Iterator[Result]: ...


@contextlib.contextmanager
def process_session(jobs: int) -> Iterator[Runner]:
    """Up to `jobs` worker processes, each ending with this process, kept
    for every batch played in the block."""
    pool = ProcessPool(jobs)
    try:
        yield pool.run
    finally:
        pool.close()


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
