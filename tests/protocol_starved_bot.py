"""A protocol bot whose input thread starves while it searches, for the
checker's tests.

It reads in the main thread and searches in a worker thread, like
bots/examples/thinker.py, but after a 0.05 s set-up its search holds the
lock that every reply is written under until it has used 80% of the move
time. A ping sent at once after a move request is answered at once; one
sent while the search runs waits for the search to end (a real bot seen
with a median pong of 0.66 s had this shape). Not a test module.
"""
import json
import sys
import threading
import time

write_lock = threading.Lock()


def send(message):
    with write_lock:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


def search(request):
    time.sleep(0.05)                        # setting up: the reader is still free
    with write_lock:                        # the bug: searching under the output lock
        time.sleep(0.8 * float(request["time"]) - 0.05)
    send({"type": "move", "id": request.get("id"), "move": request["legal"][0]})


REPLIES = {"hello": {"type": "hello", "protocol": 1, "name": "starved", "author": "tests",
                     "options": []},
           "newgame": {"type": "ok"}, "ping": {"type": "pong"}}

for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "quit":
        break
    if kind == "move":
        threading.Thread(target=search, args=(msg,), daemon=True).start()
    elif kind in REPLIES:
        send(dict(REPLIES[kind], id=msg.get("id")))
    elif kind != "stop":
        send({"type": "error", "id": msg.get("id"), "message": f"unknown {kind!r}"})
