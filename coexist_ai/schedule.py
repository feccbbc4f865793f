"""Which games a tournament plays, in which order, with which seeds.

Games come in blocks: one deal (faunas by seat, draw-pile order, first
player) played once under every rotation of the bots round the table, so
that the luck of the deal cancels out. Every seed is derived from the
tournament seed and the game's place in the schedule, so a game is the same
whichever process plays it and whenever.
"""
from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

Lineup = tuple[int, ...]     # entrant index per seat


class Indices(Protocol):
    """Game indices to leave out: a set, a repeats.GameSet."""
    def __contains__(self, index: int, /) -> bool: ...


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts (stable across runs and machines)."""
    digest = hashlib.sha256(repr(parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class Entrant:
    name: str   # shown in tables
    spec: str   # bot spec


@dataclass(frozen=True)
class GameSpec:
    index: int          # place in the schedule (also the record's "game")
    block: int
    round: int
    table: int
    rotation: int
    lineup: Lineup      # entrant index per seat
    deal_seed: int
    bot_seeds: tuple[int, ...]    # per seat


MODES = ("round-robin", "gauntlet", "chain")


def tables_for(mode: str, n_entrants: int, players: int) -> list[Lineup]:
    """The line-ups (entrant per seat, before rotation) of a tournament."""
    if mode == "chain":
        return chain_tables(n_entrants, players)
    if mode == "gauntlet":
        return [(0,) + others for others in
                itertools.combinations(range(1, n_entrants), players - 1)] \
            if n_entrants - 1 >= players - 1 else []
    if n_entrants >= players:
        return list(itertools.combinations(range(n_entrants), players))
    # fewer bots than seats (a duel at 3 or 4): fill the seats in turn,
    # starting once with each bot so that none sits more often
    return [tuple((start + s) % n_entrants for s in range(players))
            for start in range(n_entrants)] if players % n_entrants else \
        [tuple(s % n_entrants for s in range(players))]


def chain_tables(n_entrants: int, players: int) -> list[Lineup]:
    """The tables of a chain: every group of `players` entrants within
    `players` + 1 neighbours in the listed order (at 2 players, each bot
    meets the next one and the one after). Listed weakest first, a chain
    plays only the matches that say something about the ratings: an
    expensive strong bot's rout of the weakest is left out, and every bot
    is still tied to the others along two paths, not one."""
    window = players + 1
    if n_entrants < players:
        return []
    tables: dict[Lineup, None] = {}
    for start in range(max(1, n_entrants - window + 1)):
        neighbours = range(start, min(n_entrants, start + window))
        for table in itertools.combinations(neighbours, players):
            tables.setdefault(table, None)
    return sorted(tables)


def distinct_seatings(tables: Sequence[Lineup],
                      players: int) -> list[tuple[int, int, Lineup]]:
    """(table, rotation, line-up) of every distinct way to seat the tables'
    entrants: a line-up that comes back under rotation (A B A B turned by
    two seats) is the same game, so only its first rotation is played."""
    seen: set[Lineup] = set()
    seatings: list[tuple[int, int, Lineup]] = []
    for t, table in enumerate(tables):
        for r in range(players):
            lineup = tuple(table[(s + r) % players] for s in range(players))
            if lineup not in seen:
                seen.add(lineup)
                seatings.append((t, r, lineup))
    return seatings


class Schedule:
    """The ordered games of a tournament: round by round, each round one
    deal played at every distinct seating of every table (a table's block
    is its seatings). Games are made one at a time, from their index alone:
    a schedule of 10^9 games costs no more than one of ten."""

    def __init__(self, mode: str, entrants: Sequence[Entrant], players: int, seed: int,
                 rounds: int) -> None:
        self.mode, self.entrants = mode, entrants
        self.players, self.seed, self.rounds = players, seed, rounds
        self.tables = tables_for(mode, len(entrants), players)
        if not self.tables:
            raise ValueError(f"a {mode} of {len(entrants)} bots at {players} "
                             "players has no table to play")
        self.seatings = distinct_seatings(self.tables, players)

    @property
    def games_per_round(self) -> int:
        return len(self.seatings)

    def __len__(self) -> int:
        return self.rounds * self.games_per_round

    def game(self, index: int) -> GameSpec:
        """The game at `index`; any index >= 0 has one (more rounds extend a
        schedule without changing its first games)."""
        rnd, k = divmod(index, self.games_per_round)
        table, rotation, lineup = self.seatings[k]
        seeds = tuple(derive_seed(self.seed, "bot", index, s) for s in range(self.players))
        return GameSpec(index, rnd * len(self.tables) + table, rnd, table, rotation,
                        lineup, derive_seed(self.seed, "deal", rnd), seeds)

    def games(self, skip: Indices = frozenset()) -> Iterator[GameSpec]:
        """Every game in order, made as it is asked for; those whose index
        is in `skip` (games already played) left out."""
        return (self.game(index) for index in range(len(self)) if index not in skip)
