"""Playing a balance study: at each player count, one bot in every seat
over fresh deals, through the tournament machinery (coexist_ai.tournament),
so a study has the same records, resumption, parallel jobs, failure
handling and progress line as a tournament.

A study at one player count is a one-entrant tournament: its schedule
seats the entrant in every seat, one game a deal, each deal drawing the
faunas and the draw pile from the study's seed. Its records go to
DIR/games-<n>p.jsonl; rerunning the same command resumes, and a larger
--games extends the same games.
"""
from __future__ import annotations

import os
import shlex
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coexist_ai import tournament as tm
from coexist_ai.balance.facts import GameFacts, game_facts
from coexist_ai.balance.stats import TOLERANCE, player_count_stats
from coexist_ai.balance.strength import bot_ratings
from coexist_ai.cards import CardSet, packaged_by_sha256
from coexist_ai.live import cut
from coexist_ai.records import numbered_records
from coexist_ai.results import Standings
from coexist_ai.schedule import Entrant

STUDY = "balance"


@dataclass(frozen=True)
class Study:
    cards_spec: tm.CardsSpec   # what the user named: a packaged name or a path
    card_set: CardSet
    player_counts: tuple[int, ...]
    bot: str                   # the spec of the bot in every seat
    games: dict[int, int]      # games to play at each player count
    seed: int
    out: str | None            # the study's folder (None: nothing saved)

    def tournament(self, players: int) -> tm.Tournament:
        return tm.Tournament(STUDY, [Entrant(self.bot, self.bot)], players, "round-robin",
                             self.games[players], self.seed, self.cards_spec)

    def command(self) -> str:
        """The command that plays these games again (into a folder of the
        user's choice: --out)."""
        counts = self.player_counts
        # a packaged set by its own name: "default" may name another set later
        packaged = packaged_by_sha256(self.card_set.sha256)
        cards = packaged.name if packaged else str(self.cards_spec)
        return shlex.join(["coexist-ai", "balance", cards, "--players",
                           ",".join(map(str, counts)), "--games",
                           ",".join(str(self.games[p]) for p in counts),
                           "--bot", self.bot, "--seed", str(self.seed)])

    def records_path(self, players: int) -> str | None:
        return os.path.join(self.out, f"games-{players}p.jsonl") if self.out else None


class SpecialtyLine:
    """The middle of a study's progress line: each specialty's win share so
    far against the fair share (`add` counts a record)."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.wins: defaultdict[str, float] = defaultdict(float)
        self.games: Counter[str] = Counter()

    def add(self, record: dict[str, Any]) -> None:
        ranks = record["ranks"]
        for fauna, rank in zip(record["faunas"], ranks):
            self.games[fauna] += 1
            self.wins[fauna] += (rank == 1) / ranks.count(1)

    def __call__(self, width: int, final: bool = False) -> str:
        shares = " ".join(f"{fauna} {self.wins[fauna] / n:.1%}"
                          for fauna, n in sorted(self.games.items()))
        return cut(f"{self.players}p {shares} (fair {1 / self.players:.0%})", width)


@dataclass
class Played:
    """One player count's run: its standings, and its records when the
    study keeps no file (a study with a folder reads them back from it,
    one at a time: recorded_games)."""
    standings: Standings
    records: list[dict[str, Any]]

    @property
    def interrupted(self) -> bool:
        return self.standings.interrupted


def play(study: Study, jobs: int | None, progress: bool = True,
         echo: Callable[[str], None] = print) -> dict[int, Played]:
    """Play what is missing at every player count (a run stopped by Ctrl-C
    is marked interrupted and ends the study)."""
    out: dict[int, Played] = {}
    if study.out:
        os.makedirs(study.out, exist_ok=True)
    for players in study.player_counts:
        t = study.tournament(players)
        echo(f"{STUDY} {study.card_set.name!r}: {players} players, {study.games[players]} games "
             f"of {study.bot} in every seat, seed {study.seed}")
        line = SpecialtyLine(players)
        records: list[dict[str, Any]] = []

        def count(record: dict[str, Any], line: SpecialtyLine = line,
                  records: list[dict[str, Any]] = records) -> None:
            line.add(record)
            if not study.out:
                records.append(record)
        standings = tm.run(t, study.records_path(players), jobs, progress, echo=echo,
                           live=lambda s: line, count=count)
        out[players] = Played(standings, records)
        if standings.interrupted:
            break
    return out


def recorded_games(study: Study, players: int) -> Iterator[dict[str, Any]]:
    """The study's games at this count, from its records file (one at a
    time), each once and only the first `games` of the schedule."""
    path = study.records_path(players)
    assert path is not None, "a study without a folder keeps its records in Played"
    seen = set()
    for _, record in numbered_records(path):
        if record["game"] < study.games[players] and record["game"] not in seen:
            seen.add(record["game"])
            yield record


def facts_of(records: Iterable[dict[str, Any]], card_set: CardSet) -> tuple[list[GameFacts], int]:
    """The facts of the finished games, and how many were forfeited (a
    forfeit says something of a bot, nothing of the cards)."""
    facts, forfeits = [], 0
    for record in records:
        if record["end"] != "normal":
            forfeits += 1
            continue
        facts.append(game_facts(record, card_set))
    return facts, forfeits


def summarize(study: Study, facts_by_count: dict[int, tuple[list[GameFacts], int]],
              tolerance: float = TOLERANCE,
              rating_files: Sequence[Path] | None = None) -> dict[str, Any]:
    """The whole study as data (the JSON report)."""
    cs = study.card_set
    counts = []
    for players, (facts, forfeits) in sorted(facts_by_count.items()):
        if facts:
            counts.append(dict(player_count_stats(facts, cs, tolerance), forfeits=forfeits))
    return {"format": "coexist-balance", "version": 1,
            "card_set": {"name": cs.name, "sha256": cs.sha256,
                         "reconstructed": cs.is_reconstructed},
            "bot": study.bot, "seed": study.seed, "command": study.command(),
            "bot_rating": bot_ratings(study.bot, None if rating_files is None
                                      else list(rating_files)),
            "counts": counts}
