"""Which games a tournament plays, in which order, with which seeds.

Games come in blocks: one deal (faunas by seat, draw-pile order, first
player) played once under every rotation of the bots round the table, so
that the luck of the deal cancels out. Every seed is derived from the
tournament seed and the game's place in the schedule, so a game is the same
whichever process plays it and whenever.
"""
import hashlib
import itertools
from dataclasses import dataclass


def derive_seed(*parts):
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
    lineup: tuple       # entrant index per seat
    deal_seed: int
    bot_seeds: tuple    # per seat


def tables_for(mode, n_entrants, players):
    """The line-ups (entrant per seat, before rotation) of a tournament."""
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


class Schedule:
    """The ordered games of a tournament: round by round, each round one
    deal for every table, each table's block all its rotations."""

    def __init__(self, mode, entrants, players, seed, rounds):
        self.mode, self.entrants = mode, entrants
        self.players, self.seed, self.rounds = players, seed, rounds
        self.tables = tables_for(mode, len(entrants), players)
        if not self.tables:
            raise ValueError(f"a {mode} of {len(entrants)} bots at {players} "
                             "players has no table to play")

    @property
    def games_per_round(self):
        return len(self.tables) * self.players

    def __len__(self):
        return self.rounds * self.games_per_round

    def games(self):
        n = self.players
        for rnd in range(self.rounds):
            deal_seed = derive_seed(self.seed, "deal", rnd)
            for t, table in enumerate(self.tables):
                block = rnd * len(self.tables) + t
                for r in range(n):
                    index = block * n + r
                    lineup = tuple(table[(s + r) % n] for s in range(n))
                    seeds = tuple(derive_seed(self.seed, "bot", index, s) for s in range(n))
                    yield GameSpec(index, block, rnd, t, r, lineup, deal_seed, seeds)
