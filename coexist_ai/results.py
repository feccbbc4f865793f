"""Standings of a tournament or of any set of records: who played, the
pairwise results of each deal, failures and their reasons.

Records may come in any order (games finish out of order; files are
merged): everything here is counted so that the order does not matter, and
the ratings (coexist_ai.ratings) are computed from the deals in a canonical
order.
"""
import hashlib
import itertools
import json
from collections import Counter, defaultdict

from coexist_ai import elo
from coexist_ai.errors import CoexistError
from coexist_ai.roster import Roster

FAILURE_KINDS = ("time", "illegal", "crash", "stall")
FIRST_GAMES = 3      # a bot that forfeits each of its first games stops the run


class BotsFailing(CoexistError):
    """A bot forfeited every one of its first games: the rest would be
    forfeits too."""


def record_hash(record):
    return hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()


def deal_key(record):
    """What identifies a deal: its faunas by seat, first player and draw
    pile. Games of one deal (every seat rotation, every table of a round)
    share its luck, so the deal is the unit the bootstrap resamples."""
    deal = [record.get("card_set", {}).get("sha256"), record.get("players"),
            record.get("faunas"), record.get("first_player"), record.get("deck")]
    if record.get("deck") is None:   # no deal recorded: the record's own place
        deal = [record.get("run"), record.get("round"), record.get("game")]
    return hashlib.sha256(json.dumps(deal).encode()).hexdigest()[:20]


