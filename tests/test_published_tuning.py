"""The published tuning run (tournaments/tuning/) is what this commit's
tuner and bots make of it: its records are complete, its history is the
SPSA replay of its records, and its games replay move for move with the
current bots (a change to the search that would leave it stale fails
here until the run is played again: the command is in the README)."""
import json
import shutil

import pytest

from coexist_ai.bots.spec import canonical_spec, parse_spec
from coexist_ai.cards import resolve_card_set
from coexist_ai.records import read_records
from coexist_ai.tournament import _play_one
from coexist_ai.tune import Settings, tune
from cli_process import ROOT

RUN = ROOT / "tournaments" / "tuning" / "ismcts-c-margin"
# a run at a time budget: its games cannot replay move for move, its history can
TIMED_RUN = ROOT / "tournaments" / "tuning" / "ismcts-2p-0.05s"


def settings_of(identity):
    """The settings of the command that resumes the run: its spec as the
    run meant it, with the parameters added or changed since it was
    recorded at what they were then (the run's spec does not set prior:
    it predates it; today's default would be another bot)."""
    params = [f"{p['name']}={p['low']}:{p['high']}:{p['step']}" for p in identity["params"]]
    deals = identity["deals_per_iteration"]
    spec = canonical_spec(*parse_spec(identity["spec"], former=True))
    settings = Settings(spec, params, identity["against"], identity["players"],
                        identity["iterations"], None, identity["seed"], identity["rate"],
                        identity["card_set"]["name"],
                        resolve_card_set(identity["card_set"]["name"]))
    assert settings.deals == 1 == deals
    return settings


@pytest.fixture(scope="module")
def published():
    identity = json.loads((RUN / "run.json").read_text())
    return settings_of(identity), read_records(RUN / "games.jsonl")


@pytest.mark.parametrize("run, games", [(RUN, 600), (TIMED_RUN, 400)])
def test_a_published_run_is_complete_and_its_history_its_records_replayed(run, games, tmp_path):
    settings = settings_of(json.loads((run / "run.json").read_text()))
    records = read_records(run / "games.jsonl")
    assert sorted(r["game"] for r in records) == list(range(games))
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    outcome = tune(settings, str(copy), jobs=1, progress=False, echo=lambda *a: None)
    assert outcome.finished and outcome.games == games
    assert (copy / "games.jsonl").read_bytes() == (run / "games.jsonl").read_bytes()
    assert json.loads((copy / "theta.json").read_text()) == \
        json.loads((run / "theta.json").read_text())
    assert (copy / "theta.csv").read_text() == (run / "theta.csv").read_text()


@pytest.mark.parametrize("index", [0, 599])
def test_published_tuning_games_replay_with_the_current_bots(published, index):
    settings, records = published
    record = next(r for r in records if r["game"] == index)
    game = settings.plan.game(index)
    specs = [b["spec"] for b in record["bots"]]
    meta = {k: record[k] for k in ("run", "tournament", "seed", "game", "block", "round",
                                   "rotation", "entrants")}
    replayed = _play_one(settings.cards_spec, settings.players, game, specs, meta)
    assert replayed["moves"] == record["moves"] and replayed["ranks"] == record["ranks"]
    assert [b["seed"] for b in record["bots"]] == list(game.bot_seeds)
