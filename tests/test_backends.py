"""A backend session keeps its workers between batches: a tuner plays a
batch of games an iteration, and starting the workers for each would cost
more than the games."""
import os

from coexist_ai.backends import execute, session


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
