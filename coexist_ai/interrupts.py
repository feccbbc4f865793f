"""Ctrl-C held back while a game's record is written and counted, so that
the file and the standings printed after an interrupt agree game for game."""
import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Defer SIGINT to the end of the block (only the main thread can)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[tuple[Any, ...]] = []
    previous = signal.signal(signal.SIGINT, lambda *args: caught.append(args))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt
