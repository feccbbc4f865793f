"""No input reachable from Python can make the compiled core read or write
outside its fixed-size state: loaders refuse positions from which a legal
move could pass a limit, the engine guards every array it writes, and the
Python entry points refuse what they cannot use.

Calls that used to crash the interpreter run in a child process here, so a
regression fails one test instead of killing the whole run."""
import json
import random
import subprocess
import sys
import textwrap

import pytest

from coexist_ai import _engine, _search
from coexist_ai.cards import CardSet, default_card_set, dumps_card_set, loads_card_set
from coexist_ai.errors import StateFormatError
from coexist_ai.notation import COLOURS, make_action
from cli_process import PYTHON, package_env
from positions import CS, position, position_dict

MARTEN = "forest-pine-marten"       # house_one
FOREST = [c.id for c in CS.animals() if c.fauna == "forest" and c.id != MARTEN]
AIR = [c.id for c in CS.animals() if c.fauna == "air"]
SEA = [c.id for c in CS.animals() if c.fauna == "sea"]
SAVANNAH = [c.id for c in CS.animals() if c.fauna == "savannah"]


def house_one_pending(board, seat=0, players=2):
    """The effect decision of a just-released pine marten, with `board` on
    the releasing seat's Center and a Mission animal to house."""
    faunas = ("forest", "air", "sea", "savannah")[:players]
    seats = [dict() for _ in range(players)]
    seats[seat] = dict(board=board, released=[MARTEN])
    mission = [a for a in AIR if a not in board][:1]
    return position_dict(faunas=faunas, current=seat, phase="effect",
                         turn={"effect_card": MARTEN}, seats=seats,
                         mission=mission)


def load(doc):
    return _engine.State.from_json(json.dumps(doc))


@pytest.mark.parametrize("players,seat", [(2, 0), (4, 3)])
def test_a_board_past_its_capacity_is_refused_before_a_house_can_overflow_it(players, seat):
    # 16 animals in a house_one decision: `house` used to write board[16]
    animals = (FOREST + AIR[1:] + SEA + SAVANNAH)[:16]
    with pytest.raises(StateFormatError, match="invariant 10"):
        load(house_one_pending(animals, seat, players))


def test_house_one_needs_the_space_its_release_freed():
    # capacity 5: five animals left on the board cannot be the position
    # right after a release (the released one took a space)
    with pytest.raises(StateFormatError, match="invariant 10"):
        load(house_one_pending(FOREST[:5]))
    st = load(house_one_pending(FOREST[:4]))
    st.push(f"house {AIR[0]}")
    assert st.spaces_used(0) == 5 and st.check_invariants() == 0


def raw_of(st):
    return st._referee_raw()


def test_from_raw_checks_every_invariant():
    st = _engine.State.new(CS, seed=3)       # CS: the set the raw is read back with
    raw = raw_of(st)
    raw["players"][0]["n_board"] = 255        # used to segfault legal_actions()
    with pytest.raises(StateFormatError, match="invariant 1"):
        _engine.State._from_raw(CS, raw)
    with pytest.raises(StateFormatError, match="invariant 1"):
        _engine.Observation._from_raw(CS, raw)
    raw = raw_of(st)
    raw["supply"][0] -= 1
    with pytest.raises(StateFormatError, match="invariant 2"):
        _engine.State._from_raw(CS, raw)
    assert _engine.State._from_raw(CS, raw_of(st)) == st


@pytest.mark.parametrize("edit,field", [
    (lambda r: r.pop("deck"), "deck is missing"),
    (lambda r: r.__setitem__("rounds", 256), "rounds = 256"),
    (lambda r: r.__setitem__("rounds", True), "rounds = True"),
    (lambda r: r["players"][1].__setitem__("pool", [0, 0]), r"players\[1\].pool"),
    (lambda r: r["players"][0]["board"][3].__setitem__("on", [0, 0, 0, 0, "x"]),
     r"players\[0\].board\[3\].on\[4\]"),
    (lambda r: r.__setitem__("players", None), "players"),
])
def test_from_raw_names_the_field_it_cannot_read(edit, field):
    raw = raw_of(_engine.State.new(seed=3))
    edit(raw)
    with pytest.raises(StateFormatError, match=field):
        _engine.State._from_raw(CS, raw)


@pytest.mark.parametrize("where,value", [
    (("mission", 4), 200), (("deck", 0), 7), (("loc", 127), 1),
    (("players", 3, "track"), 1), (("effect_card",), 3),
    (("players", 0, "start_recruit", 0), 2), (("players", 0, "one_to_one", 0), 16),
])
def test_unused_bytes_must_be_zero(where, value):
    raw = raw_of(_engine.State.new(seed=3))     # 2 players: seat 3 unused
    target = raw
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    with pytest.raises(StateFormatError, match="invariant 1"):
        _engine.State._from_raw(CS, raw)


