"""`tournament report`: the HTML opens (it parses and names every bot), its
figures exist as PNG files, and each figure shows the bots."""
from html.parser import HTMLParser

import matplotlib.image
import pytest

from coexist_ai import merged, ratings, report
from cli_process import ROOT, assert_clear_error, assert_ok, cli

RESULTS = ROOT / "tournaments" / "results"
BOTS = {"ismcts-10k", "ismcts-1k", "ismcts-1k-light", "greedy", "random"}


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.images, self.cells, self.title, self._in = [], [], "", None

    def handle_starttag(self, tag, attrs):
        self._in = tag
        if tag == "img":
            self.images.append(dict(attrs)["src"])

    def handle_data(self, data):
        if self._in == "td":
            self.cells.append(data)
        elif self._in == "title":
            self.title += data


def test_the_report_opens_and_its_figures_exist(tmp_path):
    out = tmp_path / "ladder.html"
    proc = cli("tournament", "report", RESULTS / "ladder.jsonl", "--out", out)
    assert_ok(proc)
    page = Page()
    page.feed(out.read_text())
    assert "400 games" in page.title
    assert BOTS <= set(page.cells)
    assert len(page.images) == 4
    for name in page.images:
        png = tmp_path / name
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        height, width = matplotlib.image.imread(png).shape[:2]
        assert width >= 200 and height >= 150


def labels(fig):
    ax = fig.axes[0]
    texts = [t.get_text() for t in ax.get_xticklabels() + ax.get_yticklabels()]
    legend = ax.get_legend()
    return set(texts) | ({t.get_text() for t in legend.get_texts()} if legend else set())


def test_every_figure_shows_the_bots():
    standings, order = merged.load([RESULTS / "ladder.jsonl"], ordered=True)
    table = ratings.compute(standings, "greedy")
    figures = report.figures(table, standings, order, "greedy")
    assert set(figures) == {"elo", "scores", "progression", "seats"}
    for name in ("elo", "scores", "progression"):
        assert BOTS <= labels(figures[name]), name
    assert {"seat 0", "seat 1"} <= labels(figures["seats"])
    # the Elo figure puts each bot at its rating, best at the top
    ax = figures["elo"].axes[0]
    points = ax.lines[0].get_xdata()
    assert list(points) == sorted(points)
    ticks = [t.get_text() for t in ax.get_yticklabels()]
    assert ticks[-1] == table.rows[0].name and ticks[0] == table.rows[-1].name
    assert table.rows[0].name.startswith("ismcts") and ticks[0] == "random"
    # the progression ends at the table's figures
    for line in figures["progression"].axes[0].lines:
        row = table.row(line.get_label())
        assert line.get_ydata()[-1] == pytest.approx(row.elo)


def test_an_unwritable_report_is_a_clear_error(tmp_path):
    assert_clear_error(cli("tournament", "report", RESULTS / "four.jsonl",
                           "--out", tmp_path / "no" / "r.html"), "cannot write the report")
