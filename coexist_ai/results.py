"""Standings of a tournament or of any set of records: ratings, scores,
failures and seat advantage, as tables."""
import math
from collections import Counter, defaultdict

from coexist_ai import elo

FAILURE_KINDS = ("time", "illegal", "crash", "stall")


class Standings:
    """Accumulates game records; names come from each record's "entrants"."""

    def __init__(self, tournament=None, records=(), anchor=None):
        self.names = [e.name for e in tournament.entrants] if tournament else []
        self.anchor = anchor or (tournament.anchor if tournament else None)
        self.records = []
        self.failures = defaultdict(Counter)
        self.block_results = defaultdict(list)
        for record in records:
            self.add(record)

    def entrant_index(self, name):
        if name not in self.names:
            self.names.append(name)
        return self.names.index(name)

    def add(self, record):
        seats = [self.entrant_index(name) for name in record["entrants"]]
        self.records.append((record, seats))
        key = (record.get("run"), record.get("block", len(self.block_results)))
        self.block_results[key].extend(elo.pairwise_results(record, seats))
        for f in record.get("forfeits", []):
            self.failures[seats[f["seat"]]][f["kind"]] += 1

    # -- duel figures ---------------------------------------------------------
    def points(self, i):
        """Pairwise points and pairings of entrant i."""
        got = total = 0.0
        for results in self.block_results.values():
            for a, b, s in results:
                if a == i:
                    got, total = got + s, total + 1
                elif b == i:
                    got, total = got + 1 - s, total + 1
        return got, total

    def block_scores(self, i):
        """Mean score of entrant i in each finished block."""
        out = []
        for results in self.block_results.values():
            mine = [s if a == i else 1 - s for a, b, s in results if i in (a, b)]
            if mine:
                out.append(sum(mine) / len(mine))
        return out

    def progress_line(self):
        if len(self.names) != 2 or not self.records:
            return f"{len(self.records)} games"
        got, total = self.points(0)
        if not total:
            return ""
        diff = elo.score_to_elo(got / total)
        half = self.elo_interval_half_width(0)
        return (f"{self.names[0]} {got:g}-{total - got:g} {self.names[1]}, "
                f"Elo {diff:+.0f} ±{half:.0f}")

    def elo_interval_half_width(self, i):
        """95% half-width of entrant i's Elo difference, from block scores."""
        scores = self.block_scores(i)
        if len(scores) < 2:
            return float("inf")
        mean = sum(scores) / len(scores)
        var = sum((s - mean) ** 2 for s in scores) / (len(scores) - 1)
        se = math.sqrt(var / len(scores))
        lo, hi = max(mean - 1.96 * se, 1e-6), min(mean + 1.96 * se, 1 - 1e-6)
        return (elo.score_to_elo(hi) - elo.score_to_elo(lo)) / 2

    # -- tables -----------------------------------------------------------------
    def ratings(self, samples=200, seed=0):
        anchor = self.names.index(self.anchor) if self.anchor in self.names else 0
        return elo.rating_table(self.block_results, self.names, anchor,
                                samples=samples, seed=seed)

    def table(self, samples=200, seed=0):
        """The results table as text."""
        if not self.records:
            return "no games"
        rows, los = self.ratings(samples, seed)
        anchor = self.anchor if self.anchor in self.names else self.names[0]
        games = Counter(i for _, seats in self.records for i in set(seats))
        lines = [f"{len(self.records)} games; Elo anchored at {anchor} = 0; "
                 "95% intervals from a bootstrap over blocks",
                 f"{'bot':<28}{'Elo':>7}{'95% interval':>17}{'score':>8}{'games':>7}"
                 f"  failures (time/illegal/crash/stall)"]
        for i, row in sorted(enumerate(rows), key=lambda r: -r[1]["elo"]):
            fails = "/".join(str(self.failures[i][k]) for k in FAILURE_KINDS)
            lines.append(f"{row['bot']:<28}{row['elo']:>7.0f}"
                         f"{'[' + format(row['low'], '.0f') + ', ' + format(row['high'], '.0f') + ']':>17}"
                         f"{row['score']:>8.1%}{games[i]:>7}  {fails}")
        lines += self._los_lines(los) + self._seat_lines()
        return "\n".join(lines)

    def _los_lines(self, los):
        if len(self.names) < 2:
            return []
        width = max(8, max(len(n) for n in self.names) + 1)
        head = "likelihood of superiority (row above column):"
        lines = [head, " " * width + "".join(f"{n[:width - 1]:>{width}}" for n in self.names)]
        for i, name in enumerate(self.names):
            cells = "".join(f"{'-' if i == j else format(los[i][j], '.2f'):>{width}}"
                            for j in range(len(self.names)))
            lines.append(f"{name[:width - 1]:<{width}}{cells}")
        return lines

    def _seat_lines(self):
        adv = elo.seat_advantage(self.records)
        return ["seat advantage (mean pairwise score by seat): " +
                ", ".join(f"seat {s} {v:.1%}" for s, v in adv.items())]
