"""The fitted rollout policy: its move features, its weight files, its fit
and the `fit-policy` command, driven as a user runs it."""
import json
import random

import numpy as np
import pytest

from cli_process import cli
from coexist_ai import State, _search
from coexist_ai.bots.spec import BotSpecError, make_bot, model_identity, parse_spec
from coexist_ai.learn.policy import (POLICY_FEATURE_NAMES, PolicyFileError, fit,
                                     load_policy, log_likelihood, record_decisions,
                                     resolve_policy, save_policy)

NAMES = list(POLICY_FEATURE_NAMES)


def index(name):
    return NAMES.index(name)


def positions(count, seed):
    """Positions of random games at 2-4 players, at every kind of decision."""
    rng = random.Random(seed)
    for g in range(count):
        st = State.new(players=2 + g % 3, seed=rng.randrange(2**32))
        while not st.is_over():
            yield st.copy()
            st.apply(rng.choice(st.legal_actions()))


def animal(st, seat, card_id):
    return next(a for a in st.seat(seat).board if a.card.id == card_id)


def test_the_names_are_the_compiled_features():
    assert len(NAMES) == _search.POLICY_FEATURES == len(set(NAMES))
    assert NAMES[:_search.POLICY_KINDS] == [f"kind_{k}" for k in (
        "pass", "end", "center", "train_start", "apply", "skip", "recruit", "house",
        "protect", "assign", "move", "unassign", "release", "train", "discard_token",
        "discard_animal")]


def test_features_say_what_each_move_does():
    checked = {"assign": 0, "release": 0, "house": 0}
    for st in positions(6, seed=3):
        actions, x = _search.policy_features(st)
        assert actions == st.legal_actions() and x.shape == (len(actions), len(NAMES))
        seat = st.current_player
        for action, f in zip(actions, x):
            name = st.move_name(action)
            kind = name.split()[0].replace("-", "_")
            hot = [NAMES[k][5:] for k in range(_search.POLICY_KINDS) if f[k]]
            assert len(hot) == 1 and kind.startswith(hot[0].split("_")[0]), (name, hot)
            card = name.split()[-1]
            if kind == "assign":
                after = st.copy()
                after.apply(action)
                ready = not any(animal(after, seat, card).needs)
                assert f[index("assign_ready")] == ready, name
                assert f[index("assign_s")] == (name.split()[1] == "S"), name
                checked["assign"] += 1
            elif kind in ("release", "house"):
                value = next(c for c in st.card_set.cards if c.id == card).conservation
                assert f[index(f"{kind}_value")] == pytest.approx(value / 3), name
                checked[kind] += 1
    assert min(checked.values()) > 5, checked


def test_features_ignore_the_draw_pile_order():
    for st in list(positions(2, seed=5))[::9]:
        if len(st.referee_draw_pile()) < 8:   # two orders surely differ
            continue
        other = st.observation(0).determinize(seed=4)
        assert st.referee_draw_pile() != other.referee_draw_pile()
        a, b = _search.policy_features(st), _search.policy_features(other)
        assert a[0] == b[0] and np.array_equal(a[1], b[1])


