"""`coexist-ai duel`, `tournament run`, `tournament ratings`, run as real
processes: what they print, what they write, and how they refuse bad input
(exit code 2, one error line, no traceback).
"""
import re
import shlex
import shutil
import sys

import numpy as np
import pytest

from coexist_ai.learn.model import load_model, save_model, shipped_path
from coexist_ai.records import read_records
from cli_process import (ROOT, assert_clear_error, assert_ok, cli, killed_at_exit,
                         wait_for_records)


ROW = re.compile(r"^(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+[\d.]+%(?:\s+[\d.]+%)?"
                 r"\s+([+-]?\d+)\s+(.*?)\s{2,}")


def table_rows(stdout):
    """{bot: (elo, games)} from the results table."""
    return {name: (elo, games) for name, (elo, games, _, _) in table_details(stdout).items()}


def table_details(stdout):
    """{bot: (elo, games, (wins, draws, losses), interval text)}."""
    lines = stdout.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("bot "))
    rows = {}
    for line in lines[start + 1:]:
        found = ROW.match(line)
        if not found:
            break
        name, games, w, d, l, elo, interval = found.groups()
        rows[name] = (int(elo), int(games), (int(w), int(d), int(l)), interval)
    return rows


def test_duel_plays_records_and_tabulates(tmp_path):
    out = tmp_path / "duel.jsonl"
    proc = cli("duel", "random", "greedy", "--games", 4, "--jobs", 1, "--quiet", "--out", out)
    assert_ok(proc)
    drawn = int(proc.stdout.split()[1])   # no --seed: a fresh seed, printed
    assert proc.stdout.startswith(f"seed {drawn} (drawn at random; pass --seed {drawn}")
    assert f"duel: random vs greedy, 4 games at 2 players, seed {drawn}\n" in proc.stdout
    assert "4 games (2 players) over 2 deals; Elo anchored at greedy = 0" in proc.stdout
    rows = table_rows(proc.stdout)
    assert set(rows) == {"random", "greedy"}
    assert rows["greedy"] == (0, 4) and rows["random"][1] == 4
    assert "likelihood of superiority" in proc.stdout and "seat advantage" in proc.stdout
    records = read_records(str(out))
    assert sorted(r["game"] for r in records) == [0, 1, 2, 3]
    assert {tuple(r["entrants"]) for r in records} == {("random", "greedy"), ("greedy", "random")}


def test_a_duel_without_seed_resumes_with_the_seed_of_its_records(tmp_path):
    out = tmp_path / "duel.jsonl"
    first = cli("duel", "random", "greedy", "--games", 2, "--jobs", 1, "--quiet", "--out", out)
    assert_ok(first)
    drawn = int(first.stdout.split()[1])
    again = cli("duel", "random", "greedy", "--games", 4, "--jobs", 1, "--quiet", "--out", out)
    assert_ok(again)
    assert "drawn at random" not in again.stdout
    assert f"seed {drawn}" in again.stdout and "2 games already played, 2 to go" in again.stdout
    records = read_records(str(out))
    assert sorted(r["game"] for r in records) == [0, 1, 2, 3]
    assert {r["seed"] for r in records} == {drawn}
    other = cli("duel", "random", "greedy", "--games", 2, "--jobs", 1, "--quiet", "--out",
                tmp_path / "other.jsonl")
    assert int(other.stdout.split()[1]) != drawn   # each fresh run draws its own


def test_duel_of_one_spec_against_itself_names_them_apart(tmp_path):
    proc = cli("duel", "random", "random", "--games", 2, "--jobs", 1, "--quiet")
    assert_ok(proc)
    assert set(table_rows(proc.stdout)) == {"random#1", "random#2"}


CONFIG = """name = "gauntlet of three"
mode = "gauntlet"
players = 2
rounds = 1
seed = 4
anchor = "rnd"

[[bot]]
name = "heuristic"
spec = "greedy"

[[bot]]
name = "rnd"
spec = "random"

[[bot]]
spec = "greedy:max_nodes=50"
"""


