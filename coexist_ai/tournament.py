"""Running a tournament: games in parallel processes, records appended as
they finish, resumable, with a live progress line."""
from __future__ import annotations

import hashlib
import itertools
import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol

from coexist_ai.backends import execute
from coexist_ai.bots import make_bot
from coexist_ai.bots.spec import changed_defaults, model_identity, preset_identity
from coexist_ai.cards import CardSet, CardSetError, packaged_by_sha256, resolve_card_set
from coexist_ai.interrupts import held
from coexist_ai.live import LiveLine
from coexist_ai.match import Player, Record, UnstartableBot, play_game
from coexist_ai.progress import Eta, Progress
from coexist_ai.records import (RecordsError, RecordWriter, numbered_records,
                                repair_truncated_tail)
from coexist_ai.paths import StrPath
from coexist_ai.repeats import GameSet, Repeats
from coexist_ai.results import BotsFailing, Standings
from coexist_ai.schedule import Entrant, GameSpec, Schedule

Echo = Callable[[str], object]    # where messages go (print, click.echo)
# the card set as the user named it (a name or a path), or the set itself
CardsSpec = str | CardSet
# the middle of the progress line, made from the standings it shows
LiveFactory = Callable[[Standings], Callable[[int, bool], str]]


def _identities(entrants: list[Entrant], identity: Callable[[str], Any]) -> dict[str, Any]:
    """{spec: identity(spec)} of the entrants whose identity is not None,
    each spec read once (a model identity reads the whole model file)."""
    found = {e.spec: identity(e.spec) for e in entrants}
    return {spec: value for spec, value in found.items() if value is not None}


class Tournament:
    """Everything that defines a tournament's games."""

    def __init__(self, name: str, entrants: Iterable[Entrant], players: int, mode: str,
                 rounds: int, seed: int, cards: CardsSpec = "default",
                 anchor: str | None = None) -> None:
        self.name, self.entrants, self.players = name, list(entrants), players
        self.mode, self.rounds, self.seed = mode, rounds, seed
        self.cards_spec = cards
        self.card_set = resolve_card_set(cards)
        self.anchor = anchor
        for entrant in self.entrants:   # refuse a bad spec before any game
            make_bot(entrant.spec).close()
        # what each preset says now, read once: an edit during the run
        # changes neither its id nor its bots' spelled-out identity
        self.presets = _identities(self.entrants, preset_identity)
        # which model each learned bot reads (a file retrained in place),
        # and the defaults each relies on that changed since they began
        self.models = _identities(self.entrants, model_identity)
        self.defaults = _identities(self.entrants,
                                    lambda spec: changed_defaults(spec, players))
        self.schedule = Schedule(mode, self.entrants, players, seed, rounds)

    @property
    def run_id(self) -> str:
        """Identifies the games (not how many): more rounds extend a run."""
        ident = {"name": self.name, "mode": self.mode, "players": self.players,
                 "seed": self.seed, "card_set": self.card_set.sha256,
                 "entrants": [[e.name, e.spec] for e in self.entrants]}
        if self.presets:    # (only then: the ids of runs without presets stand)
            ident["presets"] = self.presets
        if self.models:     # (likewise)
            ident["models"] = self.models
        if self.defaults:
            ident["defaults"] = self.defaults
        return hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()[:16]

    def meta(self, game: GameSpec) -> dict[str, Any]:
        return {"run": self.run_id, "tournament": self.name, "seed": self.seed,
                "game": game.index,
                "block": game.block, "round": game.round, "rotation": game.rotation,
                "entrants": [self.entrants[i].name for i in game.lineup]}

    def record_head(self, index: int) -> dict[str, Any]:
        """What the record of the game at `index` says of its place in the
        schedule and of who played it."""
        game = self.schedule.game(index)
        bots = [{"spec": self.entrants[i].spec, "seed": seed}
                for i, seed in zip(game.lineup, game.bot_seeds)]
        return dict(self.meta(game), players=self.players, bots=bots)


class Seeded(Protocol):
    """What playing a game needs of its place in a schedule (a
    tournament's GameSpec, a tuning run's TuneGame): its seeds."""

    @property
    def deal_seed(self) -> int: ...

    @property
    def bot_seeds(self) -> tuple[int, ...]: ...


def _play_one(cards_spec: CardsSpec, players: int, game: Seeded, specs: Sequence[str],
              meta: dict[str, Any], sha256: str | None = None) -> Record:
    """Worker: play one scheduled game (in whatever process). `sha256`: the
    card set the run started with; a file edited since is refused, rather
    than its games recorded as if they were the run's."""
    card_set = resolve_card_set(cards_spec)
    if sha256 and card_set.sha256 != sha256:
        raise CardSetError(str(cards_spec), f"changed during the run (sha256 "
                           f"{card_set.sha256[:12]}..., the run's {sha256[:12]}...): the "
                           "records written are intact; restore the file to resume")
    bots: list[Player] = [_make_bot(spec, seed) for spec, seed in zip(specs, game.bot_seeds)]
    try:
        return play_game(card_set, players, game.deal_seed, bots, specs,
                         list(game.bot_seeds), meta)
    finally:
        for bot in bots:
            _close(bot)


def _make_bot(spec: str, seed: int) -> Player:
    """The bot of a seat; one that cannot be made (its spec was checked,
    but making it can still fail: memory, a preset file gone) forfeits."""
    try:
        return make_bot(spec, seed)
    except Exception as error:
        return UnstartableBot(spec, error)


def _close(bot: Player) -> None:
    """The game is decided and its record made: a bot failing to close
    must not lose it."""
    try:
        bot.close()
    except Exception:
        pass


