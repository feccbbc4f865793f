"""The learned evaluation: compiled features against their Python reference,
the compiled model against numpy, model files (round trip, refusals),
reproducible training, the `train` command, and searches that use it."""
import json
import random

import numpy as np
import pytest

from cli_process import cli
from coexist_ai import State, _search
from coexist_ai.bots.spec import BotSpecError, make_bot, parse_spec
from coexist_ai.cards import default_card_set, packaged_card_set
from coexist_ai.learn import selfplay
from coexist_ai.learn.features import FEATURE_NAMES, reference_features
from coexist_ai.learn.model import (HEADS, Model, ModelFileError, load_model,
                                    resolve_model, save_model, shipped_path)
from coexist_ai.learn.train import TrainSettings, train
from coexist_ai.match import play_game

CS = default_card_set()
N = len(FEATURE_NAMES)


def random_positions(count, seed):
    """Positions of random games at 2-4 players, at any decision (mid-turn
    ones too) and some finished ones."""
    rng = random.Random(seed)
    for g in range(count):
        st = State.new(players=2 + g % 3, seed=rng.randrange(2**32))
        for _ in range(rng.randrange(600)):
            if st.is_over():
                break
            st.apply(rng.choice(st.legal_actions()))
        yield st


def random_model(hidden, seed):
    rng = np.random.default_rng(seed)
    width = hidden or N
    return Model(shift=rng.normal(0, 2, N).astype(np.float32),
                 scale=rng.uniform(0.5, 3, N).astype(np.float32),
                 w1=rng.normal(0, 0.3, (hidden, N)).astype(np.float32),
                 b1=rng.normal(0, 0.3, hidden).astype(np.float32),
                 w2=rng.normal(0, 0.3, (len(HEADS), width)).astype(np.float32),
                 b2=rng.normal(0, 0.3, len(HEADS)).astype(np.float32),
                 meta={"note": "random"})


def test_compiled_features_match_the_reference():
    checked = 0
    for st in random_positions(150, seed=5):
        compiled, reference = _search.learned_features(st), reference_features(st)
        assert compiled.shape == (st.num_players, N)
        assert np.allclose(compiled, reference, atol=1e-5), [
            (FEATURE_NAMES[f], compiled[p, f], reference[p, f])
            for p, f in np.argwhere(~np.isclose(compiled, reference, atol=1e-5))]
        checked += int(np.count_nonzero(reference))
    assert checked > 1000   # the positions exercise the features


def test_features_ignore_the_draw_pile_order():
    st = next(random_positions(1, seed=9))
    other = st.observation(0).determinize(seed=4)
    assert st.referee_draw_pile() != other.referee_draw_pile()
    assert np.array_equal(_search.learned_features(st), _search.learned_features(other))


@pytest.mark.parametrize("hidden", [0, 8])
def test_compiled_model_matches_numpy(hidden):
    model = random_model(hidden, seed=hidden)
    x = np.concatenate([_search.learned_features(st) for st in random_positions(40, 3)])
    assert np.allclose(_search.learned_predict(model, x), model.predict(x), atol=1e-5)


@pytest.mark.parametrize("reward", ["win", "rank", "margin"])
def test_cutoff_blends_the_model_as_the_hand_evaluation_blends(reward):
    model = random_model(8, seed=1)
    for st in random_positions(20, 11):
        values = _search.cutoff_values(st, model, reward, margin_weight=0.25)
        if st.is_over():   # a finished game is scored exactly, model or not
            assert values == _search.cutoff_values(st, None, reward, 0.25)
            continue
        heads = model.predict(_search.learned_features(st))
        base = heads[:, HEADS.index("win" if reward == "win" else "rank")]
        margin = heads[:, HEADS.index("margin")]
        want = margin if reward == "margin" else 0.75 * base + 0.25 * margin
        assert np.allclose(values, want, atol=1e-5)


def test_model_file_round_trips(tmp_path):
    model = random_model(5, seed=2)
    save_model(model, tmp_path / "m.npz")
    back = load_model(tmp_path / "m.npz")
    for key in ("shift", "scale", "w1", "b1", "w2", "b2"):
        assert np.array_equal(getattr(back, key), getattr(model, key)), key
    assert back.meta == {"note": "random"} and back.hidden == 5


def _write(path, **changes):
    """A valid model file with some of its arrays replaced (None: left out)."""
    model = random_model(4, seed=0)
    arrays = {k: getattr(model, k) for k in ("shift", "scale", "w1", "b1", "w2", "b2")}
    arrays.update(format=np.array("coexist-learned-eval-1"),
                  features=np.array(FEATURE_NAMES), meta=np.array("{}"))
    arrays.update(changes)
    np.savez(path, **{k: v for k, v in arrays.items() if v is not None})
    return path


