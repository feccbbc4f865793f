#!/usr/bin/env python3
"""A Coexist protocol bot that takes its time, the way a searching engine
does: it thinks in a worker thread while the main thread keeps reading, so
ping is answered at once even mid-thought, and stop makes it move at once
with the best it has. Standard library only.

Its "search" is a toy (a fixed preference between kinds of move, with
random tie-breaks) standing in for a real one; swap `think` for yours.
Options: `share` (of the time allowed that it thinks), `seed`.
"""
import json
import random
import sys
import threading
import time

PREFERENCE = ["release", "protect", "house", "assign", "move", "recruit", "train",
              "apply", "center", "unassign", "discard", "skip", "end", "pass"]
OPTIONS = [
    {"name": "share", "type": "float", "default": 0.5, "min": 0.0, "max": 0.9,
     "help": "share of the time allowed spent thinking"},
    {"name": "seed", "type": "int", "default": 0, "min": 0, "max": 2**63 - 1,
     "help": "added to the game's seed"},
]
settings = {o["name"]: o["default"] for o in OPTIONS}
out_lock = threading.Lock()
rng = random.Random(0)
busy = threading.Event()           # a move is being computed
stop = threading.Event()           # ...and should be answered now


def send(message):
    with out_lock:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()


def think(request):
    """Spend share x time, then answer with the preferred legal move."""
    deadline = time.monotonic() + settings["share"] * float(request.get("time", 1.0))
    legal = request["legal"]
    rank = {m: PREFERENCE.index(m.split()[0]) if m.split()[0] in PREFERENCE
            else len(PREFERENCE) for m in legal}
    best, samples = None, 0
    while (time.monotonic() < deadline and not stop.is_set()) or best is None:
        move = rng.choice(legal)
        samples += 1
        if best is None or rank[move] < rank[best]:
            best = move
        if samples == 1000:
            send({"type": "info", "id": request.get("id"), "text": f"considering {best}"})
    busy.clear()
    send({"type": "move", "id": request.get("id"), "move": best,
          "info": {"iterations": samples, "value": 0.5, "line": [best]}})


def handle(msg):
    kind, mid = msg.get("type"), msg.get("id")
    if kind == "ping":
        return {"type": "pong", "id": mid}
    if kind == "stop":          # no reply of its own; ignored when not thinking
        if busy.is_set():
            stop.set()
        return None
    if busy.is_set():
        return {"type": "error", "id": mid, "message": "busy: thinking"}
    if kind == "hello":
        return {"type": "hello", "id": mid, "protocol": 1, "name": "thinker",
                "author": "coexist-ai examples", "options": OPTIONS}
    if kind == "setoption":
        name, value = msg.get("name"), msg.get("value")
        kinds = {"share": (int, float), "seed": int}
        if name not in kinds or isinstance(value, bool) or not isinstance(value, kinds[name]):
            return {"type": "error", "id": mid, "message": f"bad option {name}={value!r}"}
        settings[name] = value
        return {"type": "ok", "id": mid}
    if kind == "newgame":
        # seed_string is exact in any language; the number may be rounded
        rng.seed(int(msg.get("seed_string", msg.get("seed", 0))) + settings["seed"])
        return {"type": "ok", "id": mid}
    if kind == "move":
        if not msg.get("legal"):
            return {"type": "error", "id": mid, "message": "no legal moves given"}
        stop.clear()
        busy.set()
        threading.Thread(target=think, args=(msg,), daemon=True).start()
        return None
    return {"type": "error", "id": mid, "message": f"unknown command {kind!r}"}


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
            if not isinstance(msg, dict):
                raise ValueError("not an object")
        except ValueError as e:
            send({"type": "error", "message": f"not a message: {e}"})
            continue
        if msg.get("type") == "quit":
            return
        reply = handle(msg)
        if reply:
            send(reply)
    while busy.is_set():        # end of input: finish the move being made
        time.sleep(0.01)


if __name__ == "__main__":
    main()
