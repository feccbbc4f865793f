"""The engine's move lists against a plain reading of RULES.md.

`expected_moves` below is written from RULES.md alone, in Python, from the
JSON view of a position (what any seat sees): it shares no code with the C
move generator. Over seeded games it must list exactly the engine's moves, in
every decision. The constructed tests in test_rules_*.py pin each rule; this
one checks that the rules still hold together in the positions real games
reach (deep boards, anti-cycle counts, effects, discards).
"""
import json

from positions import CS, random_positions

CARETAKERS = "CFPH"
BOUNDARIES = ("C|F", "F|P", "P|H")


def spaces(pool, animals):
    return animals + sum((pool[c] + 2) // 3 for c in CARETAKERS)


def expected_moves(st):
    d = json.loads(st.to_json())
    phase, turn, supply, mission = d["phase"], d["turn"], d["supply"], d["mission"]
    me = d["seats"][d["current_player"]]
    pool, slots, track = me["pool"], me["board"], me["track"]
    effects = [CS.card(c).effect for c in me["released"] if CS.card(c).effect]
    capacity = 5 + sum(e.kind == "extra_space" for e in effects)
    limit = max(0, 10 - track // 2 + sum(e.amount for e in effects
                                         if e.kind == "capture_bonus"))
    one_to_one = {(e.from_colour, e.to_colour) for e in effects
                  if e.kind == "train_one_to_one"}

    def fits(changes):                       # spaces after a pool change
        after = {c: pool[c] + changes.get(c, 0) for c in CARETAKERS}
        return spaces(after, len(slots)) <= capacity

    def recruits(anywhere=False):
        shown = {CS.card(m).colour for m in mission if not CS.card(m).is_animal}
        return {f"recruit {c}" for c in CARETAKERS
                if c in shown and supply[c] and (anywhere or fits({c: 1}))}

    def houses(budget, anywhere=False):
        if not anywhere and len(slots) + spaces(pool, 0) >= capacity:
            return set()
        return {f"house {m}" for m in mission if CS.card(m).is_animal
                and (anywhere or CS.card(m).capture <= budget)}

    def trades():
        found = set()
        for i, x in enumerate(CARETAKERS):
            for j, y in enumerate(CARETAKERS):
                if i == j or not supply[y]:
                    continue
                crossed = set(BOUNDARIES[min(i, j):max(i, j)])
                if crossed & set(turn["trained_down" if j > i else "trained_up"]):
                    continue
                if j < i or (x, y) in one_to_one:
                    cost = 1
                elif j == i + 1:
                    cost = 2
                else:
                    continue
                if pool[x] >= cost and fits({x: -cost, y: 1}):
                    found.add(f"train {x} {y}")
        return found

    if phase == "start":
        return {"apply", "skip"}
    if phase == "choose":
        found = recruits() | houses(limit)
        if me["turns"] > 0:
            found |= {"center"} | ({"train"} if trades() else set())
        return found or {"pass"}
    if phase == "recruit":
        return {"end"} | recruits()
    if phase == "house":
        return {"end"} | houses(limit - turn["capture_used"])
    if phase == "train":
        return ({"end"} if turn["step"] else set()) | trades()
    if phase == "discard":
        return ({f"discard {c}" for c in CARETAKERS if pool[c]}
                | {f"discard {sl['card']}" for sl in slots})
    if phase == "effect":
        kind = CS.card(turn["effect_card"]).effect.kind
        if kind == "house_one":
            return {"skip"} | houses(None, anywhere=True)
        if kind == "recruit_mission":
            return {"end" if turn["step"] else "skip"} | recruits(anywhere=True)
        return {"apply", "skip"}
    assert phase == "center"
    found = {"end"}
    short = {sl["card"]: {c: CS.card(sl["card"]).needs[k] - sl["on"].get(c, 0)
                          for k, c in enumerate("CFPHS")} for sl in slots}
    for sl in slots:
        a = sl["card"]
        if not sl["on"] and track < 8:
            found.add(f"protect {a}")
        if not any(short[a].values()):
            found.add(f"release {a}")
        for c in "CFPHS":
            have = track if c == "S" else pool[c]
            if have and short[a][c]:
                found.add(f"assign {c} {a}")
        for c, n in sl.get("movable", {}).items():
            if n:
                if fits({c: 1}):
                    found.add(f"unassign {c} {a}")
                found |= {f"move {c} {a} {b}" for b in short if b != a and short[b][c]}
    return found


def test_engine_moves_match_a_plain_reading_of_the_rules():
    decisions = set()
    for players in (2, 3, 4):
        for seed in range(8):
            for st in random_positions(players, 7000 + 10 * players + seed,
                                       eager=(0.0, 0.6, 0.85, 0.95)[seed % 4]):
                listed = st.legal_moves()
                assert len(listed) == len(set(listed))
                assert set(listed) == expected_moves(st), st.to_json()
                decisions.add(st.phase)
    # the games reached every kind of decision
    assert decisions == {"start", "choose", "recruit", "house", "center",
                         "train", "effect", "discard"}