def test_tournament_run_from_a_config_file(tmp_path):
    config, out = tmp_path / "t.toml", tmp_path / "t.jsonl"
    config.write_text(CONFIG)
    proc = cli("tournament", "run", config, "--jobs", 1, "--quiet", "--out", out)
    assert_ok(proc)
    assert "tournament 'gauntlet of three': 3 bots, gauntlet, 2 players, 4 games" in proc.stdout
    assert "Elo anchored at rnd = 0" in proc.stdout
    rows = table_rows(proc.stdout)
    assert rows["rnd"][0] == 0
    assert {name: games for name, (_, games) in rows.items()} == \
        {"heuristic": 4, "rnd": 2, "greedy:max_nodes=50": 2}
    records = read_records(str(out))
    assert len(records) == 4 and all("heuristic" in r["entrants"] for r in records)
    assert all(r["tournament"] == "gauntlet of three" for r in records)


def test_a_chain_from_the_command_line_plays_neighbours_only(tmp_path):
    out = tmp_path / "chain.jsonl"
    proc = cli("tournament", "run", "--bots", "random,greedy:max_nodes=20,greedy,random",
               "--mode", "chain", "--rounds", 1, "--seed", 2, "--jobs", 1, "--quiet",
               "--out", out)
    assert_ok(proc)
    assert "4 bots, chain, 2 players, 10 games" in proc.stdout
    met = {tuple(r["entrants"]) for r in read_records(str(out))}
    assert {tuple(sorted(m)) for m in met} == \
        {tuple(sorted(p)) for p in [("random#1", "greedy:max_nodes=20"), ("random#1", "greedy"),
                                    ("greedy:max_nodes=20", "greedy"),
                                    ("greedy:max_nodes=20", "random#2"), ("greedy", "random#2")]}


def test_tournament_run_with_bots_and_ratings_of_two_files(tmp_path):
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    proc = cli("tournament", "run", "--bots", "random,greedy,greedy:max_nodes=50",
               "--rounds", 1, "--jobs", 1, "--quiet", "--out", one)
    assert_ok(proc)
    assert "3 bots, round-robin, 2 players, 6 games" in proc.stdout
    assert_ok(cli("duel", "random", "greedy", "--games", 4, "--seed", 9, "--jobs", 1,
                  "--quiet", "--out", two))
    merged = cli("tournament", "ratings", one, two)
    assert_ok(merged)
    assert merged.stdout.startswith("10 games (2 players) over 3 deals; Elo anchored at random = 0")
    rows = table_rows(merged.stdout)
    assert {name: games for name, (_, games) in rows.items()} == \
        {"random": 8, "greedy": 8, "greedy:max_nodes=50": 4}
    assert rows["random"][0] == 0


def test_sprt_stops_a_clear_duel_early(tmp_path):
    out = tmp_path / "sprt.jsonl"
    proc = cli("duel", "greedy", "random", "--games", 200, "--sprt", "0,100,0.05,0.05",
               "--jobs", 2, "--out", out)
    assert_ok(proc)
    assert "duel: greedy vs random, 200 games" in proc.stdout
    records = read_records(str(out))
    played = len(records)
    assert played < 200
    assert f"{played} games (2 players)" in proc.stdout
    summary = next(line for line in proc.stdout.splitlines() if line.startswith("SPRT"))
    found = re.search(r"LLR ([+-][\d.]+), bounds \(-2.94, \+2.94\), (\d+) games in "
                      r"(\d+) complete deals: H1 accepted", summary)
    assert found, summary
    llr, games, deals = float(found[1]), int(found[2]), int(found[3])
    assert llr >= 2.94 and games == 2 * deals
    # the deals it decided on are whole: both seat orders of each were played
    per_round = {}
    for r in records:
        per_round.setdefault(r["round"], set()).add(r["rotation"])
    assert sum(1 for rotations in per_round.values() if rotations == {0, 1}) >= deals
    # the live line (plain lines: stderr is not a terminal) shows the LLR and bounds
    live = [line for line in proc.stderr.splitlines() if "LLR" in line]
    assert live and all(len(line) <= 80 for line in live)
    assert "(-2.94,+2.94)" in live[-1] and live[-1].startswith(f"{played}/200 gree")


