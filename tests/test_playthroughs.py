"""Golden playthroughs: seeded random games replayed and diffed line by line.

tests/golden/playthrough-{2,3,4}p.txt each hold one whole game (header with
the card set and its sha256, players, faunas, seed; one line per action with
the seat, the decision, the move and a digest of the supply, draw pile,
tracks and scores after it; the final score breakdown and ranks). The test
plays the same game in memory with the code of tests/golden/regenerate.py
and reports the first line that differs, so that any change in what the
engine plays shows up, at the action where it starts.

When the change is intended:
    cd /work/main && PYTHONPATH=. python tests/golden/regenerate.py --only playthroughs
"""
import importlib.util
import re
from pathlib import Path

import pytest

from coexist_ai.cards import default_card_set

GOLDEN = Path(__file__).resolve().parent / "golden"
_spec = importlib.util.spec_from_file_location("golden_regenerate", GOLDEN / "regenerate.py")
regen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regen)

HINT = ("if the rule change is intended, run: PYTHONPATH=. python "
        "tests/golden/regenerate.py --only playthroughs, and review the diff")
ACTION_LINE = re.compile(r"^(\d{4}) s(\d) (\w+) +(\S.*?) +supply ")


def golden_lines(players):
    return regen.playthrough_file(players).read_text(encoding="utf-8").splitlines()


def first_difference(expected, actual):
    for i, (want, got) in enumerate(zip(expected, actual)):
        if want != got:
            return i
    return None if len(expected) == len(actual) else min(len(expected), len(actual))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_playthrough_matches_golden(players):
    expected = golden_lines(players)
    actual = regen.playthrough_lines(players)
    i = first_difference(expected, actual)
    if i is not None:
        want = expected[i] if i < len(expected) else "<end of file>"
        got = actual[i] if i < len(actual) else "<end of game>"
        pytest.fail(f"{regen.playthrough_file(players).name} line {i + 1} differs:\n"
                    f"  golden: {want}\n  now:    {got}\n{HINT}", pytrace=False)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_golden_header(players):
    cs = default_card_set()
    lines = golden_lines(players)
    seed, first = regen.PLAYTHROUGHS[players]
    assert lines[1] == f"card_set {cs.name} sha256 {cs.sha256}", (
        "the default card set changed; " + HINT)
    assert lines[2] == f"players {players}"
    assert len(lines[3].split()) == players + 1 and lines[3].startswith("faunas ")
    assert lines[4] == f"first_player {first}" and lines[5] == f"seed {seed}"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_golden_file_replays_move_by_move(players):
    """The recorded moves themselves replay through push() with the recorded
    seat and decision, independently of how regenerate.py picks them: a
    failure here names the first move the engine now refuses."""
    lines = golden_lines(players)
    seed, first = regen.PLAYTHROUGHS[players]
    state = regen.State.new(players=players, seed=seed, first_player=first)
    moves = [m for m in map(ACTION_LINE.match, lines) if m]
    assert moves, "no action lines"
    for m in moves:
        index, seat, phase, move = int(m[1]), int(m[2]), m[3], m[4]
        assert (state.current_player, state.phase) == (seat, phase), (
            f"action {index}: the engine asks seat {state.current_player} "
            f"({state.phase}), the golden file seat {seat} ({phase}); " + HINT)
        assert move in state.legal_moves(), (
            f"action {index}: {move!r} is not legal now; legal: "
            f"{state.legal_moves()}; " + HINT)
        state.push(move)
    assert state.is_over()
    assert lines[-1] == "ranks " + " ".join(map(str, state.ranks()))