def sampled_decisions(w, count, rng):
    """Decisions of random features, the move drawn from softmax(x . w)."""
    xs, starts, chosen, n = [], [], [], 0
    for _ in range(count):
        moves = int(rng.integers(2, 9))
        x = rng.normal(0, 1, (moves, len(w))).astype(np.float32)
        p = np.exp(x @ w)
        starts.append(n)
        chosen.append(n + int(rng.choice(moves, p=p / p.sum())))
        xs.append(x)
        n += moves
    return {"x": np.concatenate(xs), "start": np.array(starts), "chosen": np.array(chosen),
            "game": np.arange(count) // 10}


def test_the_fit_finds_the_weights_that_drew_the_moves():
    rng = np.random.default_rng(4)
    truth = rng.normal(0, 1, len(NAMES))
    data = sampled_decisions(truth, 6000, rng)
    w, report = fit(data, seed=1, steps=400, l2=0.0)
    assert np.abs(w - truth).max() < 0.25, np.abs(w - truth).max()
    assert report["fitted"]["log_likelihood"] > report["uniform"]["log_likelihood"] + 0.3
    again, _ = fit(data, seed=1, steps=400, l2=0.0)
    assert np.array_equal(w, again)


def test_the_gradient_is_the_likelihoods():
    rng = np.random.default_rng(2)
    data = sampled_decisions(rng.normal(0, 1, len(NAMES)), 50, rng)
    d = {k: data[k] for k in ("start", "chosen")} | {"x": data["x"].astype(np.float64)}
    w = rng.normal(0, 0.5, len(NAMES))
    _, grad = log_likelihood(w, d)
    for k in (0, 7, len(NAMES) - 1):
        step = np.zeros_like(w)
        step[k] = 1e-6
        numeric = (log_likelihood(w + step, d)[0] - log_likelihood(w - step, d)[0]) / 2e-6
        assert numeric == pytest.approx(grad[k], abs=1e-5)


def test_weight_files_round_trip_and_bad_ones_are_refused(tmp_path):
    w = np.linspace(-1, 1, len(NAMES))
    save_policy(w, {"note": "test"}, tmp_path / "w.json")
    read, meta = load_policy(tmp_path / "w.json")
    assert np.allclose(read, w, atol=1e-5) and meta == {"note": "test"}
    good = json.loads((tmp_path / "w.json").read_text())
    bad = {"nan": good | {"weights": [float("nan")] * len(NAMES)},
           "short": good | {"weights": [0.0] * 3},
           "names": good | {"features": NAMES[::-1]},
           "format": good | {"format": "other"}}
    for name, data in bad.items():
        (tmp_path / name).write_text(json.dumps(data))
        with pytest.raises(PolicyFileError, match=name):
            load_policy(tmp_path / name)
    (tmp_path / "text").write_text("not json")
    with pytest.raises(PolicyFileError, match="text"):
        load_policy(tmp_path / "text")


def test_the_searcher_needs_finite_weights_for_the_fitted_policy():
    with pytest.raises(ValueError, match="needs its weights"):
        _search.Searcher(policy="fitted")
    with pytest.raises(ValueError, match="finite"):
        _search.Searcher(policy="fitted", policy_weights=[float("inf")] * len(NAMES))
    _search.Searcher(policy="light", policy_weights=None)


def test_the_weights_steer_the_rollouts():
    """Rollouts that always end the option at once reach the cut-off with
    nothing done: the root's values differ from the fitted policy's."""
    st = State.new(players=2, seed=8)
    shipped = resolve_policy("default")
    lazy = np.zeros(len(NAMES))
    lazy[index("kind_end")] = lazy[index("kind_pass")] = 25.0

    def values(weights):
        s = _search.Searcher(seed=1, policy="fitted", policy_weights=weights, rollout_depth=6)
        return [m[3] for m in s.search(st, iterations=300)["moves"]]
    assert values(shipped) == values(shipped)
    assert values(shipped) != values(lazy)


def test_a_bad_policy_file_in_a_bot_spec_is_one_error_line(tmp_path):
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(BotSpecError, match="bad.json"):
        parse_spec(f"ismcts:policy=fitted,policy_model={tmp_path / 'bad.json'}")
    with pytest.raises(BotSpecError, match="policy=fitted"):
        parse_spec("ismcts:policy=light,policy_model=mine.json")
    run = cli("duel", f"ismcts:policy=fitted,policy_model={tmp_path / 'bad.json'},"
              "iterations=10", "random", "--games", "2")
    lines = run.stderr.strip().splitlines()
    assert run.returncode == 2 and len(lines) == 1 and "bad.json" in lines[0], run.stderr


def test_the_policy_file_is_part_of_the_bots_identity(tmp_path):
    save_policy(np.zeros(len(NAMES)), {}, tmp_path / "a.json")
    save_policy(np.ones(len(NAMES)), {}, tmp_path / "b.json")
    ids = {model_identity(f"ismcts:eval=hand,policy=fitted,policy_model={tmp_path / n}")
           for n in ("a.json", "b.json")}
    assert len(ids) == 2 and None not in ids
    assert model_identity("ismcts:eval=hand,policy=light") is None
    # fitted is the default: the plain spec reads the shipped weights
    assert model_identity("ismcts:eval=hand") == model_identity("ismcts:eval=hand,policy=fitted")
    assert model_identity("ismcts") != model_identity("ismcts:policy=light")


def test_the_v2_policy_ships_beside_the_default_and_replays_by_name():
    default, v2 = resolve_policy("default"), resolve_policy("v2")
    assert default.shape == v2.shape == (len(NAMES),)
    assert not np.array_equal(default, v2)
    assert model_identity("ismcts:policy_model=v2") != model_identity("ismcts")
    with pytest.raises(BotSpecError, match="'default' or 'v2'"):
        parse_spec("ismcts:policy_model=v3")


def test_fit_policy_command_fits_recorded_games(tmp_path):
    games = tmp_path / "games.jsonl"
    # eight games: a quarter held out is two, enough that a fit which learned
    # the moves predicts them better than chance (one game is not)
    run = cli("duel", "ismcts:iterations=30", "greedy", "--games", "8", "--seed", "3",
              "--out", games)
    assert run.returncode == 0, run.stderr
    args = ["fit-policy", games, "--steps", "50", "--seed", "2", "--held-out", "0.25"]
    first = cli(*args, "--out", tmp_path / "a.json")
    assert first.returncode == 0, first.stderr
    assert "held out" in first.stdout and "fitted" in first.stdout
    second = cli(*args, "--out", tmp_path / "b.json")
    a, meta = load_policy(tmp_path / "a.json")
    assert np.array_equal(a, load_policy(tmp_path / "b.json")[0])
    assert meta["fit"]["steps"] == 50 and "games.jsonl" in meta["records"]
    assert meta["report"]["fitted"]["log_likelihood"] > meta["report"]["uniform"]["log_likelihood"]
    assert second.returncode == 0
    bot = make_bot(f"ismcts:policy=fitted,policy_model={tmp_path / 'a.json'},iterations=30")
    st = State.new(players=2, seed=1)
    assert st.is_legal(bot.choose(st.observation(0)))


def test_recorded_decisions_are_the_moves_played(tmp_path):
    from coexist_ai.cards import default_card_set
    from coexist_ai.match import play_game
    specs = ["greedy", "random"]
    bots = [make_bot(s, seed=i) for i, s in enumerate(specs)]
    record = play_game(default_card_set(), 2, 5, bots, specs, [0, 1])
    data = record_decisions([(default_card_set(), record)])
    st = State.new(default_card_set(), players=2, faunas=record["faunas"],
                   first_player=record["first_player"], deck=record["deck"])
    played = 0
    for seat, move in record["moves"]:
        actions, x = _search.policy_features(st)
        if len(actions) > 1:
            row = data["chosen"][played] - data["start"][played]
            assert actions[row] == st.parse_move(move)
            assert np.array_equal(data["x"][data["start"][played] + row], x[row])
            played += 1
        st.push(move)
    assert played == len(data["start"]) > 20


@pytest.mark.parametrize("args, wanted", [
    (["--out", "no/such/folder/p.json"], "--out 'no/such/folder/p.json'"),
    (["--cards", "no-such-set"], "--cards"),
])
def test_fit_policy_mistakes_are_one_error_line(tmp_path, args, wanted):
    games = tmp_path / "g.jsonl"
    assert cli("duel", "random", "random", "--games", "2", "--out", games).returncode == 0
    run = cli("fit-policy", games, *args)
    lines = run.stderr.strip().splitlines()
    assert run.returncode == 2 and len(lines) == 1, run.stderr
    assert lines[0].startswith("error:") and wanted in lines[0], lines[0]