def load_existing(path: StrPath | None, tournament: Tournament, standings: Standings,
                  warn: Echo, count: Callable[[Record], object] | None = None
                  ) -> tuple[GameSet, int]:
    """Count the records already in `path` for this tournament into
    `standings` (and `count(record)`, if given), one line at a time, each
    game once (repairing a cut-off last line); refuses records of another
    tournament, another card set, or that its schedule does not hold.
    Returns the games done (a GameSet) and the bytes repaired."""
    repeats = Repeats()
    if not path or not os.path.exists(path):
        return repeats.seen[tournament.run_id], 0
    for line, record in numbered_records(path):   # all checked before anything is cut off
        _check_belongs(path, line, record, tournament)
        if not repeats.is_repeat(path, line, record):
            standings.add(record)
            if count:
                count(record)
    repaired = repair_truncated_tail(path)
    repeats.report([path], warn)
    return repeats.seen[tournament.run_id], repaired


def _as_scheduled(key: str, recorded: Any) -> Any:
    """A record's field as the schedule would have it: a bots entry may
    also carry the name an external bot gave itself over the protocol,
    which the schedule cannot know (without this, no run with such a bot
    could be resumed)."""
    if key != "bots" or not isinstance(recorded, list):
        return recorded
    return [{k: v for k, v in bot.items() if k != "name"} if isinstance(bot, dict) else bot
            for bot in recorded]


def _check_belongs(path: StrPath, line: int, record: Record, tournament: Tournament) -> None:
    where = f"{path}:{line}: game {record['game']}"
    if record["card_set"]["sha256"] != tournament.card_set.sha256:
        packaged = packaged_by_sha256(record["card_set"]["sha256"])
        hint = f" (resume it with --cards {packaged.name})" if packaged else ""
        raise RecordsError(f"{where} was played with card set {record['card_set']!r}, "
                           f"not {tournament.card_set.name!r}{hint}; use another --out "
                           "file")
    if record["run"] != tournament.run_id:
        raise RecordsError(f"{where} belongs to another tournament (run {record['run']!r}, "
                           f"this one is {tournament.run_id}); use another --out file")
    for key, value in tournament.record_head(record["game"]).items():
        if _as_scheduled(key, record.get(key)) != value:
            raise RecordsError(f"{where} is not the game this tournament's schedule has "
                               f"at {record['game']}: its {key} is {record.get(key)!r}, the "
                               f"schedule's {value!r}; use another --out file")


def run(tournament: Tournament, out: StrPath | None = None, jobs: int | None = None,
        progress: bool = True, stop_rule: Callable[[Standings], bool] | None = None,
        echo: Echo = print, backend: str = "local", address: str | None = None,
        stop_failing: bool = True, live: LiveFactory = LiveLine,
        count: Callable[[Record], object] | None = None) -> Standings:
    """Play every game of the schedule not yet in `out` (in `jobs` local
    processes, or on a Ray cluster); returns Standings. A bot that forfeits
    each of its first games stops the run (BotsFailing) unless not
    `stop_failing`. The records file is locked for the whole run: a second
    run on it is refused. `live(standings)`: the middle of the progress
    line; `count(record)`: called with every record the standings count,
    those already in `out` and those played (the standings keep figures,
    not records: a caller that wants more of them takes it here)."""
    writer = RecordWriter(out) if out else None     # before reading: the lock
    try:
        return _run(tournament, out, writer, jobs or os.cpu_count() or 1, progress,
                    stop_rule, echo, backend, address, stop_failing, live, count)
    finally:
        if writer:
            writer.close()


def _run(tournament: Tournament, out: StrPath | None, writer: RecordWriter | None, jobs: int,
         progress: bool, stop_rule: Callable[[Standings], bool] | None, echo: Echo,
         backend: str, address: str | None, stop_failing: bool, live: LiveFactory,
         count: Callable[[Record], object] | None) -> Standings:
    standings = Standings(tournament)
    done, repaired = load_existing(out, tournament, standings, echo, count)
    if repaired:
        echo(f"{out}: removed a cut-off last line ({repaired} bytes): "
             "that game is played again")
    schedule = tournament.schedule
    todo = schedule.games(skip=done)    # lazy: made as the workers need them
    if done:
        left = len(schedule) - sum(1 for index in done if index < len(schedule))
        echo(f"{out}: {len(done)} games already played, {left} to go")
    eta = Eta([[tournament.entrants[i].name for i in g.lineup] for g in
               itertools.islice(schedule.games(), schedule.games_per_round)],
              schedule.rounds, done, jobs)
    bar = Progress(len(schedule), len(done), live(standings), eta, progress)
    try:
        for record in _execute(tournament, todo, jobs, backend, address):
            with held():     # an interrupt now would leave a game saved but not counted
                if writer:
                    writer.write(record)
                standings.add(record)
                if count:
                    count(record)
            failing = stop_failing and standings.failing_bot()
            if failing:
                raise BotsFailing(failing)
            stop = stop_rule and stop_rule(standings)
            bar.update(record)
            if stop:
                break
    except KeyboardInterrupt:   # the caller prints what was played and how to resume
        standings.interrupted = True
    finally:
        bar.close()
    return standings


def _execute(tournament: Tournament, games: Iterable[GameSpec], jobs: int,
             backend: str = "local", address: str | None = None) -> Iterator[Record]:
    """Records of `games`, as they finish."""
    def args(game: GameSpec) -> tuple[Any, ...]:
        specs = [tournament.entrants[i].spec for i in game.lineup]
        return (tournament.cards_spec, tournament.players, game, specs,
                tournament.meta(game), tournament.card_set.sha256)
    return execute(_play_one, (args(g) for g in games), jobs, backend, address)
