"""tools/screen_row.py, run as a process on a published report: the rows of
docs/balance.md are printed from report.json, so they must carry its
shares, intervals and verdicts."""
import json
import subprocess
import sys

from cli_process import ROOT

SCRIPT = str(ROOT / "tools" / "screen_row.py")
REPORT = ROOT / "tournaments" / "balance" / "v4-ismcts" / "report.json"


def run(*args):
    done = subprocess.run([sys.executable, SCRIPT, *map(str, args)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def pct(x):
    return f"{100 * x:.1f}"


def test_a_study_table_has_one_row_a_count_with_the_reports_intervals():
    counts = json.loads(REPORT.read_text())["counts"]
    header, rule, *rows = run("--study", REPORT)
    assert header.startswith("| players | games | forest | air | sea | savannah |")
    assert len(rows) == len(counts)
    for row, count in zip(rows, counts):
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert cells[0] == str(count["players"])
        sea = next(s for s in count["specialties"] if s["fauna"] == "sea")
        share = f"**{pct(sea['share'])}**" if sea["differs"] else pct(sea["share"])
        assert cells[4] == f"{share} [{pct(sea['low'])}, {pct(sea['high'])}]"
        assert cells[6].startswith(pct(count["verdict"]["max_deviation"]) + " (±")


def test_a_screen_row_names_the_screen_and_bolds_the_shares_that_differ():
    counts = json.loads(REPORT.read_text())["counts"]
    rows = run("n1", "the change", REPORT)
    assert len(rows) == len(counts)
    for row, count in zip(rows, counts):
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        assert cells[:4] == ["n1", "the change", str(count["players"]), str(count["games"])]
        shares = {s["fauna"]: s for s in count["specialties"]}
        wins = cells[4].split(" / ")
        for fauna, text in zip(("forest", "air", "sea", "savannah"), wins):
            plain = pct(shares[fauna]["share"])
            assert text == (f"**{plain}**" if shares[fauna]["differs"] else plain)
