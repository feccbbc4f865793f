"""A tuning run: SPSA iterations over duplicate deals, each game recorded
as it ends. A resume replays the iterations from the records (theta after
each follows from the results alone) and plays only the games missing, so
it ends at the theta an uninterrupted run ends at."""
from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from coexist_ai.backends import Runner, session
from coexist_ai.interrupts import held
from coexist_ai.match import Record
from coexist_ai.progress import Progress
from coexist_ai.tournament import _play_one
from coexist_ai.tune.plan import Plan, TuneGame, iteration_result
from coexist_ai.tune.settings import Settings, TuneError, same_bot
from coexist_ai.tune.spsa import Dimension, Spsa
from coexist_ai.tune.store import Store


@dataclass
class Step:
    iteration: int
    plus: list[float | int]     # as the bots were given them
    minus: list[float | int]
    result: float
    theta: list[float]          # after the update


class Outcome:
    """What a run found: the history of theta and the tuned spec."""

    def __init__(self, settings: Settings, spsa: Spsa) -> None:
        self.settings, self.spsa = settings, spsa
        self.start = spsa.start()
        self.history: list[Step] = []
        self.games = self.forfeits = 0
        self.interrupted = False

    @property
    def theta(self) -> list[float]:
        return self.history[-1].theta if self.history else self.start

    @property
    def finished(self) -> bool:
        return len(self.history) == self.settings.iterations

    def shown(self) -> list[float | int]:
        """The tuned values as a spec gives them: whole numbers rounded,
        the others to a tenth of their step."""
        return [d.value(round(v, decimals(d.step))) for d, v in
                zip(self.settings.dimensions, self.theta)]

    @property
    def spec(self) -> str:
        return self.settings.spec(self.shown())


def decimals(step: float) -> int:
    return max(0, 1 - math.floor(math.log10(step)))


class RateEta:
    """Time left at the pace of the games played so far in this process
    (an iteration waits for its slowest game, so the pace of the parallel
    jobs is what counts, not one game's time)."""

    def __init__(self, left: int) -> None:
        self.left, self.seen, self.began = left, 0, time.monotonic()

    def observe(self, record: Record) -> None:
        self.seen, self.left = self.seen + 1, self.left - 1

    def seconds_left(self) -> float | None:
        if not self.seen:
            return None
        return (time.monotonic() - self.began) / self.seen * max(0, self.left)


def tune(settings: Settings, out: str | None = None, jobs: int = 1, backend: str = "local",
         address: str | None = None, progress: bool = True,
         echo: Callable[[str], None] = print) -> Outcome:
    """Run (or resume, from the records in the folder `out`) the tuning
    run of `settings`; returns its Outcome. Ctrl-C ends it with the
    history so far (Outcome.interrupted)."""
    store = Store(out, settings, echo) if out else None
    echo(describe(settings))
    if store and store.recorded:
        total = settings.iterations * settings.games_per_iteration
        echo(f"{out}: {len(store.recorded)} games already played, "
             f"{total - len(store.recorded)} to go")
    try:
        return _tune(settings, store, jobs, backend, address, progress)
    finally:
        if store:
            store.close()


def _tune(settings: Settings, store: Store | None, jobs: int, backend: str,
          address: str | None, progress: bool) -> Outcome:
    spsa = Spsa(settings.dimensions, settings.iterations, settings.seed, settings.rate)
    plan = settings.plan
    outcome = Outcome(settings, spsa)
    done = len(store.recorded) if store else 0
    total = settings.iterations * plan.per_iteration
    bar = Progress(total, done, lambda width, final: _line(outcome, width),
                   RateEta(total - done), progress)
    try:
        with session(jobs, backend, address) as play:
            for k in range(settings.iterations):
                _iteration(k, outcome, plan, store, play, bar)
    except KeyboardInterrupt:
        outcome.interrupted = True
    finally:
        bar.close()
        if store:
            store.write_history(*history_files(outcome))
    return outcome


def describe(settings: Settings) -> str:
    """The line that opens a run."""
    dims = ", ".join(f"{d.name} {d.start:g} in {d.low:g}..{d.high:g} (step {d.step:g})"
                     for d in settings.dimensions)
    match = (f"against {settings.against}" if settings.against else "theta+ vs theta-")
    return (f"tune {settings.bot}: {dims}; {settings.iterations} iterations of "
            f"{settings.games_per_iteration} games ({match}, {settings.players} players), "
            f"rate {settings.rate:.3g}, seed {settings.seed}")