BAD_FILES = {
    "nan weight": dict(w1=np.full((4, N), np.nan, dtype=np.float32)),
    "infinite bias": dict(b2=np.array([0, np.inf, 0], dtype=np.float32)),
    "too big for float32": dict(b1=np.full(4, 1e300)),
    "wrong shape": dict(w2=np.zeros((3, 5), dtype=np.float32)),
    "short shift": dict(shift=np.zeros(N - 1, dtype=np.float32)),
    "zero scale": dict(scale=np.zeros(N, dtype=np.float32)),
    "too many hidden units": dict(w1=np.zeros((65, N), dtype=np.float32),
                                  b1=np.zeros(65, dtype=np.float32),
                                  w2=np.zeros((3, 65), dtype=np.float32)),
    "missing weights": dict(w2=None),
    "other features": dict(features=np.array(FEATURE_NAMES[:-1] + ("extra",))),
    "other format": dict(format=np.array("something-else")),
    "meta not json": dict(meta=np.array("{not json")),
    "strings as weights": dict(b2=np.array(["a", "b", "c"])),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_model_files_are_refused(tmp_path, case):
    path = _write(tmp_path / "bad.npz", **BAD_FILES[case])
    with pytest.raises(ModelFileError, match="bad.npz"):
        load_model(path)


def test_files_that_are_no_archive_are_refused(tmp_path):
    (tmp_path / "text.npz").write_text("hello")
    (tmp_path / "cut.npz").write_bytes(_write(tmp_path / "ok.npz").read_bytes()[:300])
    for name in ("text.npz", "cut.npz", "missing.npz"):
        with pytest.raises(ModelFileError, match=name):
            load_model(tmp_path / name)


def test_a_bad_model_in_a_bot_spec_is_one_error_line(tmp_path):
    path = _write(tmp_path / "bad.npz", w1=np.full((4, N), np.nan, dtype=np.float32))
    with pytest.raises(BotSpecError, match="bad.npz"):
        parse_spec(f"ismcts:eval=learned,model={path}")
    run = cli("duel", f"ismcts:eval=learned,model={path},iterations=10", "random",
              "--games", "2")
    assert run.returncode == 2, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and "bad.npz" in lines[0], run.stderr


def test_a_model_without_the_learned_evaluation_is_refused():
    with pytest.raises(BotSpecError, match="eval=learned"):
        parse_spec("ismcts:eval=hand,model=mine.npz")


def test_the_shipped_models_load_and_differ():
    """Two models ship: the default, trained on the default card set, and
    v1 (kept so that the games played with it and the default's training
    replay); a name that is neither and no file is one error naming both."""
    default, first = resolve_model("default"), resolve_model("v1")
    assert shipped_path().exists() and shipped_path("v1").exists()
    assert default.hidden >= 0 and first.hidden >= 0
    assert not np.array_equal(default.w2, first.w2)
    with pytest.raises(ModelFileError, match="'default' or 'v1'"):
        resolve_model("v9")
    assert all("coexist-ai train" in m.meta["command"] for m in (default, first))
    # the default model was trained on reconstructed-v2, the default set of
    # then (v6 keeps its cards, so the features mean the same)
    assert default.meta["positions"]["card_set"] == \
        packaged_card_set("reconstructed-v2").sha256


@pytest.fixture(scope="module")
def positions():
    return selfplay.generate(CS, 6, (2, 4), "ismcts:iterations=20", seed=3)


def test_positions_are_turn_starts_labelled_with_the_result(positions):
    rows = len(positions["x"])
    assert positions["x"].shape == (rows, N) and positions["y"].shape == (rows, 3)
    assert set(positions["players"].tolist()) == {2, 4}
    # the labels of one game are its result: the win shares of a position sum to 1
    first = positions["game"] == positions["game"][0]
    n = int(positions["players"][0])
    assert abs(positions["y"][:n, 0].sum() - 1) < 1e-6
    assert len(np.unique(positions["y"][first], axis=0)) == n


def test_positions_do_not_depend_on_jobs(positions):
    again = selfplay.generate(CS, 6, (2, 4), "ismcts:iterations=20", seed=3, jobs=2)
    for key in positions:
        assert np.array_equal(positions[key], again[key]), key


@pytest.mark.parametrize("hidden", [0, 6])
def test_training_is_reproducible_from_its_seed(positions, hidden):
    settings = TrainSettings(hidden=hidden, epochs=3, seed=7)
    a, report = train(positions, settings)
    b, _ = train(positions, settings)
    c, _ = train(positions, TrainSettings(hidden=hidden, epochs=3, seed=8))
    for key in ("shift", "scale", "w1", "b1", "w2", "b2"):
        assert np.array_equal(getattr(a, key), getattr(b, key)), key
    assert not np.array_equal(a.w2, c.w2)
    assert set(report) >= {"learned", "hand", "held_out_rows"}


def test_train_command_writes_a_usable_model(tmp_path):
    args = ["train", "--games", "4", "--players", "2", "--bot", "ismcts:iterations=20",
            "--epochs", "2", "--hidden", "4", "--seed", "2"]
    first = cli(*args, "--positions", tmp_path / "pos.npz", "--out", tmp_path / "a.npz")
    assert first.returncode == 0, first.stderr
    assert "held out" in first.stdout and "hand" in first.stdout
    second = cli(*args, "--positions", tmp_path / "pos.npz", "--out", tmp_path / "b.npz")
    assert second.returncode == 0 and "positions read from" in second.stdout
    a, b = load_model(tmp_path / "a.npz"), load_model(tmp_path / "b.npz")
    assert np.array_equal(a.w1, b.w1) and np.array_equal(a.w2, b.w2)
    assert json.loads(json.dumps(a.meta))["positions"]["games"] == 4
    other = cli(*args[:2], "5", *args[3:], "--positions", tmp_path / "pos.npz")
    assert other.returncode == 2 and other.stderr.startswith("error: --positions")
    # a file written before a search parameter existed (its spelled-out bot
    # lacks `widen`) is read: the bot it names played as this one does
    data, settings = selfplay.load_positions(str(tmp_path / "pos.npz"))
    settings["bot"] = settings["bot"].replace("widen=0.0,", "")
    selfplay.save_positions(data, settings, str(tmp_path / "old.npz"))
    old = cli(*args, "--positions", tmp_path / "old.npz", "--out", tmp_path / "c.npz")
    assert old.returncode == 0 and "positions read from" in old.stdout, old.stderr
    settings["bot"] = settings["bot"].replace("c=0.7,", "c=0.5,")
    selfplay.save_positions(data, settings, str(tmp_path / "other.npz"))
    other = cli(*args, "--positions", tmp_path / "other.npz", "--out", tmp_path / "d.npz")
    assert other.returncode == 2 and other.stderr.startswith("error: --positions")
    bot = make_bot(f"ismcts:eval=learned,model={tmp_path / 'a.npz'},iterations=30")
    st = State.new(players=2, seed=1)
    assert st.is_legal(bot.choose(st.observation(0)))


def test_the_learned_evaluation_changes_the_search():
    st = State.new(players=2, seed=4)
    for _ in range(30):
        st.apply(random.Random(len(st.history())).choice(st.legal_actions()))
    while len(st.legal_actions()) < 2:
        st.apply(st.legal_actions()[0])
    def search(learned):   # rollouts cut off after 4 turns, evaluated there
        return _search.Searcher(seed=1, rollout_depth=4, learned=learned).search(
            st, iterations=400)
    hand, learned, again = search(None), search(resolve_model("default")), \
        search(resolve_model("default"))
    assert learned["moves"] == again["moves"]
    assert [m[3] for m in learned["moves"]] != [m[3] for m in hand["moves"]]


@pytest.mark.parametrize("players", [2, 4])
def test_search_with_the_learned_evaluation_plays_legal_full_games(players):
    specs = ["ismcts:eval=learned,iterations=60"] + ["greedy"] * (players - 1)
    bots = [make_bot(s, seed=i) for i, s in enumerate(specs)]
    record = play_game(CS, players, 17, bots, specs, list(range(players)))
    assert record["end"] == "normal" and not record["forfeits"], record["forfeits"]
    assert len(record["moves"]) > 50


@pytest.mark.parametrize("args, wanted", [
    (["--players", "2,5"], "--players '2,5'"),
    (["--bot", "cmd:python bot.py"], "self-play needs a built-in bot"),
    (["--bot", "ismcts:eval=nothing"], "eval='nothing'"),
    (["--out", "no/such/folder/m.npz"], "--out 'no/such/folder/m.npz'"),
    (["--positions", "no/such/folder/p.npz"], "--positions 'no/such/folder/p.npz'"),
])
def test_train_mistakes_are_one_error_line(args, wanted):
    run = cli("train", "--games", "2", "--epochs", "1", *args)
    lines = run.stderr.strip().splitlines()
    assert run.returncode == 2 and len(lines) == 1, run.stderr
    assert lines[0].startswith("error:") and wanted in lines[0], lines[0]


def test_a_positions_file_that_is_none_is_refused(tmp_path):
    (tmp_path / "p.npz").write_text("not an archive")
    run = cli("train", "--games", "2", "--positions", tmp_path / "p.npz")
    assert run.returncode == 2 and run.stderr.startswith("error: --positions"), run.stderr
    assert (tmp_path / "p.npz").read_text() == "not an archive"   # left as it was
