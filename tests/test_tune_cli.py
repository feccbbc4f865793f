"""`coexist-ai tune`, run as a real process: a tiny real run, its records
and history; a resume after SIGKILL (and after Ctrl-C) ends at the theta
of an uninterrupted run; bad input is one error line, exit status 2."""
import hashlib
import json
import shlex
import shutil
import signal
import sys

import pytest

from coexist_ai.bots import parse_spec
from coexist_ai.bots.spec import as_played
from coexist_ai.records import read_records
from coexist_ai.tune.spsa import Spsa
from cli_process import (ROOT, assert_clear_error, assert_ok, cli, killed_at_exit,
                         wait_for_records)

BOT = "ismcts:iterations=40"
TINY = [BOT, "--param", "c=0.1:2", "--param", "rollout_depth=2:12", "--iterations", 3,
        "--seed", 2, "--jobs", 1, "--quiet"]


def history(out):
    return json.loads((out / "theta.json").read_text())


def without_times(records):
    for record in records:
        record.pop("times")
    return sorted(records, key=lambda r: r["game"])


def test_a_tiny_run_records_its_games_and_theta(tmp_path):
    out = tmp_path / "run"
    proc = cli("tune", *TINY, "--out", out)
    assert_ok(proc)
    records = read_records(str(out / "games.jsonl"))
    assert sorted(r["game"] for r in records) == list(range(6))
    done = history(out)
    assert done["finished"] and done["iterations_done"] == 3 and done["games"] == 6
    tuned = proc.stdout.splitlines()[-1]
    assert tuned == f"tuned: {done['spec']}"
    name, params = parse_spec(done["spec"])
    assert name == "ismcts" and params["iterations"] == 40
    assert 0.1 <= params["c"] <= 2 and 2 <= params["rollout_depth"] <= 12
    assert isinstance(params["rollout_depth"], int)
    for step in done["history"]:
        games = [r for r in records if r["round"] == step["iteration"]]
        assert sorted(tuple(r["entrants"]) for r in games) == [("theta+", "theta-"),
                                                               ("theta-", "theta+")]
        # one deal, played in both seat orders
        assert len({(tuple(r["faunas"]), tuple(r["deck"])) for r in games}) == 1
        for r in games:
            specs = {role: bot["spec"] for role, bot in zip(r["entrants"], r["bots"])}
            plus, minus = parse_spec(specs["theta+"])[1], parse_spec(specs["theta-"])[1]
            assert (plus["c"], plus["rollout_depth"]) == (step["plus"]["c"],
                                                           step["plus"]["rollout_depth"])
            assert (minus["c"], minus["rollout_depth"]) == (step["minus"]["c"],
                                                             step["minus"]["rollout_depth"])
            assert plus["c"] != minus["c"] and plus["rollout_depth"] != minus["rollout_depth"]
    rows = (out / "theta.csv").read_text().splitlines()
    assert rows[0] == "iteration,result,c+,rollout_depth+,c-,rollout_depth-,c,rollout_depth"
    assert len(rows) == 4
    assert float(rows[-1].split(",")[-2]) == done["theta"]["c"]
    assert json.loads((out / "run.json").read_text())["seed"] == 2


def test_the_theta_history_follows_the_recorded_results(tmp_path):
    """The results in theta.json are the records' own, and each theta is
    the SPSA update of the one before by that result."""
    out = tmp_path / "run"
    assert_ok(cli("tune", *TINY, "--out", out))
    done = history(out)
    settings = done["settings"]
    from coexist_ai.tune.settings import parse_dimension
    base = as_played(parse_spec(settings["spec"])[1], settings["players"])
    dims = [parse_dimension(f"{p['name']}={p['low']}:{p['high']}:{p['step']}", "ismcts", base)
            for p in settings["params"]]
    spsa = Spsa(dims, settings["iterations"], settings["seed"], settings["rate"])
    records = read_records(str(out / "games.jsonl"))
    theta = spsa.start()
    for step in done["history"]:
        games = [r for r in records if r["round"] == step["iteration"]]
        plus_first = sum(1 for r in games for role, rank in zip(r["entrants"], r["ranks"])
                         if role == "theta+" and rank == 1 and r["ranks"].count(1) == 1)
        minus_first = sum(1 for r in games for role, rank in zip(r["entrants"], r["ranks"])
                          if role == "theta-" and rank == 1 and r["ranks"].count(1) == 1)
        assert step["result"] == pytest.approx((plus_first - minus_first) / len(games))
        theta = spsa.update(theta, step["iteration"], step["result"])
        assert [step["theta"][d.name] for d in dims] == pytest.approx(theta)


