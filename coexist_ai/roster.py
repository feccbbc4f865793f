"""Which bot held each seat of a record, across records merged from any
number of runs, and the name it is shown under.

A bot is its spec, with its parameters spelled out (a spec's seed is
replaced by every game's own, so it is left out): `ismcts-10k` in a config
and `ismcts:iterations=10000` in a duel are one bot. Within one run two
entrants may share a spec on purpose (a bot against itself): there they are
told apart by their entrant names.
"""
from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Sequence

from coexist_ai.errors import CoexistError
from coexist_ai.match import Record

NUMBERED = re.compile(r"#\d+$")   # "random#2": the second of two same specs

# a bot's key: (canonical spec,), or (canonical spec, entrant name) where a
# run seats two entrants of one spec
Key = tuple[str, ...]


@functools.lru_cache(maxsize=1024)
def canonical(spec: str) -> str:
    """The bot a spec names, spelled one way (the spec itself if it is an
    external bot, a preset or not a spec this build knows)."""
    from coexist_ai.bots.spec import BOT_TYPES, canonical_spec, parse_spec
    if spec.partition(":")[0] not in BOT_TYPES:
        return spec
    try:
        name, params = parse_spec(spec)
    except CoexistError:
        return spec
    params.pop("seed", None)
    return canonical_spec(name, params)


class Bot:
    """One bot of the roster: every name and spec it was recorded under."""

    def __init__(self, key: Key, spec: str) -> None:
        self.key, self.spec = key, spec
        self.specs = {spec}
        self.entrant_names: Counter[str] = Counter()
        self.protocol_names: Counter[str] = Counter()

    def is_spec(self, name: str) -> bool:
        base = NUMBERED.sub("", name)
        return base in self.specs or canonical(base) == self.key[0]

    def own_name(self) -> str:
        """A name given by a person (a config's), else the name the bot
        gives itself over the protocol, else its spec."""
        given = [n for n in self.entrant_names if not self.is_spec(n)]
        if given:
            return min(given, key=lambda n: (-self.entrant_names[n], n))
        if self.protocol_names:
            return min(self.protocol_names, key=lambda n: (-self.protocol_names[n], n))
        return min(self.entrant_names, key=lambda n: (-self.entrant_names[n], n),
                   default=self.spec)

    def aliases(self) -> list[str]:
        return sorted(set(self.entrant_names) | set(self.protocol_names) | self.specs)


class Roster:
    """Bots in the order they first appeared (the order of a tournament's
    entrants when it is given)."""

    def __init__(self) -> None:
        self.bots: list[Bot] = []
        self.index_of: dict[Key, int] = {}
        self.run_specs: dict[str | None, dict[str, set[str]]] = {}   # run -> spec -> names
        self.alone: set[tuple[str | None, str]] = set()   # (run, spec) seated under the spec alone
        self.changed = False    # a split made seats given earlier wrong (see
                                # results.RosterSplit)

    def declare(self, run: str, names_and_specs: Sequence[tuple[str, str]]) -> None:
        """The entrants of a run, known before any of its games."""
        for name, spec in names_and_specs:
            self._note(run, name, canonical(spec))
        for name, spec in names_and_specs:   # their indices: the entrants' order
            self._bot(self._seat_key(run, name, spec), spec).entrant_names[name] += 0
        self.changed = False

    def declare_record(self, record: Record) -> None:
        """Note a record's entrants without seating them (records noted
        before any is seated: no seat is keyed before a split, as no
        record is kept to seat again)."""
        for seat, name in enumerate(record["entrants"]):
            self._note(record.get("run"), name, canonical(self._spec(record, seat, name)))

    @staticmethod
    def _spec(record: Record, seat: int, name: str) -> str:
        bots = record.get("bots", [])
        return bots[seat].get("spec", name) if seat < len(bots) else name

    def seats(self, record: Record) -> list[int]:
        """Bot index of each seat of a record (its own entrants noted first:
        two names for one spec within the record split nothing seated)."""
        self.declare_record(record)
        run = record.get("run")
        out = []
        for seat, name in enumerate(record["entrants"]):
            bots = record.get("bots", [])
            entry = bots[seat] if seat < len(bots) else {}
            spec = self._spec(record, seat, name)
            key = self._seat_key(run, name, spec)
            bot = self._bot(key, spec)
            bot.specs.add(spec)
            bot.entrant_names[name] += 1
            if entry.get("name"):
                bot.protocol_names[str(entry["name"])] += 1
            out.append(self.index_of[key])
        return out

    def lookup(self, record: Record) -> list[int]:
        """Bot index of each seat of a record already seated (no count changes)."""
        return [self.index_of[self.key(record.get("run"), name, self._spec(record, seat, name))]
                for seat, name in enumerate(record["entrants"])]

    def key(self, run: str | None, name: str, spec: str) -> Key:
        """The key of an entrant of a run (after its entrants are noted)."""
        spec = canonical(spec)
        return (spec, name) if len(self.run_specs.get(run, {}).get(spec, ())) > 1 else (spec,)

    def _seat_key(self, run: str | None, name: str, spec: str) -> Key:
        """The key of a seat being given: a bot keyed by its spec alone is
        remembered, as a later second name would split it."""
        key = self._note(run, name, canonical(spec))
        if len(key) == 1:
            self.alone.add((run, key[0]))
        return key

    def _note(self, run: str | None, name: str, spec: str) -> Key:
        names = self.run_specs.setdefault(run, {}).setdefault(spec, set())
        if name not in names:
            names.add(name)
            if len(names) == 2 and (run, spec) in self.alone:
                self.changed = True   # seats given before keyed by spec alone
        return (spec, name) if len(names) > 1 else (spec,)

    def declared_like(self, other: Roster) -> None:
        """Take another roster's declarations (not its bots)."""
        self.run_specs = {run: {spec: set(names) for spec, names in specs.items()}
                          for run, specs in other.run_specs.items()}

    def _bot(self, key: Key, spec: str) -> Bot:
        if key not in self.index_of:
            self.index_of[key] = len(self.bots)
            self.bots.append(Bot(key, spec))
        return self.bots[self.index_of[key]]

    def names(self) -> list[str]:
        """Display names, unique (a repeated name gets #2, #3...)."""
        out: list[str] = []
        seen: Counter[str] = Counter()
        wanted = [bot.own_name() for bot in self.bots]
        counts = Counter(wanted)
        for name in wanted:
            seen[name] += 1
            out.append(name if counts[name] == 1 else f"{name}#{seen[name]}")
        return out

    def find(self, name: str) -> int | None:
        """Index of the bot known by this name or spec, or None."""
        names = self.names()
        if name in names:
            return names.index(name)
        hits = [i for i, bot in enumerate(self.bots)
                if name in bot.aliases() or canonical(name) == bot.key[0]]
        return hits[0] if len(hits) == 1 else None
