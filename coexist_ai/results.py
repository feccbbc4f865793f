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
from __future__ import annotations

import hashlib
import itertools
import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from coexist_ai import elo
from coexist_ai.errors import CoexistError
from coexist_ai.match import Forfeit, Record
from coexist_ai.roster import Roster

if TYPE_CHECKING:
    from coexist_ai.sprt import Sprt
    from coexist_ai.tournament import Tournament

FAILURE_KINDS = ("time", "illegal", "crash", "stall")
FIRST_GAMES = 3      # a bot that forfeits each of its first games stops the run
DIGEST = 32          # bytes of a record's content hash


class BotsFailing(CoexistError):
    """A bot forfeited every one of its first games: the rest would be
    forfeits too."""


class RosterSplit(CoexistError):
    """A record gives a spec of a run a second entrant name after games of
    that spec were counted under the spec alone: they would have to be
    counted again as two bots, and no record is kept. Declare every record
    first (Standings.declare)."""


def record_digest(record: Record) -> bytes:
    """The sha256 of a record's content (its JSON with sorted keys)."""
    return hashlib.sha256(json.dumps(record, sort_keys=True).encode()).digest()


def record_hash(record: Record) -> str:
    return record_digest(record).hex()


def deal_key(record: Record) -> str:
    """What identifies a deal: its faunas by seat, first player and draw
    pile. Games of one deal (every seat rotation, every table of a round)
    share its luck, so the deal is the unit the bootstrap resamples."""
    deal = [record.get("card_set", {}).get("sha256"), record.get("players"),
            record.get("faunas"), record.get("first_player"), record.get("deck")]
    if record.get("deck") is None:   # no deal recorded: the record's own place
        deal = [record.get("run"), record.get("round"), record.get("game")]
    return hashlib.sha256(json.dumps(deal).encode()).hexdigest()[:20]


def _score(rank: int, other: int) -> float:
    return 1.0 if rank < other else 0.5 if rank == other else 0.0