def test_against_an_opponent_at_three_players(tmp_path):
    out = tmp_path / "three"
    proc = cli("tune", "greedy:max_nodes=500", "--param", "max_nodes=50:2000", "--players", 3,
               "--against", "random", "--iterations", 2, "--seed", 4, "--jobs", 1,
               "--quiet", "--out", out)
    assert_ok(proc)
    records = read_records(str(out / "games.jsonl"))
    assert len(records) == 12        # per iteration: theta+ and theta- at each of 3 seats
    for r in records:
        assert sorted(r["entrants"]) in (["opponent", "opponent", "theta+"],
                                         ["opponent", "opponent", "theta-"])
        assert r["entrants"][r["rotation"]] in ("theta+", "theta-")
        opponents = [b["spec"] for role, b in zip(r["entrants"], r["bots"]) if role == "opponent"]
        assert set(opponents) == {"random:seed=0"}
    assert "against random:seed=0" in proc.stdout


def test_the_same_command_gives_the_same_run(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    assert_ok(cli("tune", *TINY, "--out", one))
    assert_ok(cli("tune", *TINY[:-3], "--jobs", 2, "--quiet", "--out", two))
    assert history(one) == history(two)
    assert without_times(read_records(str(one / "games.jsonl"))) == \
        without_times(read_records(str(two / "games.jsonl")))


RESUMED = [BOT, "--param", "c=0.1:2", "--param", "margin_weight=0:0.5", "--iterations", 8,
           "--seed", 6, "--jobs", 2, "--quiet"]


def test_a_run_killed_mid_run_resumes_to_the_same_theta(tmp_path):
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    assert_ok(cli("tune", *RESUMED, "--out", whole))
    with killed_at_exit("tune", *RESUMED, "--out", cut) as proc:
        wait_for_records(proc, cut / "games.jsonl", 5)
        proc.kill()
    played = len(read_records(str(cut / "games.jsonl")))
    assert 5 <= played < 16
    with open(cut / "games.jsonl", "a") as f:      # a game cut off mid-write
        f.write('{"format":"coexist-game","version":1,"run":"')
    again = cli("tune", *RESUMED, "--out", cut)
    assert_ok(again)
    assert "removed a cut-off last line" in again.stdout
    assert f"{played} games already played, {16 - played} to go" in again.stdout
    assert history(cut) == history(whole)
    assert without_times(read_records(str(cut / "games.jsonl"))) == \
        without_times(read_records(str(whole / "games.jsonl")))
    assert again.stdout.splitlines()[-1] == f"tuned: {history(whole)['spec']}"


# long enough that Ctrl-C lands mid-run: with RESUMED's 8 iterations a
# loaded machine finished all 16 games between the third record and SIGINT
INTERRUPTED = [a if a != 8 else 40 for a in RESUMED]


def test_ctrl_c_keeps_the_history_so_far_and_says_how_to_resume(tmp_path):
    out = tmp_path / "run"
    with killed_at_exit("tune", *INTERRUPTED, "--out", out) as proc:
        wait_for_records(proc, out / "games.jsonl", 3)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 130
        stderr = proc.stderr.read().decode()
    assert "resume with" in stderr and "Traceback" not in stderr
    so_far = history(out)
    assert not so_far["finished"] and so_far["iterations_done"] < 40
    assert_ok(cli("tune", *INTERRUPTED, "--out", out))
    assert history(out)["finished"]


def test_a_resume_with_other_arguments_is_refused(tmp_path):
    out = tmp_path / "run"
    assert_ok(cli("tune", *TINY, "--out", out))
    before = (out / "games.jsonl").read_bytes()
    changed = list(TINY)
    changed[changed.index("--iterations") + 1] = 4
    assert_clear_error(cli("tune", *changed, "--out", out), "--iterations is 3",
                       "this command's 4", "another --out")
    changed = list(TINY)
    changed[changed.index("c=0.1:2")] = "c=0.2:2"
    assert_clear_error(cli("tune", *changed, "--out", out), "--param")
    assert_clear_error(cli("tune", *TINY[:-5], "--seed", 3, "--jobs", 1, "--out", out),
                       "--seed is 2")
    assert (out / "games.jsonl").read_bytes() == before
    # without --seed the run's own seed is taken: a resume, nothing to play
    assert_ok(cli("tune", *TINY[:-5], "--jobs", 1, "--quiet", "--out", out))
    assert (out / "games.jsonl").read_bytes() == before


def as_an_older_version_wrote_it(out, edit):
    """Rewrite a run's specs by `edit` (what an older version would have
    spelled out) and its run ids as that version would have hashed them."""
    identity = json.loads((out / "run.json").read_text())
    identity["spec"] = edit(identity["spec"])
    (out / "run.json").write_text(json.dumps(identity, indent=1) + "\n")
    run = hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]
    records = read_records(str(out / "games.jsonl"))
    for record in records:
        record["run"] = run
        for bot in record["bots"]:
            bot["spec"] = edit(bot["spec"])
    (out / "games.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))


def test_a_run_of_a_version_without_a_parameter_added_since_resumes(tmp_path):
    """A parameter added with a default that plays as before (here `reuse`
    as if it were new) leaves a run resumable; a default that changed since
    (the spelled-out discount differs) does not."""
    out = tmp_path / "run"
    assert_ok(cli("tune", *TINY, "--out", out))
    assert ",reuse=true," in history(out)["spec"]
    as_an_older_version_wrote_it(out, lambda spec: spec.replace(",reuse=true,", ","))
    before = (out / "games.jsonl").read_bytes()
    assert_ok(cli("tune", *TINY, "--out", out))
    assert (out / "games.jsonl").read_bytes() == before
    assert history(out)["finished"] and history(out)["games"] == 6
    as_an_older_version_wrote_it(out, lambda spec: spec.replace("discount=0.9", "discount=0.8"))
    assert_clear_error(cli("tune", *TINY, "--out", out), "SPEC is", "discount=0.8",
                       "another --out")


def test_records_of_another_game_are_refused(tmp_path):
    out = tmp_path / "run"
    assert_ok(cli("tune", *TINY, "--out", out))
    lines = (out / "games.jsonl").read_text().splitlines(keepends=True)
    record = json.loads(lines[2])
    record["bots"][0]["spec"] = BOT
    lines[2] = json.dumps(record) + "\n"
    (out / "games.jsonl").write_text("".join(lines))
    assert_clear_error(cli("tune", *TINY, "--out", out), "games.jsonl:3: game 2",
                       "is not the game this run plays there", "bots")


@pytest.mark.parametrize("args, needles", [
    (["--param", "c"], ["'c'", "NAME=LO:HI"]),
    (["--param", "c=0.1"], ["NAME=LO:HI"]),
    (["--param", "cee=0.1:2"], ["'cee' is not a parameter", "c, margin_weight"]),
    (["--param", "reward=0:1"], ["'reward' is not numeric"]),
    (["--param", "seed=0:9"], ["'seed' is a seed", "rollout_depth"]),
    (["--param", "c=2:0.1"], ["LO must be below HI"]),
    (["--param", "c=-1:2"], ["outside the range of c, 0..100"]),
    (["--param", "c=0.1:x"], ["'x' is not a number"]),
    (["--param", "rollout_depth=2.5:12"], ["'2.5' is not a whole number"]),
    (["--param", "c=0.1:2:5"], ["STEP", "at most half the range"]),
    (["--param", "c=1:2"], ["c starts at 0.7", "outside 1..2"]),
    (["--param", "c=0.1:2", "--param", "c=0.2:1"], ["c given twice"]),
    ([], ["nothing to tune"]),
])
def test_bad_parameters_are_one_error_line(tmp_path, args, needles):
    proc = cli("tune", BOT, *args, "--iterations", 2, "--out", tmp_path / "x")
    assert_clear_error(proc, *needles)
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("spec, args, needles", [
    ("cmd:python bot.py", ["--param", "c=0:1"], ["external bot", "built-in"]),
    ("nobot", ["--param", "c=0:1"], ["unknown bot 'nobot'"]),
    (BOT, ["--param", "c=0.1:2", "--against", "nobot"], ["unknown bot 'nobot'"]),
    (BOT, ["--param", "iterations=0:100"], ["needs a budget", "iterations"]),
    (BOT, ["--param", "c=0.1:2", "--rate", "0"], ["--rate"]),
])
def test_bad_bots_and_options_are_one_error_line(tmp_path, spec, args, needles):
    assert_clear_error(cli("tune", spec, *args, "--iterations", 2), *needles)


def test_an_out_that_is_a_file_or_not_a_run_is_refused(tmp_path):
    a_file = tmp_path / "file.jsonl"
    a_file.write_text("")
    assert_clear_error(cli("tune", *TINY, "--out", a_file), "is a file", "folder")
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "games.jsonl").write_text('{"format":"coexist-game"}\n')
    assert_clear_error(cli("tune", *TINY, "--out", foreign), "has no run.json")
    assert (foreign / "games.jsonl").read_text() == '{"format":"coexist-game"}\n'


