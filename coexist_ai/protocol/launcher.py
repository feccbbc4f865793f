"""Runs one external bot so that nothing it starts outlives it (Linux).

    python -I -S launcher.py FRONTEND_PID COMMAND...

A process group or a session is not enough to find everything a bot
starts: a child that calls setsid() leaves both, and a daemon that forks
twice is adopted by init, so neither killpg nor a walk of the process tree
from the bot reaches it, and it keeps the frontend's pipes open. This
launcher is a *child subreaper* (prctl PR_SET_CHILD_SUBREAPER): whatever the
bot starts, and whatever those start, is adopted by the launcher when its
parent dies instead of by init, so every such process is a descendant of
the launcher for as long as it lives, whatever session or group it is in.
Killing "every descendant, until none is left" therefore kills them all.

The bot runs as the launcher's only child, on the launcher's stdin, stdout
and stderr (the frontend's pipes); the launcher keeps none of them open
itself. The bot dies with the launcher (PR_SET_PDEATHSIG). The launcher
kills every descendant and leaves:

- when the bot exits: with the bot's exit status (its code, or death by
  the same signal), so the frontend sees the bot's own status;
- on SIGTERM: the frontend ending the bot;
- when the frontend dies (the launcher's parent changes).

Standard library only, and run with -I -S: it must start fast and must not
import the package (it runs in whatever environment the bot needs).
"""
import ctypes
import os
import signal
import sys
import time

PR_SET_PDEATHSIG, PR_SET_CHILD_SUBREAPER = 1, 36
WATCH = {signal.SIGCHLD, signal.SIGTERM}
PARENT_POLL = 0.5        # seconds between checks that the frontend still lives
CANNOT_START = 127       # the shell's code for a command that cannot run


def prctl(option: int, value: int) -> None:
    """Best effort: where prctl is refused, the launcher still kills every
    descendant it can see (all but those adopted by init)."""
    ctypes.CDLL(None).prctl(option, value, 0, 0, 0)


def main(argv: list[str]) -> int | None:
    """Run the bot to its end; returns its wait status (None if it did
    not end by itself)."""
    frontend, command = int(argv[1]), argv[2:]
    signal.signal(signal.SIGCHLD, lambda *_: None)   # deliverable, so it can be waited for
    signal.pthread_sigmask(signal.SIG_BLOCK, WATCH)
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    if os.getppid() != frontend:
        return None                   # the frontend died before we were ready
    bot = os.fork()
    if bot == 0:
        run_bot(command)
    keep_no_pipe()
    status = wait_for_end(bot, frontend)
    kill_descendants()
    return status


def run_bot(command: list[str]) -> None:
    """In the forked child: become the bot (never returns)."""
    launcher = os.getppid()
    try:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, WATCH)   # a mask survives exec
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != launcher:
            os._exit(1)
        os.setpgid(0, 0)      # a bot that signals its own group must not hit us
        os.execvp(command[0], command)
    except OSError as e:
        reason = e.strerror or str(e)
        os.write(2, f"cannot start {command[0]!r}: {reason}\n".encode("utf-8", "replace"))
    os._exit(CANNOT_START)


def keep_no_pipe() -> None:
    """Let go of the frontend's pipes: when the bot and its children are
    gone, the frontend must see the end of their output at once."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)


def wait_for_end(bot: int, frontend: int) -> int | None:
    """Wait until the bot exits, SIGTERM comes or the frontend is gone;
    the exit status to leave with (None: the bot did not end by itself)."""
    while True:
        got = signal.sigtimedwait(WATCH, PARENT_POLL)
        if got is not None and got.si_signo == signal.SIGTERM:
            return None
        if os.getppid() != frontend:
            return None
        status = reap(bot)
        if status is not None:
            return status


def reap(bot: int) -> int | None:
    """Reap every child that has exited (orphans we adopted too, so that
    none stays a zombie until the game ends); the bot's wait status if it
    was among them."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return None
        if pid == 0:
            return None
        if pid == bot:
            return status


def kill_descendants() -> None:
    """SIGKILL every descendant until none is left. A process forked while
    this runs is adopted by us when its parent dies, so the next pass sees
    it; a SIGKILLed process forks no more, so the passes end."""
    me = os.getpid()
    while True:
        for pid in descendants(me):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            return                    # no child left, hence no descendant
        time.sleep(0.002)


def descendants(root: int) -> list[int]:
    """Every process below `root` in /proc's parent links."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                parent = int(f.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue                  # gone meanwhile
        children.setdefault(parent, []).append(int(name))
    found: list[int] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), ()):
            found.append(child)
            todo.append(child)
    return found


def leave(status: int | None) -> None:
    """Exit the way the bot did: its exit code, or death by its signal."""
    if status is None:
        sys.exit(0)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {sig})
        os.kill(os.getpid(), sig)
    sys.exit(os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    leave(main(sys.argv))
