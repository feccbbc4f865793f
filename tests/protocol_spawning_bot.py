"""A protocol bot that leaves processes behind, for the resource tests.

    python protocol_spawning_bot.py MARKER

At start it starts two processes that outlive it unless the frontend kills
them, each with MARKER-left-behind on its command line: a child that calls setsid()
and keeps the bot's stdout and stderr open (it leaves the bot's session and
process group), and a daemon that forks twice, calls setsid() and closes
its standard streams (it is adopted away from the bot's process tree).
Then it becomes bots/examples/first_legal.py. Not a test module.
"""
import os
import subprocess
import sys

MARKER = sys.argv[1]
FIRST_LEGAL = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                           "bots", "examples", "first_legal.py")
SLEEPER = [sys.executable, "-c", "import time; time.sleep(3600)", MARKER + "-left-behind"]

subprocess.Popen(SLEEPER, start_new_session=True, stdin=subprocess.DEVNULL)
if os.fork() == 0:                  # the classic daemon: fork, setsid, fork
    os.setsid()
    if os.fork() == 0:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.execv(sys.executable, SLEEPER)
    os._exit(0)
os.wait()

# then become bots/examples/first_legal.py (MARKER still on the command line)
os.execv(sys.executable, [sys.executable, FIRST_LEGAL, MARKER])
