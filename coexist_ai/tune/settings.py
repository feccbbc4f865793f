"""What a tuning run is: the bot and the parameters it tunes, its
opponent, its budget, its seed and its card set. Everything here decides
the run's games; a run that resumes is checked against it, setting by
setting."""
from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from typing import Any

from coexist_ai.bots.spec import (BOT_TYPES, BotSpecError, Param, as_played, canonical_spec,
                                  model_identity, parse_spec)
from coexist_ai.cards import CardSet
from coexist_ai.errors import CoexistError
from coexist_ai.tune.plan import Plan
from coexist_ai.tune.spsa import Dimension, default_rate, default_step

FORMAT = "coexist-tune"
FORMAT_VERSION = 1
NOT_TUNED = ("seed",)          # numeric, but a seed has no better value


class TuneError(CoexistError):
    """A tuning run that cannot be made or resumed as asked."""


def numeric_params(bot: str) -> list[Param]:
    return [p for p in BOT_TYPES[bot][2]
            if p.kind in (int, float) and p.name not in NOT_TUNED]


def parse_dimension(text: str, bot: str, params: dict[str, Any]) -> Dimension:
    """A Dimension from `NAME=LO:HI[:STEP]`, starting where `params` (the
    spec's values) has it."""
    name, eq, bounds = text.partition("=")
    name, parts = name.strip(), bounds.split(":")
    if not eq or not name or len(parts) not in (2, 3):
        raise TuneError(f"--param {text!r}: expected NAME=LO:HI or NAME=LO:HI:STEP "
                        "(e.g. c=0.2:2 or rollout_depth=2:16:1)")
    known = {p.name: p for p in numeric_params(bot)}
    if name not in known:
        why = ("is a seed: no value of it plays better than another" if name in NOT_TUNED
               else "is not numeric" if name in params else "is not a parameter of it")
        raise TuneError(f"--param {text!r}: {name!r} {why}; the numeric parameters of "
                        f"{bot}: {', '.join(known) or 'none'}")
    param = known[name]
    low, high, *given = (_number(part, text, param.kind is int) for part in parts)
    _check_range(text, param, low, high)
    step = given[0] if given else default_step(low, high, param.kind is int)
    if not 0 < step <= (high - low) / 2:
        raise TuneError(f"--param {text!r}: STEP must be above 0 and at most half the "
                        f"range ({(high - low) / 2:g})")
    start = params[name]
    if not low <= start <= high:
        raise TuneError(f"--param {text!r}: {name} starts at {start} (the spec's value), "
                        f"outside {low:g}..{high:g}; widen the range or set {name} in the spec")
    return Dimension(name, param.kind is int, low, high, step, float(start))


def _number(part: str, text: str, whole: bool) -> float:
    try:
        value = float(part)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or (whole and value != int(value)):
        raise TuneError(f"--param {text!r}: {part!r} is not "
                        f"{'a whole number' if whole else 'a number'}")
    return value


def _check_range(text: str, param: Param, low: float, high: float) -> None:
    if not low < high:
        raise TuneError(f"--param {text!r}: LO must be below HI")
    if (param.low is not None and low < param.low) or (
            param.high is not None and high > param.high):
        raise TuneError(f"--param {text!r}: outside the range of {param.name}, "
                        f"{param.low:g}..{param.high:g}")


def _canonical(spec: str, former: bool = False) -> str:
    """A built-in bot's spec with every parameter spelled out (so that
    `greedy` and `greedy:max_nodes=20000` are one opponent); an external
    bot's as given. `former`: a parameter the spec does not set takes its
    former value (Param.former)."""
    name, params = parse_spec(spec, former)
    return spec if name == "external" else canonical_spec(name, params)


def same_bot(recorded: object, ours: object) -> bool:
    """Whether a spec a run recorded (spelled out when it was written) names
    the bot `ours` names. A parameter the recorded spec lacks was added
    since: it means the value the bot played with then (its former value),
    so a parameter added with a default that plays as before leaves a run
    resumable, while a default that changed does not (the recorded spec
    spells the old value out, or lacks a parameter whose default is new)."""
    if not isinstance(recorded, str) or not isinstance(ours, str):
        return recorded == ours
    try:
        return _canonical(recorded, former=True) == _canonical(ours)
    except BotSpecError:        # a parameter this version no longer has
        return False


