"""A protocol bot written from docs/protocol.md and docs/formats.md alone,
which checks every promise those pages make about what a bot receives.

    python protocol_doc_bot.py

It imports nothing from coexist_ai: what it knows of the game comes from the
documents (each check names the part it relies on). A promise broken is
answered with an error naming it (the frontend then forfeits the bot) and
written to stderr. It plays a random legal move, seeded from seed_string
plus its float option `offset`. With DOC_BOT_LOG set, it appends one line a
move request: the number of legal moves and the time. Not a test module.
"""
import hashlib
import json
import os
import random
import re
import sys

COLOURS = "CFPHS"                         # formats.md: C F P H S = 0 1 2 3 4
KINDS = ["pass", "end", "center", "train", "apply", "skip", "recruit X", "house A",
         "protect A", "assign X A", "move X A B", "unassign X A", "release A",
         "train X Y", "discard X", "discard A"]          # formats.md, "Actions"
SEED_MAX = 2**63 - 1                      # protocol.md, "Seeds and numbers"
COMMAND_HEAD = re.compile(r'^{"type":"([^"]*)"(,"id":(-?[0-9]+|"[^"]*"))?')   # "Lines"
LEGAL = re.compile(r'"legal":\[([^\]]*)\]')
ANIMAL_KEYS = {"id", "name", "fauna", "capture", "conservation", "needs", "protect", "effect"}
CARETAKER_KEYS = {"colour", "fauna", "id", "name"}
RULE_KEYS = {"capture_limit", "center_spaces", "max_rounds", "release_goal"}


class Broken(Exception):
    """A promise of the documents that a message did not keep."""


def expect(condition, promise):
    if not condition:
        raise Broken(promise)


class DocBot:
    def __init__(self):
        self.offset = 0.0
        self.game = None          # seat, players, rng, card order, sha256, fauna of each card
        self.log = os.environ.get("DOC_BOT_LOG")

    def hello(self, msg, line):
        expect(msg.get("protocol") == 1, "hello: protocol 1")
        return {"type": "hello", "protocol": 1, "name": "doc-bot", "author": "tests",
                "options": [{"name": "offset", "type": "float", "default": 0.0}]}

    def setoption(self, msg, line):
        value = msg.get("value")
        if msg.get("name") != "offset" or isinstance(value, bool) \
                or not isinstance(value, (int, float)):        # an int is a float here
            return {"type": "error", "message": f"no such option or value: {line.strip()}"}
        self.offset = float(value)
        return {"type": "ok"}

    def newgame(self, msg, line):
        seat, players, seed = msg.get("seat"), msg.get("players"), msg.get("seed")
        expect(players in (2, 3, 4) and seat in range(players), "newgame: seat of 2..4 players")
        expect(isinstance(seed, int) and 0 <= seed <= SEED_MAX, "newgame: seed in 0..2^63-1")
        expect(msg.get("seed_string") == str(seed), "newgame: seed_string is the seed")
        order, fauna = check_card_set(msg.get("card_set"))
        self.game = {"seat": seat, "players": players, "order": order, "fauna": fauna,
                     "sha256": msg["card_set"]["sha256"],
                     "rng": random.Random(int(msg["seed_string"]) + int(self.offset))}
        return {"type": "ok"}

    def move(self, msg, line):
        expect(self.game is not None, "conversation: a newgame before move requests")
        legal = msg.get("legal")
        expect(isinstance(legal, list) and legal, "move: legal is never empty")
        expect(json.loads("[" + LEGAL.search(line).group(1) + "]") == legal,
               'Lines: the legal moves are written "legal":[...]')
        for key in ("time", "time_margin"):
            expect(isinstance(msg.get(key), (int, float)) and msg[key] >= 0, f"move: {key}")
        check_observation(msg.get("observation"), self.game, legal)
        if self.log:
            with open(self.log, "a") as f:
                f.write(json.dumps({"legal": len(legal), "time": msg["time"]}) + "\n")
        return {"type": "move", "move": self.game["rng"].choice(legal)}


def check_card_set(cs):
    """protocol.md, "The card set": the keys, and sha256 as the recipe says.
    Returns (card-set order {id: position}, {id: fauna})."""
    expect(isinstance(cs, dict) and set(cs) == {"name", "rules", "animal", "caretaker",
                                                "sha256"}, "card_set: exactly its keys")
    expect(set(cs["rules"]) == RULE_KEYS, "card_set: rules has all four keys")
    for animal in cs["animal"]:
        expect(set(animal) == ANIMAL_KEYS, "card_set: every animal key")
        for key in ("needs", "protect"):
            expect(set(animal[key]) == set(COLOURS), f"card_set: {key} has all five colours")
        expect(animal["effect"] is None or "kind" in animal["effect"], "card_set: effect")
    for card in cs["caretaker"]:
        expect(set(card) == CARETAKER_KEYS, "card_set: every caretaker key")
    content = {k: v for k, v in cs.items() if k != "sha256"}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    expect(hashlib.sha256(text.encode("ascii")).hexdigest() == cs["sha256"],
           "card_set: sha256 of the canonical JSON")
    cards = cs["animal"] + cs["caretaker"]
    return {c["id"]: i for i, c in enumerate(cards)}, {c["id"]: c["fauna"] for c in cards}