def _iteration(k: int, outcome: Outcome, plan: Plan, store: Store | None, play: Runner,
               bar: Progress) -> None:
    settings, spsa = outcome.settings, outcome.spsa
    theta = outcome.theta
    plus, minus = spsa.perturbed(theta, k)
    specs = settings.spec(plus), settings.spec(minus)
    games = plan.games(k)
    results: dict[int, Record] = {}
    todo = []
    for game in games:
        head = record_head(settings, plan, game, specs)
        if store and game.index in store.recorded:
            line, record = store.recorded[game.index]
            _check_record(store.games_path, line, record, head)
            results[game.index] = record
        else:
            todo.append(_worker_args(settings, game, head))
    for record in play(_play_one, todo):
        with held():      # an interrupt now would leave a game saved but not counted
            if store:
                store.write(record)
            results[record["game"]] = record
        bar.update(record)
    outcome.games += len(games)
    outcome.forfeits += sum(1 for g in games if results[g.index]["forfeits"])
    if k == 0 and all(results[g.index]["forfeits"] for g in games):
        reason = results[games[0].index]["forfeits"][0]["reason"]
        raise TuneError(f"every game of the first iteration ended in a forfeit ({reason}): "
                        "stopping rather than tuning on forfeits")
    result = iteration_result(games, lambda g: results[g.index]["ranks"])
    outcome.history.append(Step(k, plus, minus, result, spsa.update(theta, k, result)))


def record_head(settings: Settings, plan: Plan, game: TuneGame,
                specs: tuple[str, str]) -> dict[str, Any]:
    """What the record of `game` says of its place and its bots."""
    return {"run": settings.run_id, "tournament": "tune", "seed": settings.seed,
            "game": game.index, "block": game.iteration * plan.deals + game.deal,
            "round": game.iteration, "rotation": game.rotation,
            "entrants": list(game.roles), "players": settings.players,
            "bots": [{"spec": spec, "seed": seed} for spec, seed in
                     zip(plan.specs(game, *specs), game.bot_seeds)]}


def _worker_args(settings: Settings, game: TuneGame,
                 head: dict[str, Any]) -> tuple[Any, ...]:
    meta = {k: v for k, v in head.items() if k not in ("players", "bots")}
    return (settings.cards_spec, settings.players, game,
            [b["spec"] for b in head["bots"]], meta, settings.card_set.sha256)


def _same_bots(recorded: object, ours: list[dict[str, Any]]) -> bool:
    """The same seeds, and specs that name the same bots (same_bot)."""
    return (isinstance(recorded, list) and len(recorded) == len(ours) and
            all(isinstance(r, dict) and r.get("seed") == o["seed"] and
                same_bot(r.get("spec"), o["spec"]) for r, o in zip(recorded, ours)))


def _check_record(path: str, line: int, record: Record, head: dict[str, Any]) -> None:
    for key, value in head.items():
        same = _same_bots(record.get(key), value) if key == "bots" else \
            record.get(key) == value
        if not same:
            raise TuneError(
                f"{path}:{line}: game {head['game']} is not the game this run "
                f"plays there: its {key} is {record.get(key)!r}, the run's {value!r} (a "
                "record edited, or of another version of the tuner); use another --out")


def _line(outcome: Outcome, width: int) -> str:
    """The iteration and theta, each parameter whole: on a narrow terminal
    the ones that do not fit are counted, not cut mid-name."""
    head = f"iteration {len(outcome.history)}/{outcome.settings.iterations}:"
    values = [f"{d.name} {format_value(d, v)}" for d, v in
              zip(outcome.settings.dimensions, outcome.theta)]
    for shown in range(len(values), 0, -1):
        left = len(values) - shown
        line = f"{head} {', '.join(values[:shown])}" + (f" (+{left} more)" if left else "")
        if len(line) <= width:
            return line
    return f"{head} (+{len(values)} more)"[:width].rstrip()


def format_value(dimension: Dimension, value: float) -> str:
    """theta as it moves: a whole-number parameter too shows its tenths."""
    return f"{value:.{1 if dimension.integer else decimals(dimension.step)}f}"


def history_files(outcome: Outcome) -> tuple[str, dict[str, Any]]:
    """(the CSV text, the JSON document) of the history of theta."""
    names = [d.name for d in outcome.settings.dimensions]
    header = ["iteration", "result"] + [f"{n}+" for n in names] + [f"{n}-" for n in names] + names
    rows = [",".join(header)]
    for step in outcome.history:
        rows.append(",".join(str(x) for x in [step.iteration, step.result, *step.plus,
                                              *step.minus, *step.theta]))
    spsa = outcome.spsa
    document = {
        "settings": outcome.settings.recorded or outcome.settings.identity(),
        "spec": outcome.spec,
        "finished": outcome.finished, "iterations_done": len(outcome.history),
        "games": outcome.games, "forfeits": outcome.forfeits,
        "start": dict(zip(names, outcome.start)), "theta": dict(zip(names, outcome.theta)),
        "tuned": dict(zip(names, outcome.shown())),
        "history": [{"iteration": s.iteration, "result": s.result,
                     "c": {d.name: spsa.c(s.iteration, d) for d in spsa.dimensions},
                     "a": {d.name: spsa.a(s.iteration, d) for d in spsa.dimensions},
                     "plus": dict(zip(names, s.plus)), "minus": dict(zip(names, s.minus)),
                     "theta": dict(zip(names, s.theta))} for s in outcome.history],
    }
    return "\n".join(rows) + "\n", document
