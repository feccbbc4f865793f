"""A protocol bot that plays the first legal move, except in the games where
it sits in the seat given on its command line: there it answers a move
that does not exist, and forfeits. For tests of failure reporting: it
fails some games, not all. Not a test module (pytest collects test_*.py).

    python seat_failing_bot.py SEAT
"""
import json
import sys

FAILING_SEAT = int(sys.argv[1])
seat = None
for line in sys.stdin:
    msg = json.loads(line)
    reply = {"id": msg.get("id")}
    if msg["type"] == "hello":
        reply.update(type="hello", protocol=1, name="seat-failing", author="tests", options=[])
    elif msg["type"] == "newgame":
        seat = msg["seat"]
        reply.update(type="ok")
    elif msg["type"] == "move":
        move = "fly away" if seat == FAILING_SEAT else msg["legal"][0]
        reply.update(type="move", move=move)
    elif msg["type"] == "ping":
        reply.update(type="pong")
    elif msg["type"] == "quit":
        break
    else:
        reply.update(type="error", message="unknown")
    print(json.dumps(reply), flush=True)
