"""Standings of a tournament or of any set of records: who played, the
pairwise results of each deal, failures and their reasons.

Standings keep the figures of the games, never their records: per deal the
pairwise results of its games and each game's content hash (the bootstrap
resamples deals, with a seed drawn from the hashes), and counters per bot,
pair and seat. A long run's memory grows by its deals' results, a few
hundred bytes a game, not by the moves and times of every game.

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
DIGEST = 32          # bytes of a record's content hash


class BotsFailing(CoexistError):
    """A bot forfeited every one of its first games: the rest would be
    forfeits too."""


class RosterSplit(Exception):
    """A record gives a spec of a run a second entrant name after games of
    that spec were counted under the spec alone: they would have to be
    counted again as two bots, and no record is kept. Declare every record
    first (Standings.declare)."""


def record_digest(record):
    """The sha256 of a record's content (its JSON with sorted keys)."""
    return hashlib.sha256(json.dumps(record, sort_keys=True).encode()).digest()


def record_hash(record):
    return record_digest(record).hex()


def deal_key(record):
    """What identifies a deal: its faunas by seat, first player and draw
    pile. Games of one deal (every seat rotation, every table of a round)
    share its luck, so the deal is the unit the bootstrap resamples."""
    deal = [record.get("card_set", {}).get("sha256"), record.get("players"),
            record.get("faunas"), record.get("first_player"), record.get("deck")]
    if record.get("deck") is None:   # no deal recorded: the record's own place
        deal = [record.get("run"), record.get("round"), record.get("game")]
    return hashlib.sha256(json.dumps(deal).encode()).hexdigest()[:20]


def _score(rank, other):
    return 1.0 if rank < other else 0.5 if rank == other else 0.0


