"""greedy's moves are what they were: its search was made faster
(csrc/cx_greedy.c: a cheaper key for the positions seen, a table that
grows), and the same position must still get the same move and the same
count of positions searched. The golden file holds the choices of the build
before, over about 5,700 positions (tests/golden/greedy_choices.py, whose
--scale 15 compared 86,326 positions when the change was made)."""
import importlib.util
import json
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "greedy_choices", Path(__file__).resolve().parent / "golden" / "greedy_choices.py")
greedy_choices = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(greedy_choices)


def test_greedy_chooses_as_the_golden_file_says():
    golden = json.loads(greedy_choices.GOLDEN.read_text())
    assert golden["card_set"] == greedy_choices.CARD_SET
    for run in golden["runs"]:
        decisions, sha = greedy_choices.run_digest(run["kind"], run["players"], run["games"],
                                                   run["seed"], run["budget"])
        assert (decisions, sha) == (run["decisions"], run["sha256"]), run
