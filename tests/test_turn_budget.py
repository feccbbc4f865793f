"""Budgets per turn (coexist_ai/bots/turnbudget.py): `turn_iterations` and
`turn_time` bound all the decisions of one turn together, the first
decision's tree answers the later ones where it can, and per-decision
budgets still cap each decision.

Iteration budgets make these searches deterministic; the one test of a
time budget bounds it loosely (timing is measured in `bench`, not tested).
"""
import random

import pytest

from coexist_ai._engine import State
from coexist_ai.bots import BotSpecError, make_bot, parse_spec
from coexist_ai.bots.turnbudget import MIN_VISITS, SHARE, floor_visits, has_choice_ahead
from coexist_ai.cards import default_card_set

CS = default_card_set()


def turns_of(spec, games=3, players=2, seed=21):
    """Per turn of seat 0 (the bot; random opponents), the info of each of
    its searched decisions, in order."""
    turns = []
    for g in range(games):
        state = State.new(CS, players=players, seed=seed + g)
        bot = make_bot(spec, g)
        bot.new_game(0, players)
        rng, key = random.Random(g), None
        while not state.is_over():
            if state.current_player != 0:
                state.apply(rng.choice(state.legal_actions()))
                continue
            action = bot.choose(state.observation(0))
            if len(state.legal_actions()) > 1:
                if (state.rounds, 0) != key:
                    key = (state.rounds, 0)
                    turns.append([])
                turns[-1].append(bot.info)
            state.apply(action)
    return turns


def root_visits(info):
    return sum(m[1] for m in info["moves"])


@pytest.mark.parametrize("extra", ["threads=1", "threads=2", "iterations=15000"])
def test_a_turn_spends_its_iterations_and_no_more(extra):
    budget = 20_000
    turns = turns_of(f"ismcts:turn_iterations={budget},{extra}")
    assert len(turns) > 20
    for turn in turns:
        spent = sum(info["iterations"] for info in turn)
        assert spent <= budget + MIN_VISITS * len(turn), turn
        # the first decision searches its share: its root then holds that
        first = turn[0]
        assert root_visits(first) >= int(SHARE * budget) or first["iterations"] == budget
    # a turn whose principal line shows no later choice spends the rest:
    # most turns end on such a decision
    whole = [t for t in turns if sum(i["iterations"] for i in t) >= budget]
    assert len(whole) > len(turns) / 2


def test_later_decisions_are_answered_from_the_kept_tree():
    """The first decision's tree explores the rest of the turn; a later
    decision whose kept root holds its share already searches nothing (a
    budget per decision searched every one of them afresh)."""
    turns = turns_of("ismcts:turn_iterations=20000")
    later = [info for turn in turns for info in turn[1:]]
    from_tree = [info for info in later if info["iterations"] == 0]
    assert len(from_tree) > len(later) / 10
    assert all(root_visits(info) >= MIN_VISITS for info in from_tree)
    # every later decision starts from what the tree kept for it
    assert all(root_visits(info) > info["iterations"] for info in later)


def test_a_small_turn_budget_has_a_small_floor():
    """A floor of MIN_VISITS a decision would make a turn budget of 30
    iterations cost several times that; the floor is a tenth of it."""
    assert floor_visits(30) == 3 and floor_visits(10**6) == MIN_VISITS
    for turn in turns_of("ismcts:turn_iterations=30", games=1):
        assert sum(info["iterations"] for info in turn) <= 30 + 3 * len(turn)


def test_a_per_decision_cap_still_holds_within_a_turn_budget():
    turns = turns_of("ismcts:turn_iterations=50000,iterations=3000", games=1)
    decisions = [info for turn in turns for info in turn]
    assert all(info["iterations"] <= 3000 for info in decisions)
    assert max(info["iterations"] for info in decisions) == 3000


def test_a_turn_time_bounds_the_whole_turn():
    """Before, `time=T` was per decision: a turn of k decisions took k T.
    Loose bound: the deadlines are what is left of the turn, and the
    overrun is the minimum-visits floor and the Python around it."""
    budget = 0.05
    turns = turns_of(f"ismcts:turn_time={budget}", games=1)
    long_turns = [t for t in turns if len(t) >= 4]
    assert long_turns
    for turn in turns:
        assert sum(info["seconds"] for info in turn) < 2 * budget + 0.05


def test_a_turn_budget_alone_drops_the_default_iterations():
    for spec in ("ismcts:turn_time=1", "ismcts:turn_iterations=1000"):
        assert parse_spec(spec)[1]["iterations"] == 0
    assert parse_spec("ismcts:turn_time=1,iterations=500")[1]["iterations"] == 500
    with pytest.raises(BotSpecError, match="turn_time"):
        parse_spec("ismcts:iterations=0")


def test_a_choice_ahead_is_read_from_the_principal_line():
    state = State.new(CS, players=2, seed=1)
    obs = state.observation(0)
    recruit = [a for a in obs.legal_actions() if obs.move_name(a).startswith("recruit")][0]
    after = state.copy()
    after.apply(recruit)
    end = after.parse_move("end")
    # recruiting leaves a choice (recruit more or end); `end` right after
    # ends the turn: no choice of the seat's own is left
    assert has_choice_ahead(obs, recruit, [recruit])
    assert not has_choice_ahead(after.observation(0), end, [end])
    # a line of another first move (another thread's tree) is not followed
    assert not has_choice_ahead(after.observation(0), end, [recruit, recruit])
    # a line that stops inside the turn: more may come
    assert has_choice_ahead(obs, recruit, [])


def test_serve_offers_the_turn_budgets_as_options_and_keeps_them():
    """Over the protocol a turn is several move requests; the served bot
    keeps its turn's account between them."""
    import io
    import json

    from coexist_ai.protocol.server import Engine
    out = io.BytesIO()
    engine = Engine("ismcts", out)

    def send(*commands):
        engine.run(io.BytesIO(b"".join(json.dumps(c).encode() + b"\n" for c in commands)))
        engine.wait()
        return [json.loads(line) for line in out.getvalue().splitlines()]

    hello = send({"type": "hello", "id": 0, "protocol": 1})[-1]
    assert {"turn_time", "turn_iterations"} <= {o["name"] for o in hello["options"]}
    send({"type": "setoption", "id": 1, "name": "iterations", "value": 0},
         {"type": "setoption", "id": 2, "name": "turn_iterations", "value": 4000},
         {"type": "newgame", "id": 3, "seat": 0, "players": 2, "seed": 5})
    state, moves = State.new(CS, players=2, seed=5), []
    while state.current_player == 0:          # seat 0's first turn, request by request
        obs = state.observation(0)
        moves.append(send({"type": "move", "id": 10 + len(moves), "time": 5.0,
                           "observation": json.loads(obs.to_json())})[-1])
        state.push(moves[-1]["move"])
    assert len(moves) >= 2
    assert sum(m["info"].get("iterations", 0) for m in moves) <= 4000 + MIN_VISITS * len(moves)
