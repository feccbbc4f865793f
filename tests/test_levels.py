"""Difficulty levels (coexist_ai/bots/levels.py): presets shipped in the
package, found from any directory, whose Elo is what the published
calibration tournament gives."""
import math

import pytest
from cli_process import ROOT, assert_clear_error, assert_ok, cli_argv, cli_env

from coexist_ai.bots import BotSpecError, make_bot, parse_spec
from coexist_ai.bots.levels import level, level_of_spec, levels
from coexist_ai.bots.spec import PRESETS, shipped_presets

NAMES = ["beginner", "casual", "intermediate", "strong", "expert"]
RECORDS = ROOT / "tournaments" / "results" / "levels.jsonl"


def test_the_levels_are_shipped_presets_weakest_first():
    found = levels()
    assert [lv.name for lv in found] == NAMES
    assert set(NAMES) <= set(shipped_presets())
    for lv in found:
        assert lv.spec == f"preset:{lv.name}" and lv.description
        assert parse_spec(lv.spec)[0] == "ismcts"
        assert level(lv.name) == lv and level_of_spec(lv.spec) == lv
    assert [lv.elo for lv in found] == sorted(lv.elo for lv in found)
    with pytest.raises(BotSpecError, match="expected one of beginner, casual"):
        level("grandmaster")
    assert level_of_spec("ismcts") is None and level_of_spec("preset:quick") is None


def test_the_levels_elo_is_what_the_published_tournament_gives():
    """coexist_ai/data/levels.toml carries the figures of
    `coexist-ai tournament ratings tournaments/results/levels.jsonl`;
    replaying the records' games is tests/test_published.py's part."""
    from coexist_ai.cli_results import load_standings, rating_table
    from coexist_ai.tables import interval_text, signed
    anchor = levels()[0].anchor
    table = rating_table(load_standings([str(RECORDS)])[0], anchor)
    assert anchor in ("random", "greedy") and table.row(anchor).elo == 0
    for lv in levels():
        row = table.row(lv.name)
        assert signed(row.elo) == signed(lv.elo), lv.name
        assert interval_text(row) == lv.interval_text(), lv.name
        assert lv.anchor == anchor


def test_the_steps_between_levels_are_roughly_even():
    found = levels()
    steps = [b.elo - a.elo for a, b in zip(found, found[1:])]
    assert all(140 <= s <= 260 for s in steps), steps    # about 200 apart
    assert all(math.isfinite(lv.elo) for lv in found)


def test_a_preset_by_name_works_from_any_directory(tmp_path):
    import subprocess
    proc = subprocess.run(cli_argv("duel", "preset:beginner", "random", "--games", "2",
                                   "--seed", "1", "--jobs", "1", "--quiet"),
                          cwd=tmp_path, env=cli_env(), capture_output=True, text=True,
                          timeout=120)
    assert_ok(proc)
    assert "beginner" in proc.stdout or "turn_iterations=30" in proc.stdout
    missing = subprocess.run(cli_argv("duel", "preset:nosuch", "random"), cwd=tmp_path,
                             env=cli_env(), capture_output=True, text=True, timeout=120)
    assert_clear_error(missing, "no preset 'nosuch'", "beginner")
    assert (PRESETS / "beginner.toml").is_file()


def test_levels_command_and_play_by_level(tmp_path):
    import subprocess
    listing = subprocess.run(cli_argv("levels"), cwd=tmp_path, env=cli_env(),
                             capture_output=True, text=True, timeout=60)
    assert_ok(listing)
    for lv in levels():
        assert lv.name in listing.stdout and lv.elo_text() in listing.stdout
    save = tmp_path / "game.jsonl"
    game = subprocess.run(cli_argv("play", "--level", "casual", "--seed", "3", "--save", save),
                          cwd=tmp_path, env=cli_env(), capture_output=True, text=True,
                          input="quit\n", timeout=60)
    assert_ok(game)
    assert f"Level casual: Elo {level('casual').elo_text()}" in game.stdout
    assert "preset:casual" in save.read_text()
    bad = subprocess.run(cli_argv("play", "--level", "hard"), cwd=tmp_path, env=cli_env(),
                         capture_output=True, text=True, input="quit\n", timeout=60)
    assert_clear_error(bad, "--level", "no level 'hard'")
    both = subprocess.run(cli_argv("play", "--level", "casual", "--vs", "greedy"),
                          cwd=tmp_path, env=cli_env(), capture_output=True, text=True,
                          input="quit\n", timeout=60)
    assert_clear_error(both, "--level and --vs")


def test_every_shipped_preset_makes_a_bot():
    for name in shipped_presets():
        make_bot(f"preset:{name}").close()
