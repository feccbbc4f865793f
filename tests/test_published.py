"""The published results in tournaments/results/ are what the code of this
commit plays: each shipped config's records are complete and belong to that
config's tournament, and games replayed with the current bots give the same
moves. A change to a bot or to the rules that would leave the published
tables stale fails here until they are played again."""
import pytest

from coexist_ai.cli_tournament import load_config, tournament_from_config
from coexist_ai.records import read_records
from coexist_ai.tournament import _play_one
from cli_process import ROOT

CONFIGS = sorted((ROOT / "tournaments").glob("*.toml"))
CHEAP = {"random", "greedy", "ismcts:iterations=1000", "preset:beginner", "preset:casual",
         "preset:strong"}


def published(config):
    tournament = tournament_from_config(load_config(config), str(config))
    records = read_records(ROOT / "tournaments" / "results" / f"{config.stem}.jsonl")
    return tournament, {r["game"]: r for r in records}


def test_the_shipped_configs_are_found():
    assert {c.stem for c in CONFIGS} >= {"quick", "ladder", "four"}


@pytest.mark.parametrize("config", CONFIGS, ids=lambda p: p.stem)
def test_every_config_has_complete_published_records(config):
    tournament, records = published(config)
    assert sorted(records) == list(range(len(tournament.schedule)))
    assert {r["run"] for r in records.values()} == {tournament.run_id}


def games_to_replay(tournament, limit=2):
    """Games whose bots are all quick to run, with a search among them (the
    levels' presets are searches); the first game if there is none (a table
    of every bot)."""
    games = list(tournament.schedule.games())
    specs = {g.index: [tournament.entrants[i].spec for i in g.lineup] for g in games}
    cheap = [g for g in games if set(specs[g.index]) <= CHEAP
             and any(s.startswith(("ismcts", "preset:")) for s in specs[g.index])]
    return [(g, specs[g.index]) for g in (cheap[:limit] or games[:1])]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda p: p.stem)
def test_published_games_replay_with_the_current_bots(config):
    tournament, records = published(config)
    for game, specs in games_to_replay(tournament):
        record = _play_one(tournament.cards_spec, tournament.players, game, specs,
                           tournament.meta(game))
        assert record["moves"] == records[game.index]["moves"], (config.stem, game.index)
        assert record["scores"] == records[game.index]["scores"]