# -- refusals -------------------------------------------------------------------

def test_unknown_bot(tmp_path):
    out = tmp_path / "x.jsonl"
    proc = cli("duel", "alphazero", "greedy", "--games", 2, "--out", out)
    assert_clear_error(proc, "unknown bot 'alphazero'", "random, greedy, ismcts")
    assert not out.exists()
    assert_clear_error(cli("duel", "ismcts:depth=3", "greedy"), "no parameter 'depth'")
    assert_clear_error(cli("tournament", "run", "--bots", "random,nosuch"), "unknown bot 'nosuch'")


@pytest.mark.parametrize("text, words", [
    ('rounds = 1\nbots = ["random", "greedy"]\n', "unknown keys ['bots']"),
    ('rounds = 1\n', "needs at least two [[bot]] tables"),
    ('rounds = 1\n[[bot]]\nspec = "random"\n', "needs at least two [[bot]] tables"),
    ('rounds = 1\n[[bot]]\nname = "a"\n[[bot]]\nspec = "random"\n', "each with a 'spec'"),
    ('rounds = \n', "not valid TOML"),
    ('mode = "swiss"\n[[bot]]\nspec = "random"\n[[bot]]\nspec = "greedy"\n', "mode 'swiss'"),
    ('players = "x"\n[[bot]]\nspec = "random"\n[[bot]]\nspec = "greedy"\n', "players = 'x'"),
    ('players = 7\n[[bot]]\nspec = "random"\n[[bot]]\nspec = "greedy"\n', "players = 7"),
    ('rounds = 0\n[[bot]]\nspec = "random"\n[[bot]]\nspec = "greedy"\n', "rounds = 0"),
    ('rounds = 1\n[[bot]]\nspec = "random"\n[[bot]]\nspec = "nosuch"\n', "unknown bot 'nosuch'"),
])
def test_bad_config(tmp_path, text, words):
    config, out = tmp_path / "bad.toml", tmp_path / "bad.jsonl"
    config.write_text(text)
    assert_clear_error(cli("tournament", "run", config, "--out", out), words)
    assert not out.exists()


def test_a_tournament_of_one_bot_is_refused():
    assert_clear_error(cli("tournament", "run", "--bots", "random", "--rounds", 1),
                       "--bots", "at least two")


def test_regression_config_file_ignores_options(tmp_path):
    """Regression (cli_tournament.tournament_run): with a CONFIG file, --players,
    --mode, --rounds and --seed are silently ignored (the file's values or
    its defaults are used). Either refusing them or honouring them would do."""
    config = tmp_path / "t.toml"
    config.write_text('rounds = 1\n[[bot]]\nspec = "random"\n[[bot]]\nspec = "greedy"\n')
    proc = cli("tournament", "run", config, "--players", 4, "--jobs", 1, "--quiet")
    if proc.returncode == 2:
        assert_clear_error(proc, "--players")
    else:
        assert_ok(proc)
        assert "4 players" in proc.stdout


def test_missing_config_and_config_with_bots():
    assert_clear_error(cli("tournament", "run", "/nonexistent/t.toml"), "no file")
    assert_clear_error(cli("tournament", "run", ROOT / "pyproject.toml", "--bots", "random,greedy"),
                       "either a CONFIG file or --bots")


def test_bad_sprt_and_bad_games():
    assert_clear_error(cli("duel", "random", "greedy", "--sprt", "0,10"), "elo0,elo1,alpha,beta")
    assert_clear_error(cli("duel", "random", "greedy", "--sprt", "0,10,1.5,0.05"), "alpha and beta")
    assert_clear_error(cli("duel", "random", "greedy", "--sprt", "10,0,0.05,0.05"), "elo0 < elo1")
    assert_clear_error(cli("duel", "random", "greedy", "--games", 0), "--games")