class Standings:
    """Accumulates game records (of one tournament, or any): `records`, a
    sequence, is declared whole, then counted."""

    def __init__(self, tournament=None, records=(), anchor=None):
        self.tournament = tournament
        self.anchor = anchor or (tournament.anchor if tournament else None)
        self.recorded, self.sprt, self.interrupted = 0, None, False
        # a schedule plays one deal a round: its games are complete when all are in
        self._deal_size = tournament.schedule.games_per_round if tournament else 0
        self.roster = Roster()
        if tournament:
            self.roster.declare(tournament.run_id, [
                (e.name, e.spec) for e in tournament.entrants])
        self.units = {}                       # deal -> pairwise results (a tuple)
        self.digests = {}                     # deal -> its games' digests, joined
        self._same = {}                       # one object per distinct result
        self.pair_points, self.pair_games = Counter(), Counter()
        self.outcomes = defaultdict(Counter)  # bot -> wins, draws, losses
        self.seat_points, self.seat_pairings = Counter(), Counter()
        self.games, self.firsts = Counter(), Counter()
        self.met, self.swept = Counter(), Counter()
        self.failures, self.reasons = defaultdict(Counter), Counter()
        self.first_forfeits = defaultdict(list)
        self.players = Counter()
        self._complete, self._complete_scores = [], {}
        if iter(records) is records:   # declaring would use it up
            raise TypeError("Standings: records must be a sequence, not an iterator")
        self.declare(records)
        for record in records:
            self.add(record)

    def declare(self, records):
        """Note the entrants of records to come, so that the bots' keys are
        final before any game is counted (see Roster)."""
        for record in records:
            self.roster.declare_record(record)
        self.roster.changed = False

    def add(self, record):
        """Count a record; returns its digest (record_digest)."""
        seats = self.roster.seats(record)
        if self.roster.changed:
            raise RosterSplit(f"game {record.get('game')} of run {record.get('run')} "
                              "splits a bot whose games were already counted")
        self.recorded += 1
        key = deal_key(record)
        results = tuple(self._same.setdefault(r, r)
                        for r in elo.pairwise_results(record, seats))
        self.units[key] = self.units.get(key, ()) + results
        digest = record_digest(record)
        self.digests[key] = self.digests.get(key, b"") + digest
        if self._deal_size and len(self.digests[key]) == DIGEST * self._deal_size:
            self._complete.append(key)
        self.players[record.get("players", len(seats))] += 1
        self._count_pairs(results)
        self._count_seats(record["ranks"], seats)
        self._count_forfeits(record.get("forfeits", []), seats)
        return digest

    def _count_pairs(self, results):
        """Points and pairings per ordered pair; per ordered pair also the
        games they met in and those the first won every pairing of (for
        the bound of a perfect score)."""
        score = defaultdict(list)
        for i, j, s in results:
            self.pair_points[i, j] += s
            self.pair_points[j, i] += 1 - s
            self.pair_games[i, j] += 1
            self.pair_games[j, i] += 1
            for bot, mine in ((i, s), (j, 1 - s)):
                self.outcomes[bot]["wins" if mine == 1 else "losses" if mine == 0
                                   else "draws"] += 1
            score[i, j].append(s)
            score[j, i].append(1 - s)
        for (i, j), got in score.items():
            self.met[i, j] += 1
            self.swept[i, j] += all(s == 1 for s in got)

    def _count_seats(self, ranks, seats):
        for a in range(len(ranks)):
            for b in range(len(ranks)):
                if a != b:
                    self.seat_points[a] += _score(ranks[a], ranks[b])
                    self.seat_pairings[a] += 1
        for bot in set(seats):
            self.games[bot] += 1
            self.firsts[bot] += any(r == 1 for s, r in zip(seats, ranks) if s == bot)

    def _count_forfeits(self, forfeits, seats):
        lost = set()
        for f in forfeits:
            bot = seats[f["seat"]]
            lost.add(bot)
            self.failures[bot][f["kind"]] += 1
            self.reasons[bot, f["kind"], _first_line(f.get("reason", ""))] += 1
        for bot in set(seats):
            if len(self.first_forfeits[bot]) < FIRST_GAMES:
                self.first_forfeits[bot].append(bot in lost)

    # -- figures ------------------------------------------------------------
    @property
    def names(self):
        return self.roster.names()

    def score_matrices(self):
        """wins[i, j]: points bot i took from bot j; games[i, j]: their
        pairings (elo.score_matrices of every pairwise result)."""
        n = len(self.roster.bots)
        wins, games = elo.score_matrices((), n)
        for (i, j), points in self.pair_points.items():
            wins[i, j], games[i, j] = points, self.pair_games[i, j]
        return wins, games

    def pair_scores(self, i):
        """Wins, draws and losses of bot i's pairings."""
        out = self.outcomes[i]
        return out["wins"], out["draws"], out["losses"]

    def seat_advantage(self):
        """Mean pairwise score of each seat against the others, all games."""
        return {seat: self.seat_points[seat] / self.seat_pairings[seat]
                for seat in sorted(self.seat_pairings)}

    def complete_deal_scores(self, i):
        """Mean score of bot i over each deal of the schedule whose games are
        all recorded (a deal not yet played under every seat order says
        nothing fair), in the order they were completed."""
        scores = self._complete_scores.setdefault(i, [0, []])
        for key in self._complete[scores[0]:]:
            mine = [s if a == i else 1 - s for a, b, s in self.units[key] if i in (a, b)]
            if mine:
                scores[1].append(sum(mine) / len(mine))
        scores[0] = len(self._complete)
        return list(scores[1])

    def complete_deal_games(self):
        return len(self._complete) * self._deal_size

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
        whatever their order: the sha256 of their sorted hex hashes."""
        hashes = sorted(joined[k:k + DIGEST] for key in deals
                        for joined in [self.digests[key]]
                        for k in range(0, len(joined), DIGEST))
        text = "".join(h.hex() for h in hashes)
        return int(hashlib.sha256(text.encode()).hexdigest()[:15], 16)


def _first_line(text, limit=160):
    line = next((l.strip() for l in str(text).splitlines() if l.strip()), "")
    return line if len(line) <= limit else line[:limit - 3] + "..."
