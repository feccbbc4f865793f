"""A protocol bot that fails on purpose, for tests/test_protocol*.py.

    python protocol_broken_bot.py MODE [N [MARKER]]

It plays first legal moves like bots/examples/first_legal.py until its
Nth move request (default 3), then fails the way MODE says ("good" and
"huge_stderr" never fail; "slow_think" thinks 0.4 s a move without
answering pings meanwhile). MARKER names the child that "hang" leaves
behind, so that a test can look for it. With COEXIST_TEST_RECORD set,
every line received is appended to that file. Not a test module: pytest
collects only test_*.py.
"""
import json
import os
import subprocess
import sys
import time

MODE = sys.argv[1]
FAIL_AT = int(sys.argv[2]) if len(sys.argv) > 2 else 3
MARKER = sys.argv[3] if len(sys.argv) > 3 else "no-marker"
RECORD = os.environ.get("COEXIST_TEST_RECORD")


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


if MODE == "crash_start":
    sys.stderr.write("crash_start: cannot load my weights\n")
    sys.exit(3)
if MODE == "slow_start":
    time.sleep(30)
if MODE == "huge_stderr":
    chunk = "x" * 65535 + "\n"
    for _ in range(300):            # about 20 MB
        sys.stderr.write(chunk)
    sys.stderr.write("huge_stderr: the end of it\n")
    sys.stderr.flush()

moves = 0
for line in sys.stdin:
    if RECORD:
        with open(RECORD, "a") as f:
            f.write(line)
    msg = json.loads(line)
    kind, mid = msg["type"], msg.get("id")
    if kind == "hello":
        version = 2 if MODE == "bad_version" else 1
        send({"type": "hello", "id": mid, "protocol": version, "name": f"broken-{MODE}",
              "author": "tests", "options": []})
    elif kind == "newgame":
        if MODE == "stall_newgame":
            time.sleep(30)
        send({"type": "ok", "id": mid})
    elif kind == "ping":
        send({"type": "pong", "id": mid})
    elif kind == "quit":
        break
    elif kind == "move":
        moves += 1
        if MODE == "slow_think":
            time.sleep(0.4)
        if moves < FAIL_AT or MODE in ("huge_stderr", "good", "slow_think"):
            send({"type": "move", "id": mid, "move": msg["legal"][0]})
            continue
        sys.stderr.write(f"{MODE}: failing at move {moves}\n")
        sys.stderr.flush()
        if MODE == "crash_mid":
            sys.exit(1)
        if MODE == "hang":
            # a child holding our pipes open must die with us
            subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", MARKER])
            time.sleep(60)
        if MODE == "garbage":
            sys.stdout.write("}}} this is not json {{{\n")
            sys.stdout.flush()
        if MODE == "illegal":
            send({"type": "move", "id": mid, "move": "release no-such-animal"})
        if MODE == "wrong_id":
            send({"type": "move", "id": "not-the-id", "move": msg["legal"][0]})
        if MODE == "error_reply":
            send({"type": "error", "id": mid, "message": "I give up"})
        if MODE == "huge":
            block = "y" * (1 << 20)
            for _ in range(200):        # a 200 MB line, never ended
                sys.stdout.write(block)
            sys.stdout.flush()
            time.sleep(60)
        if MODE == "late":
            time.sleep(1.5)
            send({"type": "move", "id": mid, "move": msg["legal"][0]})
    else:
        send({"type": "error", "id": mid, "message": "unknown"})
