"""`coexist-ai balance` and `coexist-ai cards report`, run as a user runs
them: the study's files, resuming and extending it from its records, its
refusals, and the packaged card sets found by name and by hash."""
import csv
import json
import re
import shlex

import pytest

from balance_sets import identical_faunas, write
from cli_process import (assert_clear_error, assert_ok, cli, killed_at_exit,
                         wait_for_records)
from coexist_ai.cards import (DEFAULT_NAME, PACKAGED_NAMES, default_card_set,
                              packaged_card_set)


def games_of(path):
    """The records of a file by game, without the thinking times (which
    differ from run to run)."""
    records = [json.loads(line) for line in path.read_text().splitlines()]
    return sorted((dict(r, times=None) for r in records), key=lambda r: r["game"])


def study(out, *extra, games="12,8", players="2,3"):
    return cli("balance", "reconstructed-v1", "--players", players, "--games", games,
               "--bot", "random", "--jobs", "1", "--seed", "3", "--out", out, "--quiet",
               *extra)


@pytest.fixture(scope="module")
def done(tmp_path_factory):
    out = tmp_path_factory.mktemp("study") / "v1"
    proc = study(out)
    assert_ok(proc)
    return out, proc


def test_a_study_writes_its_records_and_every_file_of_its_report(done):
    out, proc = done
    assert [len((out / f"games-{p}p.jsonl").read_text().splitlines()) for p in (2, 3)] == [12, 8]
    report = json.loads((out / "report.json").read_text())
    assert [(c["players"], c["games"]) for c in report["counts"]] == [(2, 12), (3, 8)]
    assert report["card_set"]["name"] == "reconstructed-v1" and report["bot"] == "random"
    animals = len(packaged_card_set("reconstructed-v1").animals())
    with open(out / "cards.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 2 * animals and {r["players"] for r in rows} == {"2", "3"}
    page = (out / "report.html").read_text()
    assert 'class="sortable"' in page and "<script>" in page
    assert "http" not in page.replace("http-equiv", "")      # nothing fetched from elsewhere
    images = re.findall(r'<img src="([^"]+)"', page)
    assert images and all((out / name).stat().st_size > 1000 for name in images)
    assert "specialty wins" in proc.stdout and "report: report.json" in proc.stdout


def test_rerunning_plays_nothing_and_a_larger_count_extends_the_same_games(done, tmp_path):
    out, _ = done
    before = (out / "games-2p.jsonl").read_bytes()
    again = study(out)
    assert_ok(again)
    assert "12 games already played, 0 to go" in again.stdout
    assert (out / "games-2p.jsonl").read_bytes() == before
    more = study(out, games="20,8")
    assert_ok(more)
    after = (out / "games-2p.jsonl").read_bytes()
    assert after.startswith(before) and after.count(b"\n") == 20
    fresh = tmp_path / "fresh"
    assert_ok(study(fresh, games="20,8"))
    assert games_of(fresh / "games-2p.jsonl") == games_of(out / "games-2p.jsonl")


def test_a_study_killed_mid_run_resumes_to_the_same_games(tmp_path):
    out = tmp_path / "killed"
    path = out / "games-2p.jsonl"
    args = ("balance", "reconstructed-v1", "--players", "2", "--games", "150", "--bot",
            "random", "--jobs", "1", "--seed", "4", "--quiet", "--out", out)
    with killed_at_exit(*args) as proc:
        wait_for_records(proc, path, 5)
    assert_ok(cli(*args))
    assert [r["game"] for r in games_of(path)] == list(range(150))
    whole = tmp_path / "whole"
    assert_ok(cli(*args[:-1], whole))
    assert games_of(path) == games_of(whole / "games-2p.jsonl")


@pytest.mark.parametrize("args, needle", [
    (("--players", "2,5"), "--players"),
    (("--games", "0"), "--games"),
    (("--games", "3,4"), "--games"),
    (("--bot", "nosuchbot"), "nosuchbot"),
    (("--tolerance", "-1"), "--tolerance"),
])
def test_bad_options_are_one_error_line(tmp_path, args, needle):
    proc = cli("balance", "default", "--out", tmp_path / "x", *args)
    assert_clear_error(proc, needle)
    assert not (tmp_path / "x").exists()


def test_a_card_file_that_is_not_there_names_the_cards_argument(tmp_path):
    assert_clear_error(cli("balance", tmp_path / "none.toml", "--out", tmp_path / "x"),
                       "none.toml")


def test_records_of_another_study_in_the_folder_are_refused_intact(done):
    out, _ = done
    before = (out / "games-2p.jsonl").read_bytes()
    proc = cli("balance", "reconstructed-v1", "--players", "2", "--games", "12", "--bot",
               "greedy", "--jobs", "1", "--seed", "3", "--out", out, "--quiet")
    assert_clear_error(proc, "another tournament")
    assert (out / "games-2p.jsonl").read_bytes() == before


def test_a_card_set_file_is_studied_under_its_own_name(tmp_path):
    path = write(identical_faunas(), tmp_path / "same.toml")
    out = tmp_path / "same"
    assert_ok(cli("balance", path, "--players", "4", "--games", "6", "--bot", "random",
                  "--jobs", "1", "--seed", "1", "--out", out, "--quiet"))
    report = json.loads((out / "report.json").read_text())
    assert report["card_set"] == {"name": "identical-faunas",
                                  "sha256": identical_faunas().sha256, "reconstructed": False}


def test_a_set_with_a_large_bonus_to_one_specialty_is_reported_unfair(tmp_path):
    """End to end, what a designer reads: two more Survival tokens a
    protection (savannah scores the fullest track) make the study's report
    flag savannah with an interval above the fair share, print it with a
    `*`, and give the verdict "not fair"."""
    path = write(identical_faunas(protect_survival=2, name="savannah-bonus"),
                 tmp_path / "bonus.toml")
    out = tmp_path / "bonus"
    proc = cli("balance", path, "--players", "3", "--games", "240", "--bot", "random",
               "--jobs", "1", "--seed", "5", "--out", out, "--quiet")
    assert_ok(proc)
    count = json.loads((out / "report.json").read_text())["counts"][0]
    savannah = next(r for r in count["specialties"] if r["fauna"] == "savannah")
    assert savannah["differs"] and savannah["low"] > 1 / 3
    assert "savannah" in count["verdict"]["flagged"]
    assert not count["verdict"]["within_tolerance"]
    assert re.search(r"^ +\*savannah +\d", proc.stdout, re.M)
    assert "fair within 3.0 points: no" in proc.stdout


def test_the_report_names_the_command_that_plays_the_same_games(done, tmp_path):
    out, _ = done
    command = json.loads((out / "report.json").read_text())["command"]
    words = shlex.split(command)
    assert words[:3] == ["coexist-ai", "balance", "reconstructed-v1"]
    again = tmp_path / "again"
    assert_ok(cli(*words[1:], "--jobs", "1", "--quiet", "--out", again))
    for players in (2, 3):
        name = f"games-{players}p.jsonl"
        assert games_of(again / name) == games_of(out / name)
    assert f"{command} --out DIR" in (out / "report.html").read_text()


def test_cards_report_prints_what_the_study_of_its_command_prints(tmp_path):
    """The quick version and the laboratory are one code: the study its
    command names has the very same figures. "default" is named by the
    packaged set's own name, which stays the same set when the default
    changes."""
    quick = cli("cards", "report", "--games", "12", "--players", "2", "--seed", "5")
    assert_ok(quick)
    command = re.search(r"the same games: (.*) --out DIR", quick.stdout).group(1)
    words = shlex.split(command)
    assert words[2] == DEFAULT_NAME
    full = cli(*words[1:], "--jobs", "1", "--quiet", "--out", tmp_path / "full")
    assert_ok(full)
    assert set(quick.stdout.splitlines()) <= set(full.stdout.splitlines())


def test_cards_report_is_the_quick_version_with_intervals():
    proc = cli("cards", "report", "--games", "30", "--players", "3", "--cards",
               "reconstructed-v1")
    assert_ok(proc)
    assert "3 players, 30 games" in proc.stdout
    assert re.search(r"forest +\d+\.\d \[\d+\.\d, \d+\.\d\]", proc.stdout)
    assert "seats (turn order)" in proc.stdout and "effects:" in proc.stdout


# ---- packaged card sets ---------------------------------------------------------

def test_every_packaged_set_loads_by_name_and_is_labelled_reconstructed():
    assert DEFAULT_NAME in PACKAGED_NAMES and default_card_set().name == DEFAULT_NAME
    for name in PACKAGED_NAMES:
        card_set = packaged_card_set(name)
        assert card_set.name == name and card_set.is_reconstructed


@pytest.mark.parametrize("name", PACKAGED_NAMES)
def test_a_record_replays_with_the_packaged_set_it_names(tmp_path, name):
    """Whichever set is the default, a game played with another packaged
    set replays without --cards: it is found by its sha256."""
    out = tmp_path / "duel.jsonl"
    assert_ok(cli("duel", "random", "random", "--games", "2", "--seed", "1", "--jobs", "1",
                  "--cards", name, "--out", out, "--quiet"))
    proc = cli("replay", out, "--to-end")
    assert_ok(proc)
    assert "place" in proc.stdout
    others = [n for n in PACKAGED_NAMES if n != name]
    assert_clear_error(cli("replay", out, "--to-end", "--cards", others[0]), name)


def test_cards_check_design_passes_a_packaged_set_and_names_what_a_variant_breaks(tmp_path):
    good = cli("cards", "check", "--design", "reconstructed-v2")
    assert_ok(good)
    assert "design rules: none broken" in good.stdout
    # four faunas copying forest's animals lack the effect kinds forest has not
    variant = write(identical_faunas(), tmp_path / "same.toml")
    bad = cli("cards", "check", "--design", str(variant))
    assert bad.returncode == 1, bad.stderr
    assert "Traceback" not in bad.stderr
    assert "is valid" in bad.stdout
    assert re.search(r"design: effect skip_survival is on 0 animals", bad.stdout)
    plain = cli("cards", "check", str(variant))   # without --design: schema only
    assert_ok(plain)
    assert "design:" not in plain.stdout and "design rules" not in plain.stdout