def test_a_run_whose_first_games_are_all_forfeits_stops(tmp_path):
    crashing = "cmd:" + shlex.join([sys.executable, str(ROOT / "tests" / "protocol_broken_bot.py"),
                                    "crash_start"])
    out = tmp_path / "run"
    proc = cli("tune", "greedy:max_nodes=200", "--param", "max_nodes=50:400", "--against",
               crashing, "--iterations", 3, "--seed", 1, "--jobs", 1, "--quiet", "--out", out)
    assert_clear_error(proc, "every game of the first iteration ended in a forfeit",
                       "cannot load my weights")
    assert len(read_records(str(out / "games.jsonl"))) == 4
    assert history(out)["iterations_done"] == 0


def test_a_recorded_spec_without_a_parameter_means_its_former_value():
    """A run's spelled-out spec that lacks `prior` was written before the
    prior existed (it played prior=0): it is not today's default bot (prior
    3), so a resume with today's default is refused; spelled out as it
    played, it resumes."""
    from coexist_ai.bots.spec import canonical_spec, parse_spec
    from coexist_ai.tune.settings import same_bot
    recorded = canonical_spec(*parse_spec("ismcts:iterations=100,eval=hand")).replace(
        "prior=3.0,", "")
    assert "prior" not in recorded
    assert not same_bot(recorded, canonical_spec(*parse_spec("ismcts:iterations=100,eval=hand")))
    assert same_bot(recorded, canonical_spec(*parse_spec("ismcts:iterations=100,eval=hand,prior=0")))