def test_permanent_effects_must_match_the_released_animals():
    st = position(seats=[dict(released=["air-hoopoe"])])
    raw = raw_of(st)
    raw["players"][0]["capture_bonus"] = 250      # no released card gives it
    with pytest.raises(StateFormatError, match="invariant 9"):
        _engine.State._from_raw(CS, raw)


def test_the_round_counter_cannot_pass_the_safeguard():
    raw = raw_of(_engine.State.new(seed=3))
    raw["rounds"] = CS.rules["max_rounds"]        # and the game not over
    with pytest.raises(StateFormatError, match="invariant 1"):
        _engine.State._from_raw(CS, raw)


def every_action_shape(rng, n):
    """Random action integers of every kind with fields anywhere in range
    of their bits (most of them illegal)."""
    for _ in range(n):
        yield make_action(rng.randrange(16), x=rng.randrange(8), y=rng.randrange(8),
                          a=rng.randrange(256), b=rng.randrange(256))


def test_apply_unchecked_stays_inside_the_state_whatever_the_action():
    rng = random.Random(11)
    for seed in range(40):
        st = _engine.State.new(players=rng.choice((2, 3, 4)), seed=seed)
        for action in every_action_shape(rng, 300):
            if st.is_over():
                break
            st.apply_unchecked(action)
            assert st._check_bounds() == 0, (seed, action)
            st.legal_actions()


def test_apply_unchecked_of_a_missing_animal_changes_nothing():
    st = _engine.State.new(seed=5)
    before = st.referee_bytes()
    absent = CS.index_of("sea-otter")          # not on any board
    for kind in (8, 9, 11, 12, 15):            # protect assign unassign release discard
        st.apply_unchecked(make_action(kind, x=0, a=absent))
        assert st.referee_bytes() == before


CRASHERS = {
    "greedy_value seat 7": "_search.greedy_value(st, 7)",
    "greedy_value seat -1": "_search.greedy_value(st, -1)",
    "search None": "_search.Searcher().search(None, iterations=10)",
    "greedy_choose None": "_search.greedy_choose(None)",
    "greedy_value None": "_search.greedy_value(None, 0)",
    "bench_copy None": "_engine.bench_copy(None, 10)",
    "Position()": "_engine.Position()",
    "bare Observation": "_engine.Observation.__new__(_engine.Observation).legal_actions()",
    "bare State apply": "_engine.State.__new__(_engine.State).apply(0)",
    "bare State search": "_search.Searcher().search(_engine.State.__new__(_engine.State), iterations=5)",
    "bare State greedy": "_search.greedy_choose(_engine.Observation.__new__(_engine.Observation))",
    "huge greedy budget": "_search.greedy_choose(st, max_nodes=600000000)",
    "huge node pool": "_search.Searcher(max_nodes=2**31 - 1)",
}


