"""Constructed positions for the rules tests (tests/test_rules_*.py).

A position is written as what matters to the test and nothing else; the
builder fills in the rest and loads it through the public JSON loader
(`State.from_json`), so every position a test plays from has passed the
loader's consistency checks (token totals, every card in one place):

    st = position(faunas=("forest", "air"),
                  mission=["forest-k1", "air-hoopoe"],
                  seats=[dict(pool={"C": 2},
                              board=[("forest-red-fox", {"C": 1})],
                              track=2, released=["air-barn-owl"]),
                         dict()])

- `faunas`: one per seat (default: the first `players` of forest, air, sea,
  savannah). Only the cards of these faunas are in the game.
- `seats[i]`: pool {colour: n}, board [id | (id, on) | (id, on, movable)],
  track, released [ids], protected [ids],
  turns (default 1: Center and Training are open), order (the colours of
  the start_recruit effects in release order; default: card order). Missing
  seats are empty.
- `mission`, `discard`: card ids. `draw`: the first cards of the draw pile,
  in order; every card not placed anywhere follows in card order, or goes to
  the discard pile with `rest="discard"` (a short draw pile).
- The supply is whatever the seats do not hold, so the totals of RULES.md
  (C 28, F 24, P 20, H 20, S 32) always hold; to empty a supply, give the
  tokens to another seat.
- `current`, `first` (seats), `rounds`, `end_triggered`: as in the JSON.
- `card_set`: another card set (default: reconstructed-v1, CS below).
- `phase=None` (default): the current seat's turn starts afresh (start
  recruits asked, anti-cycle counts from the tokens present). Any other
  phase loads mid-turn with `turn` (step, capture_used, trained_up,
  trained_down, effect_card) as given.
"""
import json

from coexist_ai._engine import State
from coexist_ai.cards import card_set_from_data, packaged_card_set

# The rules tests are written in the cards of reconstructed-v1 (its values,
# needs and gains): the rules do not depend on the set, and the fixtures stay
# put when the default set changes.
CS = packaged_card_set("reconstructed-v1")
FAUNAS = ("forest", "air", "sea", "savannah")
COLOURS = "CFPHS"
START_SUPPLY = {"C": 28, "F": 24, "P": 20, "H": 20, "S": 32}


def card(card_id):
    """The Card of CS with this id."""
    return CS.card(card_id)


def variant_card_set(rules=None, effects=None, change=None, name="variant"):
    """CS with some [rules] numbers and animal effects changed:
    effects maps an animal id to its new effect table (None: no effect);
    change(position, data), if given, edits each animal's table (its
    position among the animals, its fields as in a file) in place."""
    animals = []
    for i, c in enumerate(CS.animals()):
        data = {k: v for k, v in c.to_data().items() if v is not None}
        if effects and c.id in effects:
            data.pop("effect", None)
            if effects[c.id] is not None:
                data["effect"] = effects[c.id]
        if change is not None:
            change(i, data)
        animals.append(data)
    return card_set_from_data({
        "name": name, "rules": {**CS.rules, **(rules or {})},
        "animal": animals, "caretaker": [c.to_data() for c in CS.caretakers()]})


def _slot(entry):
    if isinstance(entry, str):
        entry = (entry,)
    card_id, on, movable = (tuple(entry) + (None, None))[:3]
    slot = {"card": card_id, "on": dict(on or {})}
    if movable is not None:
        slot["movable"] = dict(movable)
    return slot