def check_observation(obs, game, legal):
    """formats.md, "Positions", and protocol.md, "move"."""
    order = game["order"]
    expect(obs.get("format") == "coexist-observation" and obs.get("version") == 1,
           "observation: format and version")
    expect(obs["card_set"]["sha256"] == game["sha256"], "observation: the newgame's card set")
    expect(obs["viewer"] == obs["current_player"] == game["seat"],
           "move: viewer = current_player = the bot's seat")
    expect("draw_pile_order" not in obs, "observation: never the draw pile's order")
    expect(obs["draw_pile_size"] == len(obs["draw_pile_contents"]), "draw_pile_size")
    seats = obs["seats"]
    in_card_set_order = [obs["draw_pile_contents"], obs["discard"]] + \
        [s[key] for s in seats for key in ("released", "protected")]
    for cards in in_card_set_order:
        expect([order[c] for c in cards] == sorted(order[c] for c in cards),
               "Order of lists: draw pile, discard, released, protected in card-set order")
    placed = obs["mission"] + obs["draw_pile_contents"] + obs["discard"] + [
        c for s in seats for c in [b["card"] for b in s["board"]] + s["released"] + s["protected"]]
    faunas = {s["fauna"] for s in seats}
    expect(sorted(placed) == sorted(c for c, f in game["fauna"].items() if f in faunas),
           "Loading checks: every card of the seats' faunas in exactly one place")
    for seat in seats:
        for slot in seat["board"]:
            on, movable = slot["on"], slot["movable"]
            expect(set(on) <= set(COLOURS) and set(movable) <= set(COLOURS[:4])
                   and 0 not in on.values() and 0 not in movable.values(),
                   "board: colours, a count of 0 left out")
            expect(all(n <= on.get(c, 0) for c, n in movable.items()), "movable <= on")
    check_turn(obs, seats[obs["current_player"]])
    check_legal_order(obs, order, legal)


def check_turn(obs, me):
    """formats.md: what `turn` holds in each phase."""
    phase, turn = obs["phase"], obs["turn"]
    expect(phase != "over", "move: a decision to make")
    if phase == "start":
        expect(0 <= turn["step"] < len(me["start_recruit_order"]),
               "turn.step: the index of the start_recruit effect asked")
    elif phase == "train":
        expect((turn["step"] > 0) == bool(turn["trained_up"] or turn["trained_down"]),
               "turn.step: the trades made (each crosses a boundary)")
    elif phase != "effect":
        expect(turn["step"] == 0, "turn.step: 0 in this phase")
    if phase != "train":
        expect(turn["trained_up"] == turn["trained_down"] == [], "trained_*: empty")
    if phase != "house":
        expect(turn["capture_used"] == 0, "turn.capture_used: 0 outside house")
    if phase == "effect":
        expect(turn["effect_card"] in me["released"], "turn.effect_card: the animal released")
    else:
        expect(turn["effect_card"] is None, "turn.effect_card: null outside effect")


def check_legal_order(obs, order, legal):
    """formats.md, "Actions": ascending action integers, that is by kind,
    then colour Y, colour X, card B, card A, cards by card-set position
    (move X <from> <to>: by <to>, then <from>)."""
    def key(move):
        words = move.split()
        shape = [words[0]] + ["X" if len(w) == 1 and w in COLOURS else "A"
                              for w in words[1:]]
        if shape == ["move", "X", "A", "A"]:
            shape = ["move", "X", "A", "B"]
        if shape == ["train", "X", "X"]:
            shape = ["train", "X", "Y"]
        kind = KINDS.index(" ".join(shape))
        colours = [COLOURS.index(w) for w in words[1:] if len(w) == 1 and w in COLOURS]
        cards = [order[w] for w in words[1:] if not (len(w) == 1 and w in COLOURS)]
        return [kind] + colours[::-1] + cards[::-1]   # Y before X, B before A

    keys = [key(m) for m in legal]
    expect(keys == sorted(keys) and len(set(map(tuple, keys))) == len(keys),
           "legal: in the documented order, no move twice")


def main():
    bot = DocBot()
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
            kind = msg["type"]
        except (ValueError, KeyError, TypeError):
            print(json.dumps({"type": "error", "message": "not a message"}), flush=True)
            continue
        if kind == "quit":
            return
        if kind == "stop":                  # nothing is ever being computed here
            continue
        try:
            head = COMMAND_HEAD.match(line)
            expect(head and head.group(1) == kind and json.loads(head.group(3) or "null")
                   == msg.get("id"), 'Lines: "type" first, "id" second, compact')
            if kind == "ping":
                reply = {"type": "pong"}
            elif kind in ("hello", "setoption", "newgame", "move"):
                reply = getattr(bot, kind)(msg, line)
            else:
                reply = {"type": "error", "message": f"unknown command {kind!r}"}
        except Broken as e:
            sys.stderr.write(f"doc-bot: broken promise: {e}\n")
            reply = {"type": "error", "message": f"broken promise: {e}"}
        if "id" in msg:
            reply["id"] = msg["id"]
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
