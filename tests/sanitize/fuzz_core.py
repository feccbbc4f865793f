"""Fuzz and play the compiled core, for a build with AddressSanitizer and
UndefinedBehaviorSanitizer (tests/test_sanitizers.py builds it and runs this
file under it; any finding aborts the process).

    python tests/sanitize/fuzz_core.py --seed 1 --scale 1.0

Every input is derived from --seed, so a finding replays. Five parts:

- games: random, greedy and ISMCTS games at 2, 3 and 4 players (every other
  ISMCTS game with its refill outcomes widened, `widen`; half of them
  rolled out by the fitted policy with random weights), every invariant
  checked after every move;
- json: positions of those games written as JSON (state and observation),
  mutated (numbers, card ids, phases, lists cut or doubled, keys dropped)
  and loaded; whatever loads is played to the end with invariants checked
  after every move, searched by ISMCTS and greedy, and round-tripped;
- raw: the struct dicts of those positions with random bytes changed, loaded
  with from_raw, and played on the same way when accepted;
- cards: the default card set's TOML with numbers, effects and rules
  mutated; every set the loader accepts must be accepted by the engine and
  is played (random and greedy games, invariants after every move);
- actions: random action integers of every kind applied unchecked to game
  positions; the state's bounds must hold after each.

Prints one JSON line of counts: what was tried, accepted and played.
"""
import argparse
import copy
import json
import random
import re
import sys

from coexist_ai import _engine, _search
from coexist_ai.cards import CardSetError, default_card_set, dumps_card_set, loads_card_set
from coexist_ai.errors import CoexistError
from coexist_ai.notation import make_action
from coexist_ai.state_json import observation_from_json

CS = default_card_set()


class Findings(Exception):
    """An accepted input that broke an invariant: a bug to report."""


def check(position, where):
    broken = position.check_invariants()
    if broken:
        raise Findings(f"{where}: invariant {broken} broken: {position.to_json()}")


def fitted_or_light(rng):
    """Rollouts by the light policy, or by the fitted one with random
    weights, large ones too (its logits are clipped)."""
    if rng.random() < 0.5:
        return {"policy": "light"}
    scale = rng.choice((1.0, 50.0))
    return {"policy": "fitted", "policy_weights": [rng.gauss(0, scale) for _ in
                                                   range(_search.POLICY_FEATURES)]}


def play_out(state, rng, where, counts, search=True):
    """Play a loaded position to the end by random moves, checking every
    invariant after each; search it first (the search must not hang)."""
    if search and not state.is_over():
        obs = state.observation()
        _search.Searcher(max_nodes=4000, rollout_depth=rng.choice((0, 8)),
                       widen=rng.choice((0.0, 0.2)), **fitted_or_light(rng),
                       seed=rng.getrandbits(32)).search(obs, iterations=20)
        _search.greedy_choose(obs, max_nodes=200)
        counts["searches"] += 1
    moves = 0
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
        check(state, where)
        moves += 1
        if moves > 20000:
            raise Findings(f"{where}: a game of more than 20,000 moves")
    counts["moves"] += moves


def games(rng, counts, n):
    """Games by every kind of bot; returns positions met on the way."""
    positions = []
    for g in range(n):
        players = 2 + g % 3
        state = _engine.State.new(players=players, seed=rng.getrandbits(63))
        kind = ("random", "greedy", "ismcts")[g % 3]
        searcher = (_search.Searcher(max_nodes=5000, seed=g, widen=0.5 * (g % 2),
                                     **fitted_or_light(rng))
                    if kind == "ismcts" else None)
        while not state.is_over():
            if rng.random() < 0.05:
                positions.append(state.copy())
            obs = state.observation()
            if kind == "greedy":
                action = _search.greedy_choose(obs, max_nodes=300)[0]
            elif kind == "ismcts":
                action = searcher.search(obs, iterations=12)["action"]
            else:
                action = rng.choice(state.legal_actions())
            state.apply(action)
            check(state, f"game {g}")
            counts["moves"] += 1
        counts["games"] += 1
    return positions