def test_ratings_of_two_card_sets_are_refused(tmp_path):
    text = (ROOT / "coexist_ai" / "data" / "reconstructed-v1.toml").read_text()
    variant = tmp_path / "variant.toml"
    variant.write_text(text.replace('name = "reconstructed-v1"', 'name = "variant-v1"', 1))
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert_ok(cli("duel", "random", "greedy", "--games", 2, "--jobs", 1, "--quiet", "--out", one))
    assert_ok(cli("duel", "random", "greedy", "--games", 2, "--jobs", 1, "--quiet", "--out", two,
                  "--cards", variant))
    assert_clear_error(cli("tournament", "ratings", one, two), str(two), "card set")
    assert_clear_error(cli("tournament", "ratings", one, tmp_path / "none.jsonl"), "no file")


def test_a_duel_of_300_million_games_starts_at_once_in_little_memory(tmp_path):
    """The schedule is made lazily: asking for 3e8 games must not build
    them first (that took 5.4 GB before the first game)."""
    out = tmp_path / "huge.jsonl"
    with killed_at_exit("duel", "random", "random", "--games", 300_000_000, "--seed", 1,
                        "--jobs", 1, "--quiet", "--out", out, max_memory=2 << 30) as proc:
        wait_for_records(proc, out, 2)
    assert [r["game"] for r in read_records(str(out))][:2] == [0, 1]


def test_a_preset_edited_between_runs_makes_another_run(tmp_path):
    """A run resumed after its preset was edited would rate two bots as one:
    the edit makes it another run (refused on the same file), while an edit
    of the description or a comment changes no bot and the run resumes."""
    preset, out = tmp_path / "mine.toml", tmp_path / "d.jsonl"
    preset.write_text('description = "mine"\nbot = "greedy"\nmax_nodes = 50\n')
    duel = ("duel", preset, "random", "--seed", 3, "--jobs", 1, "--quiet", "--out", out)
    assert_ok(cli(*duel, "--games", 2))
    preset.write_text('# a comment\ndescription = "mine, renamed"\nbot = "greedy"\n'
                      'max_nodes = 50\n')
    again = cli(*duel, "--games", 4)
    assert_ok(again)
    assert "2 games already played, 2 to go" in again.stdout
    preset.write_text('description = "mine"\nbot = "greedy"\nmax_nodes = 60\n')
    assert_clear_error(cli(*duel, "--games", 6), "belongs to another tournament",
                       "use another --out file")
    assert len(read_records(str(out))) == 4


def test_a_model_retrained_in_place_between_runs_makes_another_run(tmp_path):
    """A model file retrained at the same path is another bot: resuming on
    its first run's records would rate two models as one. The same bytes
    written again (a copy, a new modification time) resume."""
    model, out = tmp_path / "model.npz", tmp_path / "d.jsonl"
    shutil.copyfile(shipped_path(), model)
    duel = ("duel", f"ismcts:iterations=20,eval=learned,model={model}", "random",
            "--seed", 3, "--jobs", 1, "--quiet", "--out", out)
    assert_ok(cli(*duel, "--games", 2))
    shutil.copyfile(shipped_path(), model)
    again = cli(*duel, "--games", 4)
    assert_ok(again)
    assert "2 games already played, 2 to go" in again.stdout
    retrained = load_model(model)
    retrained.b2 = retrained.b2 + np.float32(0.5)
    save_model(retrained, model)
    assert_clear_error(cli(*duel, "--games", 6), "belongs to another tournament",
                       "use another --out file")
    assert len(read_records(str(out))) == 4


def test_a_duel_with_an_external_bot_that_names_itself_resumes(tmp_path):
    """Records keep the name an external bot gives itself over the protocol;
    the schedule cannot know it, so resuming compared it and refused every
    such run ("is not the game this tournament's schedule has")."""
    bot = f"cmd:{shlex.join([sys.executable, str(ROOT / 'bots' / 'examples' / 'first_legal.py')])}"
    out = tmp_path / "d.jsonl"
    duel = ("duel", bot, "random", "--seed", 4, "--jobs", 1, "--quiet", "--out", out)
    assert_ok(cli(*duel, "--games", 2))
    assert any(b.get("name") == "first-legal" for b in read_records(str(out))[0]["bots"])
    again = cli(*duel, "--games", 4)
    assert_ok(again)
    assert "2 games already played, 2 to go" in again.stdout
    assert sorted(r["game"] for r in read_records(str(out))) == [0, 1, 2, 3]
