"""The published pairing pilots (tournaments/balance/v4-screens/pairings,
played by tools/matchup_screen.py) are what they say: each folder's games
are its pairing, seated as the tool seats them, on a card file that loads
and passes the design rules, and its summary is the tool's summary of
those games. A summary edited by hand or games moved to the wrong folder
fail here."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

from cli_process import ROOT

from coexist_ai.balance.design import design_problems
from coexist_ai.cards import load_card_set, loads_card_set

PAIRINGS = ROOT / "tournaments" / "balance" / "v4-screens" / "pairings"
FOLDERS = sorted(path.parent for path in PAIRINGS.glob("*/games.jsonl"))


def matchup_screen():
    spec = importlib.util.spec_from_file_location("matchup_screen",
                                                  ROOT / "tools" / "matchup_screen.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_there_are_published_pilots():
    assert len(FOLDERS) >= 10


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda folder: folder.name)
def test_a_pilot_is_its_pairing_on_its_cards_and_its_summary_is_its_games(folder):
    # the folder is NAME-FAUNA_A-FAUNA_B
    *_, fauna_a, fauna_b = folder.name.split("-")
    card_set = load_card_set(folder / "cards.toml")
    assert design_problems(card_set) == []
    games = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]
    for index, game in enumerate(games):
        assert game["game"] == index
        assert game["faunas"] == ([fauna_a, fauna_b] if index % 2 == 0 else [fauna_b, fauna_a])
        assert sorted(game["ranks"]) in ([1, 1], [1, 2])
    summary = (folder / "summary.txt").read_text().strip()
    assert summary == matchup_screen().summary(games, fauna_a)


def base_of(folder):
    """The set a pilot's edits apply to: its base.txt, else reconstructed-v4
    (the pilots of 2026-12-05 were all on v4; later ones name their base)."""
    base = folder / "base.txt"
    return base.read_text().strip() if base.exists() else "reconstructed-v4"


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda folder: folder.name)
def test_a_pilots_cards_are_its_base_with_its_edits(folder):
    edits = (folder / "edits.txt").read_text().split()
    made = subprocess.run([sys.executable, str(ROOT / "tools" / "cardset_variant.py"),
                           base_of(folder), "pilot", "a test", *edits],
                          capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    remade, published = loads_card_set(made.stdout, "<remade>"), load_card_set(folder / "cards.toml")
    assert (remade.animals(), remade.rules) == (published.animals(), published.rules)
    # a caretaker card's colour is what plays; its display name does not
    assert ([(card.id, card.colour) for card in remade.caretakers()]
            == [(card.id, card.colour) for card in published.caretakers()])