def json_values(rng, ids):
    return rng.choice([None, True, -1, 0, 1, 3, 5, 8, 15, 16, 17, 127, 128, 255, 256,
                       2 ** 31, 2 ** 64, 1.5, "", "x", "C", "S", "C|F", [], {},
                       rng.choice(ids), rng.randrange(-5, 300),
                       ["effect", "center", "house", "discard", "start", "over"]
                       [rng.randrange(6)]])


def paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from paths(value, prefix + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from paths(value, prefix + (i,))


def move_a_card(doc, places, rng, ids):
    """Take a card id out of one list and put it into another: a position
    that keeps its shape and often loads."""
    lists = [p for p in places if isinstance(get(doc, p), list)]
    sources = [p for p in lists if any(v in ids for v in get(doc, p))]
    if not sources:
        return
    source, target = get(doc, rng.choice(sources)), get(doc, rng.choice(lists))
    card = rng.choice([v for v in source if v in ids])
    source.remove(card)
    target.append(card if rng.random() < 0.7 else {"card": card, "on": {"C": 1}})


def get(doc, path):
    for key in path:
        doc = doc[key]
    return doc


def mutate_document(doc, rng, ids):
    doc = copy.deepcopy(doc)
    places = list(paths(doc))[1:]
    for _ in range(rng.randrange(1, 4)):
        path = rng.choice(places)
        try:
            parent = get(doc, path[:-1])
            how = rng.randrange(6)
            value = parent[path[-1]]
            if how == 4 and isinstance(value, int) and not isinstance(value, bool):
                parent[path[-1]] = value + rng.choice((-2, -1, 1, 2, 8))
            elif how == 5:
                move_a_card(doc, places, rng, ids)
            elif how == 0:
                parent[path[-1]] = json_values(rng, ids)
            elif how == 1:
                del parent[path[-1]]
            elif how == 2 and isinstance(parent[path[-1]], list):
                parent[path[-1]] = parent[path[-1]] * 2   # a list doubled
            elif isinstance(parent, list):
                parent.append(copy.deepcopy(rng.choice(parent)) if parent else 0)
            else:
                parent[rng.choice(["phase", "turn", "movable", "x"])] = json_values(rng, ids)
        except (KeyError, IndexError, TypeError):
            pass   # an earlier edit removed the path
    return json.dumps(doc)


def load_and_play(load, text, rng, counts, where):
    try:
        position = load(text)
    except CoexistError:
        return
    counts[f"{where}_accepted"] += 1
    check(position, where)
    if load(position.to_json()) != position:
        raise Findings(f"{where}: an accepted document does not round-trip: {text}")
    state = position if isinstance(position, _engine.State) else position.determinize(1)
    play_out(state, rng, where, counts)


def fuzz_json(rng, counts, positions, n):
    ids = [c.id for c in CS.cards]
    for i in range(n):
        base = rng.choice(positions)
        doc = json.loads(base.to_json())
        load_and_play(_engine.State.from_json, mutate_document(doc, rng, ids), rng,
                      counts, "json_state")
        obs = json.loads(base.observation().to_json())
        load_and_play(observation_from_json, mutate_document(obs, rng, ids), rng,
                      counts, "json_observation")
        counts["json_tried"] += 2


def byte_places(raw):
    """Paths of every byte of a raw struct dict."""
    return [p for p in paths(raw) if not isinstance(get(raw, p), (dict, list))]


def fuzz_raw(rng, counts, positions, n):
    for i in range(n):
        raw = rng.choice(positions)._referee_raw()
        places = byte_places(raw)
        for _ in range(rng.randrange(1, 4)):
            path = rng.choice(places)
            parent = raw
            for key in path[:-1]:
                parent = parent[key]
            parent[path[-1]] = rng.choice((0, 1, 2, 4, 5, 8, 15, 16, 17, 127, 128, 255,
                                           rng.randrange(256), parent[path[-1]] + 1))
        counts["raw_tried"] += 1
        try:
            state = _engine.State._from_raw(CS, raw, begin_turn=rng.random() < 0.3)
        except CoexistError:
            continue
        counts["raw_accepted"] += 1
        play_out(state, rng, "raw", counts)


def mutate_card_text(text, rng):
    lines = text.split("\n")
    for _ in range(rng.randrange(1, 6)):
        i = rng.randrange(len(lines))
        line = lines[i]
        how = rng.randrange(4)
        if how == 0 and re.search(r"\d+", line):
            value = str(rng.choice((0, 1, 2, 7, 14, 15, 16, 32, 33, 200, 250, 251, 255,
                                    256, rng.randrange(300))))
            lines[i] = re.sub(r"\d+", value, line, count=1)
        elif how == 1 and line.startswith("effect"):
            kind = rng.choice(["start_recruit", "capture_bonus", "extra_space",
                               "house_one", "recruit_mission", "double_protect",
                               "skip_survival", "train_one_to_one", "recruit_two"])
            params = {"start_recruit": 'colour = "H"', "capture_bonus": "amount = 60",
                      "double_protect": 'colour = "C"', "recruit_two": 'colour = "P"',
                      "train_one_to_one": 'from = "C", to = "H"'}.get(kind)
            lines[i] = f'effect = {{ kind = "{kind}"' + (f", {params}" if params else "") + " }"
        elif how == 2 and line.startswith(("needs", "protect")):
            key = line.split(" ")[0]
            lines[i] = f"{key} = {{ C = {rng.randrange(40)}, S = {rng.randrange(40)} }}"
        elif how == 3 and line.startswith("[rules]"):
            lines.insert(i + 1, rng.choice(["center_spaces = 14", "capture_limit = 255",
                                            "release_goal = 1", "max_rounds = 1",
                                            "max_rounds = 250", "center_spaces = 1"]))
    return "\n".join(lines)


def fuzz_cards(rng, counts, n):
    text = dumps_card_set(CS)
    for i in range(n):
        counts["cards_tried"] += 1
        try:
            cs = loads_card_set(mutate_card_text(text, rng), "<fuzz>")
        except CardSetError:
            continue
        counts["cards_accepted"] += 1
        _engine.CoreCardSet(cs)      # the engine must take what the loader takes
        for players in (2, 3, 4):
            try:
                state = _engine.State.new(cs, players=players, seed=rng.getrandbits(63))
            except CoexistError:
                continue           # the mutated set lacks cards of a fauna
            play_out(state, rng, "cards", counts, search=players == 2)
            greedy = _engine.State.new(cs, players=players, seed=rng.getrandbits(63))
            while not greedy.is_over():
                greedy.apply(_search.greedy_choose(greedy.observation(), max_nodes=100)[0])
                check(greedy, "cards greedy")
                counts["moves"] += 1


def fuzz_actions(rng, counts, positions, n):
    for i in range(n):
        state = rng.choice(positions).copy()
        for _ in range(50):
            if state.is_over():
                break
            before = state.to_json()
            action = make_action(rng.randrange(16), x=rng.randrange(8), y=rng.randrange(8),
                                 a=rng.randrange(256), b=rng.randrange(256))
            state.apply_unchecked(action)
            if state._check_bounds():
                raise Findings(f"actions: bounds broken by the unchecked action "
                               f"{action} from {before}")
            state.legal_actions()
            counts["actions_tried"] += 1


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scale", type=float, default=1.0,
                        help="multiplies every count (1.0: a few minutes under ASan)")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    counts = dict.fromkeys(["games", "moves", "searches", "json_tried", "json_state_accepted",
                            "json_observation_accepted", "raw_tried", "raw_accepted",
                            "cards_tried", "cards_accepted", "actions_tried"], 0)
    scaled = lambda n: max(1, int(n * args.scale))
    positions = games(rng, counts, scaled(300))
    fuzz_json(rng, counts, positions, scaled(1500))
    fuzz_raw(rng, counts, positions, scaled(3000))
    fuzz_cards(rng, counts, scaled(150))
    fuzz_actions(rng, counts, positions, scaled(600))
    print(json.dumps(counts))


if __name__ == "__main__":
    try:
        main()
    except Findings as finding:
        print(f"finding: {finding}", file=sys.stderr)
        sys.exit(1)