def same_models(recorded: object, ours: object) -> bool:
    """Whether the model files a run recorded (sha256 by bot spec) are the
    ones `ours` lists, the bots matched as same_bot matches them: a
    parameter added since changes the spelled-out keys, not the bots."""
    if not isinstance(recorded, dict) or not isinstance(ours, dict):
        return recorded == ours
    return len(recorded) == len(ours) and all(
        any(same_bot(bot, mine) and sha == ours[mine] for mine in ours)
        for bot, sha in recorded.items())


class Settings:
    """A tuning run's settings. `against` None: theta+ plays theta- (2
    players only); otherwise each plays the deal against that opponent."""

    def __init__(self, spec: str, param_texts: Sequence[str], against: str | None,
                 players: int, iterations: int, games: int | None, seed: int,
                 rate: float | None, cards_spec: str, card_set: CardSet) -> None:
        """`games`: an iteration's games, rounded up to whole deals (None: one)."""
        self.bot, self.base = parse_spec(spec)
        if self.bot == "external":
            raise TuneError(f"{spec!r} is an external bot: only the built-in bots' "
                            "parameters have types and ranges to tune (see `coexist-ai bots`)")
        # a tuned parameter starts where the bot plays at this player count
        # (rollout_depth -1: four rounds, in turns)
        start = as_played(self.base, players)
        self.dimensions = [parse_dimension(t, self.bot, start) for t in param_texts]
        self._refuse_repeats()
        if against is None and players > 2:
            against = canonical_spec(self.bot, self.base)   # the bot as it starts
        if against is not None:
            against = _canonical(against)
        self.against, self.players, self.iterations = against, players, iterations
        self.seed, self.cards_spec, self.card_set = seed, cards_spec, card_set
        per_deal = Plan(players, against, 1, seed).per_iteration
        self.deals = -(-(games or per_deal) // per_deal)
        self.plan = Plan(players, against, self.deals, seed)
        self.rate = default_rate(iterations) if rate is None else rate
        for corner in ("low", "high"):     # a range whose ends make no bot
            self.spec([getattr(d, corner) for d in self.dimensions])
        self.recorded: dict[str, Any] | None = None     # run.json of a resumed run
        # each model file a learned bot of the run reads, by its sha256 (read
        # once: a model retrained in place between two runs makes two runs)
        specs = {canonical_spec(self.bot, self.base), against}
        self.models = {spec: sha for spec in sorted(s for s in specs if s)
                       if (sha := model_identity(spec)) is not None}

    def _refuse_repeats(self) -> None:
        names = [d.name for d in self.dimensions]
        if not names:
            raise TuneError("nothing to tune: give at least one --param NAME=LO:HI")
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise TuneError(f"--param {twice[0]} given twice: give each parameter once")

    @property
    def games_per_iteration(self) -> int:
        return self.plan.per_iteration

    def spec(self, values: Sequence[float]) -> str:
        """The spec string of the bot with the tuned parameters at `values`
        (as Dimension.value gives them), every parameter spelled out."""
        params = dict(self.base)
        for d, value in zip(self.dimensions, values):
            params[d.name] = d.value(value)
        spec = canonical_spec(self.bot, params)
        parse_spec(spec)    # a pair of values the bot refuses stops the run here
        return spec

    def identity(self) -> dict[str, Any]:
        """What decides the games (run.json): a resume must match it."""
        ident = {
            "format": FORMAT, "version": FORMAT_VERSION,
            "spec": canonical_spec(self.bot, self.base),
            "params": [{"name": d.name, "low": d.low, "high": d.high, "step": d.step}
                       for d in self.dimensions],
            "against": self.against, "players": self.players,
            "iterations": self.iterations, "deals_per_iteration": self.deals,
            "seed": self.seed, "rate": self.rate,
            "card_set": {"name": self.card_set.name, "sha256": self.card_set.sha256},
        }
        if self.models:     # (only then: the ids of runs without a learned bot stand)
            ident["models"] = self.models
        return ident

    def resume(self, recorded: dict[str, Any]) -> None:
        """Go on with a run whose run.json (`recorded`) matches these
        settings: its games keep the run id they were recorded under."""
        self.recorded = recorded

    @property
    def run_id(self) -> str:
        text = json.dumps(self.recorded or self.identity(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]
