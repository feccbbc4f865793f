"""Perft: golden counts of action sequences from fixed positions.

As chess engines count the move sequences to a fixed depth and compare with
published numbers, this counts the sequences of legal actions of length
1..depth from each position of tests/golden/perft.json (initial positions of
seeds 1..3 at 2, 3 and 4 players, and mid-game positions reached by replaying
recorded moves) and compares with the numbers stored there.

Chance is not branched: a refill of the Mission board reveals the next cards
of the real draw pile of the fixed deal, so a count holds for that deal only.
Each position therefore also stores the identity of its deal; the tests check
it separately, so that a changed shuffle or seeding fails as "the deal
changed", a changed rule fails as "perft differs at depth k", and a changed
state layout (the public hash covers the struct bytes) fails as such.

When a rule change is intended, rewrite the golden file:
    cd /work/main && PYTHONPATH=. python tests/golden/regenerate.py --only perft
"""
import importlib.util
import json
from pathlib import Path

import pytest

from coexist_ai.cards import default_card_set
from coexist_ai.errors import CoexistError

GOLDEN = Path(__file__).resolve().parent / "golden"
_spec = importlib.util.spec_from_file_location("golden_regenerate", GOLDEN / "regenerate.py")
regen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regen)

DOC = json.loads((GOLDEN / "perft.json").read_text(encoding="utf-8"))
POSITIONS = DOC["positions"]
HINT = ("if the change is intended, run: PYTHONPATH=. python "
        "tests/golden/regenerate.py --only perft, and review the diff")


each_position = pytest.mark.parametrize("entry", POSITIONS,
                                        ids=[p["name"] for p in POSITIONS])


def test_golden_file_covers_the_brief():
    initial = {(p["players"], p["seed"]) for p in POSITIONS if p["n_moves"] == 0}
    assert initial == {(n, s) for n in (2, 3, 4) for s in (1, 2, 3)}
    mid = [p for p in POSITIONS if p["n_moves"]]
    assert {p["players"] for p in mid} == {2, 3, 4}
    for p in mid:
        assert p["moves_seed"] is not None and len(p["moves"]) == p["n_moves"]
    for p in POSITIONS:
        assert p["depth"] == len(p["counts"]) >= 4, p["name"]


def test_card_set_unchanged():
    cs = default_card_set()
    assert DOC["card_set"] == {"name": cs.name, "sha256": cs.sha256}, (
        "the default card set changed, so every count may change; " + HINT)


@each_position
def test_deal_unchanged(entry):
    start = regen.deal(entry)
    assert regen.deal_sha256(start) == entry["deal_sha256"], (
        f"{entry['name']}: the deal of State.new(players={entry['players']}, "
        f"seed={entry['seed']}) changed (faunas, Mission board or draw order): "
        f"the shuffle or the seeding changed, not necessarily a rule; " + HINT)
    assert regen.hex_hash(start.public_hash()) == entry["deal_public_hash"], (
        f"{entry['name']}: same deal, but the public hash of the dealt position "
        f"changed: the state's layout or content after the deal changed; " + HINT)


@each_position
def test_recorded_moves_reach_the_position(entry):
    state = regen.deal(entry)
    for k, move in enumerate(entry["moves"]):
        try:
            state.push(move)
        except CoexistError as e:
            pytest.fail(f"{entry['name']}: recorded move {k} {move!r} is refused "
                        f"now ({e}); a rule changed; " + HINT)
    assert state.phase == entry["phase"]
    assert regen.hex_hash(state.public_hash()) == entry["public_hash"], (
        f"{entry['name']}: replaying the {len(entry['moves'])} recorded moves "
        f"reaches another position: a rule changed in how moves apply; " + HINT)


@each_position
def test_perft(entry):
    state = regen.play_recorded(regen.deal(entry), entry["moves"])
    counts, _ = regen.perft(state, entry["depth"])
    for depth, (want, got) in enumerate(zip(entry["counts"], counts), start=1):
        assert got == want, (
            f"{entry['name']}: perft({depth}) = {got}, golden {want} "
            f"(all: {counts} vs {entry['counts']}); the legal moves or their "
            f"effect changed; " + HINT)


def test_perft_counts_what_it_says():
    """The counting itself, on a tiny tree counted the plain way."""
    entry = POSITIONS[0]
    state = regen.deal(entry)

    def leaves(s, d):
        if d == 0 or s.is_over():
            return 1 if d == 0 else 0
        total = 0
        for a in s.legal_actions():
            child = s.copy()
            child.apply(a)
            total += leaves(child, d - 1)
        return total

    counts, _ = regen.perft(state, 5)
    assert counts == [leaves(state, d) for d in range(1, 6)]
    assert counts == entry["counts"][:5]
