"""Files named by the user: records and saved games are read from and
written to regular files only.

Anything else at a path is refused before it is opened: appending to a fifo
blocks forever, reading /dev/zero never ends, and replacing a device node
(`play --save /dev/null` as root) replaces the system's device. A symlink is
followed: it is refused when it points at such a thing or at nothing.
"""
from __future__ import annotations

import fcntl
import os
import shutil
import stat
from collections.abc import Iterable
from typing import BinaryIO, NoReturn, TextIO

from coexist_ai.errors import CoexistError

KINDS = {stat.S_IFDIR: "a directory", stat.S_IFCHR: "a character device",
         stat.S_IFBLK: "a block device", stat.S_IFIFO: "a fifo",
         stat.S_IFSOCK: "a socket"}
GIVE = "give a regular file or a new path"

StrPath = str | os.PathLike[str]    # a path as the user named it


class PathError(CoexistError):
    """A path that names something other than a regular file."""


def _kind(mode: int) -> str:
    return KINDS.get(stat.S_IFMT(mode), "not a regular file")


def _refuse(path: StrPath, mode: int, action: str) -> NoReturn:
    link = f" (a symlink to {os.path.realpath(path)})" if os.path.islink(path) else ""
    raise PathError(f"{path}{link} is {_kind(mode)}, not a regular file: cannot {action} it; "
                    f"{GIVE}")


def check_writable(path: StrPath, action: str = "write to") -> None:
    """Refuse a path that exists and is not a regular file (after symlinks),
    or is a symlink to nothing."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise PathError(f"{path} is a symlink to nothing ({os.readlink(path)}): "
                            f"cannot {action} it; {GIVE}") from None
        return
    except OSError as e:
        raise PathError(f"cannot {action} {path}: {e.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        _refuse(path, st.st_mode, action)


def write_replacing(path: StrPath, chunks: Iterable[str], action: str = "write to") -> None:
    """Write the text `chunks` to a new file beside `path` (a symlink's
    target) and put it in place when all is written: a failure midway
    leaves what was there whole. Refused like `check_writable`."""
    check_writable(path, action)
    real = os.path.realpath(path)
    tmp = os.path.join(os.path.dirname(real), f".{os.path.basename(real)}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            for chunk in chunks:
                f.write(chunk)
        if os.path.exists(real):
            shutil.copymode(real, tmp)
        os.replace(tmp, real)
    except OSError as e:
        raise PathError(f"cannot {action} {path}: {e.strerror}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _open_regular(path: StrPath, flags: int, action: str) -> int:
    """An fd on the regular file at `path`. O_NONBLOCK: should the path turn
    into a fifo between the check and the open, the open does not hang,
    and fstat then refuses what was opened."""
    if flags & os.O_CREAT:
        check_writable(path, action)
    try:
        fd = os.open(path, flags | os.O_NONBLOCK | os.O_CLOEXEC, 0o644)
    except OSError as e:
        raise PathError(f"cannot {action} {path}: {e.strerror}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        _refuse(path, mode, action)
    os.set_blocking(fd, True)
    return fd


def open_for_reading(path: StrPath) -> BinaryIO:
    """The regular file at `path`, opened for binary reading."""
    return os.fdopen(_open_regular(path, os.O_RDONLY, "read"), "rb")


def open_locked_for_append(path: StrPath, held_by: str = "another run") -> TextIO:
    """The regular file at `path` (created if new), opened to append text,
    and locked (flock, exclusive) for as long as it stays open; refused if
    another process holds the lock."""
    fd = _open_regular(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, "write to")
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise PathError(f"{path} is being written by {held_by} (it holds the file's "
                        "lock): wait for it to end, or use another file") from None
    return os.fdopen(fd, "a", encoding="utf-8")


def is_locked(path: StrPath) -> bool:
    """Whether another process holds the lock of the file at `path`."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