def test_python_entry_points_raise_instead_of_crashing():
    script = textwrap.dedent("""
        import json, sys
        from coexist_ai import _engine, _search
        st = _engine.State.new(seed=1)
        out = {}
        for name, call in json.loads(sys.argv[1]).items():
            try:
                eval(call)
                out[name] = "no error"
            except Exception as e:
                out[name] = type(e).__name__
        print(json.dumps(out))
    """)
    done = subprocess.run([*PYTHON, "-c", script, json.dumps(CRASHERS)], env=package_env(),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    raised = json.loads(done.stdout)
    assert set(raised) == set(CRASHERS)
    for name, error in raised.items():
        assert error in ("TypeError", "IndexError", "ValueError"), (name, error)


def test_the_bare_objects_say_how_to_make_one():
    bare = _engine.Observation.__new__(_engine.Observation)
    with pytest.raises(TypeError, match="made without its constructor"):
        bare.legal_actions()


def test_a_search_always_has_its_root_moves_even_with_a_tiny_pool():
    # 16 nodes over 8 threads: 2 each, where the root used to stay unexpanded
    st = _engine.State.new(seed=9)
    for _ in range(3):
        st.push("recruit C" if "recruit C" in st.legal_moves() else st.legal_moves()[0])
    searcher = _search.Searcher(max_nodes=16, threads=8, seed=1)
    for _ in range(3):
        result = searcher.search(st.observation(), iterations=50)
        assert result["action"] in st.legal_actions()
        assert len(result["moves"]) == len(st.legal_actions())


def unchecked_set(cards=None, **rules):
    """The default set with some rules changed, built without the loader's
    checks (the CardSet constructor trusts its arguments), as any other way
    of making a card set might hand it to the engine."""
    return CardSet("unchecked", tuple(cards or CS.cards), {**CS.rules, **rules}, "<test>")


@pytest.mark.parametrize("change,why", [
    (dict(capture_limit=255), "capture_limit plus"),       # + the set's bonuses
    (dict(center_spaces=14), "extra_space"),               # + 2 extra_space cards
    (dict(max_rounds=251), "max_rounds"),
    (dict(cards=CS.cards + CS.cards[:49]), "128 cards"),
    (dict(cards=CS.caretakers() + CS.animals()), "animal listed after a caretaker"),
])
def test_the_engine_refuses_a_card_set_past_its_limits(change, why):
    with pytest.raises(ValueError, match=why):
        _engine.CoreCardSet(unchecked_set(**change))
    assert _engine.CoreCardSet(unchecked_set())


def widest_capture_set():
    """The default set with capture_limit + its capture_bonus amounts at 255."""
    bonus = sum(c.effect.amount for c in CS.animals()
                if c.effect and c.effect.kind == "capture_bonus")
    text = dumps_card_set(default_card_set())
    return loads_card_set(text.replace("capture_limit = 10",
                                       f"capture_limit = {255 - bonus}"))


def test_the_loader_and_the_engine_agree_on_the_capture_limit():
    assert _engine.CoreCardSet(widest_capture_set())


def test_capture_total_stays_within_the_limit_at_the_widest_set():
    cs = widest_capture_set()
    for seed in range(30):
        st = _engine.State.new(cs, seed=seed)
        st.playout_random(seed)
        assert st.check_invariants() == 0


def test_notation_colours_match_the_engine():
    from coexist_ai.vocabulary import Colour
    assert [Colour(c).code for c in COLOURS] == list(range(len(COLOURS)))


def test_unchecked_moves_out_of_their_decision_or_without_tokens_change_nothing():
    # found by tests/sanitize/fuzz_core.py: `center` in an effect decision
    # left its effect card set; `assign S` with an empty track wrapped it
    st = load(house_one_pending(FOREST[:2]))
    before = st.referee_bytes()
    for action in (make_action(2), make_action(9, x=4, a=CS.index_of(FOREST[0])),
                   make_action(14, x=0), make_action(0)):
        st.apply_unchecked(action)
        assert st.referee_bytes() == before
    center = position(seats=[dict(board=[FOREST[0]])], phase="center")
    before = center.referee_bytes()
    center.apply_unchecked(make_action(9, x=4, a=CS.index_of(FOREST[0])))   # no S
    center.apply_unchecked(make_action(11, x=0, a=CS.index_of(FOREST[0])))  # none on it
    assert center.referee_bytes() == before


def test_serve_answers_a_position_past_the_limits_with_an_error_and_goes_on():
    # the 16-animal board made `serve ismcts` spin forever inside a search
    from cli_process import cli_argv, cli_env, ROOT
    bad = house_one_pending((FOREST + AIR[1:])[:16])
    bad.pop("draw_pile_order")
    bad.update(format="coexist-observation", viewer=0,
               draw_pile_contents=sorted(c.id for c in CS.cards
                                         if c.fauna in ("forest", "air") and c.id not in
                                         set(bad["mission"]) | {MARTEN} |
                                         set((FOREST + AIR[1:])[:16])))
    bad["draw_pile_size"] = len(bad["draw_pile_contents"])
    good = json.loads(_engine.State.new(seed=4).observation(0).to_json())
    lines = [{"type": "hello", "id": 1, "protocol": 1},
             {"type": "newgame", "id": 2, "seat": 0, "players": 2, "seed": 5},
             {"type": "move", "id": 3, "observation": bad, "legal": ["skip"], "time": 1.0},
             {"type": "move", "id": 4, "observation": good,
              "legal": _engine.State.new(seed=4).legal_moves(), "time": 0.2}]
    text = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in lines)
    done = subprocess.run(cli_argv("serve", "ismcts:iterations=200"), input=text,
                          cwd=ROOT, env=cli_env(), capture_output=True, text=True,
                          timeout=120)
    replies = {r.get("id"): r for r in map(json.loads, done.stdout.splitlines())
               if r.get("type") != "info"}
    assert replies[3]["type"] == "error" and "invariant 10" in replies[3]["message"]
    assert replies[4]["type"] == "move"
