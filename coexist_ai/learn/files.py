"""Files a bot spec names (a model, policy weights), read once per path and
modification time: every game of a tournament makes its bots again, and a
file rewritten in place is read anew."""
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar, cast

T = TypeVar("T")


def read_once(path: Path, load: Callable[[str], T], missing: Exception) -> T:
    """load(path), cached while the file is unchanged; `missing` is raised
    when there is no file to read."""
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        raise missing from None
    return cast(T, _cached(load, str(path), stamp))


@lru_cache(maxsize=16)
def _cached(load: Callable[[str], Any], path: str, stamp: int) -> Any:
    return load(path)