def test_model_files_are_matched_by_bot_not_by_the_spelling_of_its_spec():
    """A learned bot's model file is recorded by its spelled-out spec; a
    parameter added since (`widen`) spells it longer, and the run must
    still resume. Another model file, or another bot, does not."""
    from coexist_ai.bots.spec import canonical_spec, parse_spec
    from coexist_ai.tune.settings import same_models
    ours = canonical_spec(*parse_spec("ismcts:time=0.05"))
    recorded = ours.replace("widen=0.0,", "")
    assert recorded != ours
    assert same_models({recorded: "ab"}, {ours: "ab"})
    assert not same_models({recorded: "ab"}, {ours: "cd"})
    other = canonical_spec(*parse_spec("ismcts:time=0.05,c=0.3"))
    assert not same_models({recorded: "ab"}, {other: "ab"})
    assert not same_models({recorded: "ab"}, {ours: "ab", other: "ab"})


def test_a_model_retrained_in_place_between_runs_makes_another_run(tmp_path):
    """The model file a tuned bot reads is part of the run: retrained at
    the same path, resuming would tune two bots as one. Its own bytes
    written again (a copy, a new modification time) resume."""
    from coexist_ai.learn.model import load_model, save_model, shipped_path
    model, out = tmp_path / "model.npz", tmp_path / "run"
    shutil.copyfile(shipped_path(), model)
    tune = ["tune", f"ismcts:iterations=20,model={model}", *TINY[1:], "--out", out]
    assert_ok(cli(*tune))
    before = (out / "games.jsonl").read_bytes()
    shutil.copyfile(shipped_path(), model)
    assert_ok(cli(*tune))
    retrained = load_model(model)
    retrained.b2 = retrained.b2 + 0.5
    save_model(retrained, model)
    assert_clear_error(cli(*tune), "model files", "another --out")
    assert (out / "games.jsonl").read_bytes() == before


def test_the_progress_line_never_cuts_a_parameter_mid_name():
    """On a narrow terminal the line keeps whole parameters and counts the
    rest; wide enough, it shows them all."""
    from types import SimpleNamespace

    from coexist_ai.tune.run import _line
    from coexist_ai.tune.spsa import Dimension
    dims = [Dimension("c", False, 0.1, 2, 0.1, 0.7),
            Dimension("rollout_depth", True, 2, 12, 1, 6)]
    settings = SimpleNamespace(dimensions=dims, iterations=40)
    outcome = SimpleNamespace(history=[None] * 3, settings=settings, theta=[0.72, 6.4])
    assert _line(outcome, 200) == "iteration 3/40: c 0.72, rollout_depth 6.4"
    assert _line(outcome, 32) == "iteration 3/40: c 0.72 (+1 more)"
    assert _line(outcome, 31) == "iteration 3/40: (+2 more)"
    assert _line(outcome, 20) == "iteration 3/40: (+2"
    assert all(len(_line(outcome, w)) <= w for w in range(1, 60))
