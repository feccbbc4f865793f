"""`coexist-ai bench`: the figures are computed from real runs of the engine
and of the bot's own search. Nothing here asserts a speed (the machine is
shared and noisy); the benchmarks are checked for what a bug would break:
every figure present, finite and positive, and quantities that do not
depend on the machine (struct size, bytes per node) in their range."""
import math
import os
import re

import pytest

from coexist_ai import _engine, _search
from coexist_ai.bench import default_searcher, run_bench, run_search_bench


def by_name(figures):
    return {f.name: f for f in figures}


def test_engine_figures_are_measured():
    figures = by_name(run_bench(games=200, calls=2000))
    assert figures["state struct size"].value == _engine.STATE_BYTES
    for name in ("random games, 2 players (C, 1 core)", "random games, 4 players (C, 1 core)",
                 "state copy (struct assignment)", "Python API: s.is_over()"):
        value = figures[name].value
        assert math.isfinite(value) and value > 0, name


def test_search_figures_come_from_the_bots_default_search():
    figures = by_name(run_search_bench(iterations=400))
    for players in (2, 4):
        for threads in (1, 2):
            f = figures[f"ISMCTS, {players} players, {threads} thread(s)"]
            assert f.value > 0 and "bytes/node" in f.note
            bytes_per_node = float(f.note.split(", ")[1].split()[0])
            assert 40 <= bytes_per_node <= 200
        assert figures[f"ISMCTS, {players} players, 2 threads / 1"].value > 0
        for settings in ("eval=hand,prior=0,policy=light", "policy=light"):
            older = figures[f"ISMCTS, {players} players, 1 thread, {settings}"]
            assert older.value > 0 and older.note.startswith("default: ")
    limits = [f for f in figures.values() if f.name.startswith("time budget")]
    assert len(limits) == 2 and all(f.value >= 0 for f in limits)


@pytest.mark.parametrize("players", [2, 4])
def test_the_benchmarked_searcher_has_the_bot_defaults(players):
    settings = default_searcher(2, 1000, 5, players=players).settings
    from coexist_ai.bots.spec import parse_spec
    _, defaults = parse_spec("ismcts")
    for key in ("c", "reward", "margin_weight", "policy", "discount", "prior", "widen"):
        assert settings[key] == defaults[key], key
    assert settings["rollout_depth"] == 4 * players   # four rounds
    assert settings["threads"] == 2 and settings["reuse"] is False


def test_bench_python_times_the_c_engine_against_the_reference():
    from cli_process import assert_ok, cli
    proc = cli("bench", "--python", "--games", "100")
    assert_ok(proc)
    rows = {line.split("  ")[0]: line for line in proc.stdout.splitlines()}
    for players in (2, 4):
        for name in ("C engine, State.playout_random", "C engine, Python loop",
                     "reference, Python loop", "reference, explicit chance"):
            line = rows[f"{name}, {players} players"]
            games_s, actions_s = (float(word.replace(",", "")) for word in
                                  (line.split()[-4], line.split()[-2].lstrip("(")))
            assert games_s > 0 and 150 < actions_s / games_s < 1500, line
        assert f"C / reference, Python loops, {players} players" in rows


def test_bench_turns_counts_a_turns_decisions_together():
    """Per-turn seconds add up the decisions of each turn: a bot with a
    budget per decision takes about as many budgets a turn as the turn
    has decisions with a choice."""
    from cli_process import assert_clear_error, assert_ok, cli
    from coexist_ai.bench import turn_seconds
    from coexist_ai.cards import default_card_set
    figures = by_name(turn_seconds(default_card_set(), "ismcts:time=0.002", games=1))
    mean = figures["ismcts:time=0.002: seconds a turn, mean"].value
    choices = figures["ismcts:time=0.002: decisions with a choice a turn"].value
    assert choices > 1.5 and mean >= 0.002 * choices
    assert figures["ismcts:time=0.002: seconds a turn, longest"].value >= mean
    proc = cli("bench", "--turns", "ismcts:turn_iterations=200", "--turn-games", "1")
    assert_ok(proc)
    assert "seconds a turn, longest" in proc.stdout
    assert_clear_error(cli("bench", "--turns", "nosuchbot"), "unknown bot")


def test_bench_openspiel_runs_the_same_search_over_the_engine_and_the_reference():
    from cli_process import assert_ok, cli
    proc = cli("bench", "--openspiel", "--simulations", "4")
    assert_ok(proc)
    rows = {line.split("  ")[0]: line for line in proc.stdout.splitlines()}
    for players in (2, 4):
        for name in ("C engine", "reference"):
            line = rows[f"OpenSpiel MCTS, {players} players, {name}"]
            rate = re.search(r" ([\d,.]+) simulations/CPU-s", line).group(1)
            assert float(rate.replace(",", "")) > 0, line
        # the same seeds make the same tree on two implementations of the
        # same rules: a different move would mean they disagree
        assert "(same move)" in rows[f"OpenSpiel MCTS, {players} players, C engine / reference"]


def test_bench_openspiel_without_openspiel_says_what_to_install(tmp_path):
    import subprocess
    from cli_process import ROOT, cli_argv, package_env
    (tmp_path / "pyspiel.py").write_text("raise ImportError('no pyspiel here')\n")
    env = package_env()
    # first on the path, so it shadows a pyspiel installed beside the package
    env["PYTHONPATH"] = str(tmp_path) + os.pathsep + env["PYTHONPATH"]
    proc = subprocess.run(cli_argv("bench", "--openspiel"), cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == [
        "error: bench --openspiel needs OpenSpiel (no pyspiel here); install it "
        "with pip install 'coexist-ai[openspiel]'"]