class Standings:
    """Accumulates game records (of one tournament, or any)."""

    def __init__(self, tournament=None, records=(), anchor=None):
        self.tournament = tournament
        self.anchor = anchor or (tournament.anchor if tournament else None)
        self.records, self.sprt, self.interrupted = [], None, False
        # a schedule plays one deal a round: the deal of game i is its round
        self._deal_size = tournament.schedule.games_per_round if tournament else 0
        self._rebuild()
        for record in records:
            self.add(record)

    def _rebuild(self):
        self.roster = Roster()
        if self.tournament:
            self.roster.declare(self.tournament.run_id, [
                (e.name, e.spec) for e in self.tournament.entrants])
        for record in self.records:
            self.roster.declare_record(record)
        self.roster.changed = False
        self.units = defaultdict(list)        # deal -> pairwise results
        self.unit_games = Counter()           # deal -> games recorded
        self.games, self.firsts = Counter(), Counter()
        self.met, self.swept = Counter(), Counter()
        self.failures, self.reasons = defaultdict(Counter), Counter()
        self.first_forfeits = defaultdict(list)
        self.players, self.unit_hashes = Counter(), defaultdict(list)
        self.seats = []                       # bot of each seat, per record
        self.scheduled_deals = defaultdict(list)   # the schedule's deal -> results
        for record in self.records:
            self._count(record, self.roster.seats(record))

    def add(self, record):
        self.records.append(record)
        seats = self.roster.seats(record)
        if self.roster.changed:   # two names for one spec in a run: re-seat all
            self._rebuild()
        else:
            self._count(record, seats)

    def _count(self, record, seats):
        self.seats.append(seats)
        key = deal_key(record)
        results = elo.pairwise_results(record, seats)
        self.units[key].extend(results)
        self.unit_games[key] += 1
        if self._deal_size and isinstance(record.get("game"), int):
            self.scheduled_deals[record["game"] // self._deal_size].append(results)
        self.players[record.get("players", len(seats))] += 1
        self.unit_hashes[key].append(record_hash(record))
        ranks = record["ranks"]
        for bot in set(seats):
            self.games[bot] += 1
            self.firsts[bot] += any(r == 1 for s, r in zip(seats, ranks) if s == bot)
        self._count_sweeps(results)
        lost = set()
        for f in record.get("forfeits", []):
            bot = seats[f["seat"]]
            lost.add(bot)
            self.failures[bot][f["kind"]] += 1
            self.reasons[bot, f["kind"], _first_line(f.get("reason", ""))] += 1
        for bot in set(seats):
            if len(self.first_forfeits[bot]) < FIRST_GAMES:
                self.first_forfeits[bot].append(bot in lost)

    def _count_sweeps(self, results):
        """Per ordered pair: games they met in, and games the first won
        every pairing of (for the bound of a perfect score)."""
        score = defaultdict(list)
        for i, j, s in results:
            score[i, j].append(s)
            score[j, i].append(1 - s)
        for (i, j), got in score.items():
            self.met[i, j] += 1
            self.swept[i, j] += all(s == 1 for s in got)

    # -- figures ------------------------------------------------------------
    @property
    def names(self):
        return self.roster.names()

    def pair_scores(self, i):
        """Wins, draws and losses of bot i's pairings."""
        out = Counter()
        for results in self.units.values():
            for a, b, s in results:
                if i in (a, b):
                    mine = s if a == i else 1 - s
                    out["wins" if mine == 1 else "losses" if mine == 0 else "draws"] += 1
        return out["wins"], out["draws"], out["losses"]

    def seat_advantage(self):
        """Mean pairwise score of each seat against the others, all games."""
        points, counts = Counter(), Counter()
        for record in self.records:
            ranks = record["ranks"]
            for a in range(len(ranks)):
                for b in range(len(ranks)):
                    if a != b:
                        points[a] += 1.0 if ranks[a] < ranks[b] else 0.5 if ranks[a] == ranks[b] else 0.0
                        counts[a] += 1
        return {seat: points[seat] / counts[seat] for seat in sorted(counts)}

    def complete_deal_scores(self, i):
        """Mean score of bot i over each deal of the schedule whose games are
        all recorded (a deal not yet played under every seat order says
        nothing fair), in schedule order."""
        out = []
        for deal, games in sorted(self.scheduled_deals.items()):
            if len(games) != self._deal_size:
                continue
            mine = [s if a == i else 1 - s for results in games
                    for a, b, s in results if i in (a, b)]
            if mine:
                out.append(sum(mine) / len(mine))
        return out

    def complete_deal_games(self):
        return sum(len(games) for games in self.scheduled_deals.values()
                   if len(games) == self._deal_size)

    def failing_bot(self):
        """A message if some bot forfeited each of its first games (all of
        them, if it has fewer scheduled), else None."""
        for bot, lost in self.first_forfeits.items():
            enough = min(FIRST_GAMES, self._scheduled_games(bot))
            if len(lost) >= enough and all(lost):
                kind, reason = self._first_reason(bot)
                return (f"bot {self.names[bot]!r} forfeited each of its first {len(lost)} "
                        f"games ({kind}: {reason}); stopped instead of playing the rest "
                        "as forfeits")
        return None

    def _scheduled_games(self, bot):
        if not self.tournament:
            return FIRST_GAMES
        t = self.tournament
        entrant = next((k for k, e in enumerate(t.entrants) if self.roster.key(
            t.run_id, e.name, e.spec) == self.roster.bots[bot].key), None)
        if entrant is None:
            return FIRST_GAMES
        a_round = itertools.islice(t.schedule.games(), t.schedule.games_per_round)
        return t.schedule.rounds * sum(entrant in g.lineup for g in a_round)

    def _first_reason(self, bot):
        (_, kind, reason), _ = max(((k, c) for k, c in self.reasons.items() if k[0] == bot),
                                   key=lambda kc: kc[1])
        return kind, reason

    def seed_of(self, deals):
        """A bootstrap seed from the content of these deals' records,
        whatever their order."""
        text = "".join(sorted(h for key in deals for h in self.unit_hashes[key]))
        return int(hashlib.sha256(text.encode()).hexdigest()[:15], 16)


def _first_line(text, limit=160):
    line = next((l.strip() for l in str(text).splitlines() if l.strip()), "")
    return line if len(line) <= limit else line[:limit - 3] + "..."