def position_dict(players=None, faunas=None, current=0, first=0, phase=None,
                  mission=(), seats=(), discard=(), draw=(), rest="draw",
                  turn=None, rounds=0, end_triggered=False, card_set=None):
    """The JSON document of a constructed position (see the module doc)."""
    cs = card_set or CS
    if faunas is None:
        faunas = FAUNAS[:players or 2]
    faunas = tuple(faunas)
    players = len(faunas)
    seats = list(seats) + [{}] * (players - len(seats))
    placed = set(mission) | set(discard) | set(draw)
    doc_seats = []
    held = dict.fromkeys(COLOURS, 0)
    for fauna, seat in zip(faunas, seats):
        unknown = set(seat) - {"pool", "board", "track", "released",
                               "protected", "turns", "order"}
        assert not unknown, f"unknown seat keys {unknown}"
        board = [_slot(e) for e in seat.get("board", ())]
        pool = {c: seat.get("pool", {}).get(c, 0) for c in "CFPH"}
        track = seat.get("track", 0)
        for c in "CFPH":
            held[c] += pool[c]
        held["S"] += track
        for sl in board:
            for c, n in sl["on"].items():
                held[c] += n
        released = list(seat.get("released", ()))
        protected = list(seat.get("protected", ()))
        placed |= {sl["card"] for sl in board} | set(released) | set(protected)
        doc = {"fauna": fauna, "turns": seat.get("turns", 1), "track": track,
               "pool": pool, "board": board, "released": released,
               "protected": protected}
        if "order" in seat:
            doc["start_recruit_order"] = list(seat["order"])
        doc_seats.append(doc)
    supply = {c: START_SUPPLY[c] - held[c] for c in COLOURS}
    assert min(supply.values()) >= 0, f"the seats hold more than the game has: {supply}"
    leftover = [c.id for c in cs.cards if c.fauna in faunas and c.id not in placed]
    pile = list(draw) + (leftover if rest == "draw" else [])
    discard = list(discard) + (leftover if rest == "discard" else [])
    doc = {
        "format": "coexist-state", "version": 1,
        "card_set": {"name": cs.name, "sha256": cs.sha256},
        "players": players, "first_player": first, "current_player": current,
        "end_triggered": end_triggered, "rounds": rounds, "supply": supply,
        "mission": list(mission), "discard": discard,
        "draw_pile_order": pile, "seats": doc_seats,
    }
    if phase is not None:
        doc["phase"] = phase
        doc["turn"] = dict(turn or {})
    return doc


def position(**kwargs):
    """A State loaded with State.from_json from position_dict(**kwargs)."""
    return State.from_json(json.dumps(position_dict(**kwargs)),
                           kwargs.get("card_set"))


# ---- reading a position back ---------------------------------------------

def moves(st):
    """The legal moves as a set, after checking that none is listed twice."""
    listed = st.legal_moves()
    assert len(listed) == len(set(listed)), f"duplicate moves in {listed}"
    return set(listed)


def play(st, *texts):
    """Push each move in turn (each must be legal); returns the state."""
    for text in texts:
        st.push(text)
    return st


def doc(st):
    return json.loads(st.to_json())


def seat(st, i=None):
    """Seat i's part of the JSON view (the current seat by default)."""
    return doc(st)["seats"][st.current_player if i is None else i]


def pool(st, i=None):
    return seat(st, i)["pool"]


def supply(st):
    return doc(st)["supply"]


def board(st, i=None):
    """{animal id: tokens on it} of seat i."""
    return {sl["card"]: sl["on"] for sl in seat(st, i)["board"]}


def mission(st):
    return doc(st)["mission"]


def discard_pile(st):
    return doc(st)["discard"]


# ---- many positions ---------------------------------------------------------

# With `eager` > 0 the walk picks, with that probability, a move of the first
# kind in this list that is legal: games then go deep into the Center
# (tokens on animals, releases, effects) instead of ending turns at random.
EAGER_ORDER = ("release", "assign", "apply", "recruit", "house", "move",
               "protect", "center")


def random_positions(players, seed, eager=0.0):
    """Every position of one game of CS from State.new(seed=seed), played
    with seeded random moves until it is over; yields each before its move."""
    import random
    st = State.new(CS, players=players, seed=seed)
    rng = random.Random(seed)
    while not st.is_over():
        yield st
        legal = st.legal_moves()
        if rng.random() < eager:
            for kind in EAGER_ORDER:
                pick = [m for m in legal if m.split()[0] == kind]
                if pick:
                    legal = pick
                    break
        st.push(rng.choice(legal))
