"""A backend session keeps its workers between batches: a tuner plays a
batch of games an iteration, and starting the workers for each would cost
more than the games."""
import os
import signal
import sys
import threading
import time

import pytest

from coexist_ai.backends import execute, session
from coexist_ai.worker_pool import WorkerDied


def test_a_session_keeps_its_worker_processes_between_batches():
    with session(jobs=2) as run:
        first = set(run(os.getpid, [()] * 6))
        second = set(run(os.getpid, [()] * 6))
    assert os.getpid() not in first
    # a worker of the first batch serves the second (a pool made for each
    # batch would have only new processes), and no more than `jobs` ever
    # start (the second may join late: a pool starts workers as needed)
    assert first & second and len(first | second) <= 2


def test_one_batch_through_execute_gives_every_result():
    assert sorted(execute(abs, [(-k,) for k in range(10)], jobs=2)) == list(range(10))
    assert list(execute(abs, [(-3,), (4,)], jobs=1)) == [3, 4]


# -- a worker that fails -------------------------------------------------------------

def kill_self_once_sending(megabytes):
    """Returns `megabytes` of answer, and this worker is SIGKILLed as soon
    as it is sending it back: the pool reads half a message."""
    main = threading.main_thread().ident

    def sending():
        frame = sys._current_frames().get(main)
        while frame is not None:
            if frame.f_code.co_name == "_send":
                return True
            frame = frame.f_back
        return False

    def kill_when_sending():
        while not sending():
            time.sleep(0.0002)
        os.kill(os.getpid(), signal.SIGKILL)
    threading.Thread(target=kill_when_sending, daemon=True).start()
    return b"x" * (megabytes << 20)


def outcome_within(seconds, batch):
    """What playing `batch` in another thread ends with, or "hung" (a
    guard, not a measure: a hang is the bug this looks for)."""
    outcome = ["hung"]

    def play():
        try:
            outcome[0] = list(batch())
        except Exception as e:
            outcome[0] = e
    thread = threading.Thread(target=play, daemon=True)
    thread.start()
    thread.join(seconds)
    return outcome[0]


def test_a_worker_killed_while_sending_its_answer_is_an_error_not_a_hang():
    """A shared result pipe (concurrent.futures' pool) waits forever for
    the rest of the message; the run must fail clearly instead."""
    for _ in range(3):
        outcome = outcome_within(120, lambda: execute(kill_self_once_sending, [(64,)], jobs=2))
        assert isinstance(outcome, WorkerDied), outcome
        assert "run the same command again to resume" in str(outcome)


def test_a_worker_that_exits_mid_batch_is_an_error_after_the_results_before_it():
    def batch():
        with session(jobs=2) as run:
            yield from run(abs, [(-k,) for k in range(5)])
            yield from run(os._exit, [(3,)])
    outcome = outcome_within(120, batch)
    assert isinstance(outcome, WorkerDied), outcome


class Unpicklable(Exception):
    def __reduce__(self):
        raise TypeError("cannot pickle this")


def raise_value_error(text):
    raise ValueError(text)


def raise_unpicklable():
    raise Unpicklable("the bot's own error")


def test_an_exception_in_a_worker_reaches_the_caller_as_itself_or_by_name():
    with pytest.raises(ValueError, match="no such card"):
        list(execute(raise_value_error, [("no such card",)], jobs=2))
    with pytest.raises(RuntimeError, match="Unpicklable: the bot's own error"):
        list(execute(raise_unpicklable, [()], jobs=2))


def slow_negation(k):
    time.sleep(0.05)
    return -k


def test_a_batch_left_early_leaves_the_session_playing_the_next_one_right():
    """The workers still playing the first batch are ended: their answers
    must not be taken for the second batch's."""
    with session(jobs=2) as run:
        first = run(slow_negation, [(k,) for k in range(20)])
        assert next(first) in range(-19, 1)
        first.close()
        assert sorted(run(abs, [(-k,) for k in range(30)])) == list(range(30))