class Standings:
    """Accumulates game records (of one tournament, or any): `records`, a
    sequence, is declared whole, then counted."""

    def __init__(self, tournament: Tournament | None = None, records: Sequence[Record] = (),
                 anchor: str | None = None) -> None:
        self.tournament = tournament
        self.anchor = anchor or (tournament.anchor if tournament else None)
        self.recorded, self.interrupted = 0, False
        self.sprt: Sprt | None = None
        # a schedule plays one deal a round: its games are complete when all are in
        self._deal_size = tournament.schedule.games_per_round if tournament else 0
        self.roster = Roster()
        if tournament:
            self.roster.declare(tournament.run_id, [
                (e.name, e.spec) for e in tournament.entrants])
        self.units: dict[str, tuple[elo.PairResult, ...]] = {}   # deal -> pairwise results
        self.digests: dict[str, bytes] = {}   # deal -> its games' digests, joined
        self._same: dict[elo.PairResult, elo.PairResult] = {}   # one object per distinct result
        # points (halves: floats) and pairings per ordered pair of bots
        self.pair_points: defaultdict[tuple[int, int], float] = defaultdict(float)
        self.pair_games: Counter[tuple[int, int]] = Counter()
        self.outcomes: defaultdict[int, Counter[str]] = defaultdict(Counter)   # wins, draws, losses
        self.seat_points: defaultdict[int, float] = defaultdict(float)
        self.seat_pairings: Counter[int] = Counter()
        self.games: Counter[int] = Counter()
        self.firsts: Counter[int] = Counter()
        self.met: Counter[tuple[int, int]] = Counter()
        self.swept: Counter[tuple[int, int]] = Counter()
        self.failures: defaultdict[int, Counter[str]] = defaultdict(Counter)   # by kind
        self.reasons: Counter[tuple[int, str, str]] = Counter()   # (bot, kind, reason)
        self.first_forfeits: defaultdict[int, list[bool]] = defaultdict(list)
        self.players: Counter[int] = Counter()
        self._complete: list[str] = []        # deals with all their games, in that order
        # bot -> [complete deals counted, its mean score in each]
        self._complete_scores: dict[int, list[Any]] = {}
        # declaring would use an iterator up (typed callers cannot pass one)
        if iter(records) is records:  # type: ignore[comparison-overlap]
            raise TypeError("Standings: records must be a sequence, not an iterator")
        self.declare(records)
        for record in records:
            self.add(record)

    def declare(self, records: Iterable[Record]) -> None:
        """Note the entrants of records to come, so that the bots' keys are
        final before any game is counted (see Roster)."""
        for record in records:
            self.roster.declare_record(record)
        self.roster.changed = False

    def add(self, record: Record) -> bytes:
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

    def _count_pairs(self, results: Iterable[elo.PairResult]) -> None:
        """Points and pairings per ordered pair; per ordered pair also the
        games they met in and those the first won every pairing of (for
        the bound of a perfect score)."""
        score: defaultdict[tuple[int, int], list[float]] = defaultdict(list)
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

    def _count_seats(self, ranks: Sequence[int], seats: Sequence[int]) -> None:
        for a in range(len(ranks)):
            for b in range(len(ranks)):
                if a != b:
                    self.seat_points[a] += _score(ranks[a], ranks[b])
                    self.seat_pairings[a] += 1
        for bot in set(seats):
            self.games[bot] += 1
            self.firsts[bot] += any(r == 1 for s, r in zip(seats, ranks) if s == bot)

    def _count_forfeits(self, forfeits: Iterable[Forfeit], seats: Sequence[int]) -> None:
        lost: set[int] = set()
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
    def names(self) -> list[str]:
        return self.roster.names()

    def score_matrices(self) -> tuple[elo.Floats, elo.Floats]:
        """wins[i, j]: points bot i took from bot j; games[i, j]: their
        pairings (elo.score_matrices of every pairwise result)."""
        n = len(self.roster.bots)
        wins, games = elo.score_matrices((), n)
        for (i, j), points in self.pair_points.items():
            wins[i, j], games[i, j] = points, self.pair_games[i, j]
        return wins, games

    def pair_scores(self, i: int) -> tuple[int, int, int]:
        """Wins, draws and losses of bot i's pairings."""
        out = self.outcomes[i]
        return out["wins"], out["draws"], out["losses"]

    def seat_advantage(self) -> dict[int, float]:
        """Mean pairwise score of each seat against the others, all games."""
        return {seat: self.seat_points[seat] / self.seat_pairings[seat]
                for seat in sorted(self.seat_pairings)}

    def complete_deal_scores(self, i: int) -> list[float]:
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

    def complete_deal_games(self) -> int:
        return len(self._complete) * self._deal_size

    def failing_bot(self) -> str | None:
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

    def _scheduled_games(self, bot: int) -> int:
        if not self.tournament:
            return FIRST_GAMES
        t = self.tournament
        entrant = next((k for k, e in enumerate(t.entrants) if self.roster.key(
            t.run_id, e.name, e.spec) == self.roster.bots[bot].key), None)
        if entrant is None:
            return FIRST_GAMES
        a_round = itertools.islice(t.schedule.games(), t.schedule.games_per_round)
        return t.schedule.rounds * sum(entrant in g.lineup for g in a_round)

    def _first_reason(self, bot: int) -> tuple[str, str]:
        (_, kind, reason), _ = max(((k, c) for k, c in self.reasons.items() if k[0] == bot),
                                   key=lambda kc: kc[1])
        return kind, reason

    def seed_of(self, deals: Iterable[str]) -> int:
        """A bootstrap seed from the content of these deals' records,
        whatever their order: the sha256 of their sorted hex hashes."""
        hashes = sorted(joined[k:k + DIGEST] for key in deals
                        for joined in [self.digests[key]]
                        for k in range(0, len(joined), DIGEST))
        text = "".join(h.hex() for h in hashes)
        return int(hashlib.sha256(text.encode()).hexdigest()[:15], 16)


def _first_line(text: object, limit: int = 160) -> str:
    line = next((l.strip() for l in str(text).splitlines() if l.strip()), "")
    return line if len(line) <= limit else line[:limit - 3] + "..."
