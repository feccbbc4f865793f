"""Bot spec strings: `name`, `name:key=value,key=value`, a preset file, or
an external bot: `cmd:COMMAND` or a TOML file with `bot = "external"`.

Every command that takes a bot takes a spec. Unknown names and parameters
are refused with the valid ones listed.
"""
from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from typing import Any

from coexist_ai import _search
from coexist_ai.bots.base import Bot
from coexist_ai.bots.builtin import GreedyBot, IsmctsBot, RandomBot
from coexist_ai.errors import CoexistError


class BotSpecError(CoexistError):
    """A bot spec that names no bot, or a parameter the bot does not have."""


@dataclass(frozen=True)
class Param:
    name: str
    kind: type
    default: object
    help: str
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] | None = None

    def parse(self, text: str, spec: str) -> Any:
        try:
            value = _convert(self.kind, text)
        except ValueError:
            raise BotSpecError(f"{spec!r}: {self.name}={text!r} is not "
                               f"{_kind_name(self.kind)}") from None
        if value != value:   # NaN passes every range check: time=nan searched forever
            raise BotSpecError(f"{spec!r}: {self.name}={text!r} is not "
                               f"{_kind_name(self.kind)}")
        if self.choices and value not in self.choices:
            raise BotSpecError(f"{spec!r}: {self.name}={text!r}: expected one of "
                               f"{', '.join(self.choices)}")
        if (self.low is not None and value < self.low) or (
                self.high is not None and value > self.high):
            raise BotSpecError(f"{spec!r}: {self.name}={text!r} is out of range "
                               f"{self.low}..{self.high}")
        return value


def _convert(kind: type, text: str) -> Any:
    if kind is bool:
        if str(text).lower() in ("1", "true", "yes", "on"):
            return True
        if str(text).lower() in ("0", "false", "no", "off"):
            return False
        raise ValueError(text)
    return kind(text)


def _kind_name(kind: type) -> str:
    return {int: "a whole number", float: "a number", bool: "true or false",
            str: "a word"}[kind]


SEED_MAX = 2**63 - 1   # the largest signed 64-bit integer
SEED = Param("seed", int, 0, "seed of every random choice the bot makes", 0, SEED_MAX)

BOT_TYPES: dict[str, tuple[type[Bot], str, list[Param]]] = {
    "random": (RandomBot, "uniformly random legal moves", [SEED]),
    "greedy": (GreedyBot, "best end of its own turn by a hand-written evaluation", [
        # the compiled search's own bounds: a spec that passes here never
        # fails when the bot first moves (every game of it a forfeit)
        Param("max_nodes", int, 20000, "positions searched per decision", 1,
              _search.GREEDY_MAX_NODES),
        SEED]),
    "ismcts": (IsmctsBot, "determinized ISMCTS (compiled, root-parallel)", [
        Param("iterations", int, 5000, "iterations per decision (0: use time)", 0, 10**9),
        Param("time", float, 0.0, "seconds per decision (0: use iterations)", 0, 3600),
        Param("c", float, 0.7, "UCB exploration constant", 0, 100),
        Param("reward", str, "rank", "win, rank (share of seats beaten) or margin",
              choices=("win", "rank", "margin")),
        Param("margin_weight", float, 0.1, "share of the score-margin reward blended in", 0, 1),
        Param("policy", str, "light", "rollout policy: random or light (weighted by move kind)",
              choices=("random", "light")),
        Param("rollout_depth", int, 8, "turns before a rollout is cut off and evaluated (0: to the end)", 0, 10**6),
        Param("discount", float, 0.9, "a result k rounds later than the end the position leads one to expect counts discount^k, so a won game is brought to its end (1: off)", 0.01, 1),
        Param("threads", int, 1, "root-parallel search threads", 1, 64),
        Param("max_nodes", int, 200_000, "node pool size, all threads (bounded memory)", 16,
              min(10**8, _search.MAX_TREE_NODES)),
        Param("reuse", bool, True, "keep the subtree of the position reached"),
        SEED]),
}


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """(bot name, {param: value}) with defaults filled in."""
    if not isinstance(spec, str) or not spec.strip():
        raise BotSpecError(f"empty bot spec {spec!r}: expected one of "
                           f"{', '.join(BOT_TYPES)} (or a preset .toml file)")
    spec = spec.strip()
    if spec.startswith("cmd:"):
        from coexist_ai.protocol.specs import params_from_command
        return "external", params_from_command(spec[len("cmd:"):], spec)
    if spec.endswith(".toml") or spec.startswith("preset:"):
        return _parse_preset(spec)
    name, _, rest = spec.partition(":")
    if name not in BOT_TYPES:
        raise BotSpecError(f"unknown bot {name!r} in {spec!r}: expected one of "
                           f"{', '.join(BOT_TYPES)} (see `coexist-ai bots`)")
    params: dict[str, Any] = {p.name: p.default for p in BOT_TYPES[name][2]}
    given = set()
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        _set_param(name, params, key.strip(), value.strip() if eq else None, spec)
        given.add(key.strip())
    if name == "ismcts" and "time" in given and "iterations" not in given:
        params["iterations"] = 0      # a time budget alone: search until time
    if name == "ismcts" and params["iterations"] == 0 and params["time"] == 0:
        raise BotSpecError(f"{spec!r}: ismcts needs iterations > 0 or time > 0")
    if name == "ismcts" and params["max_nodes"] < 2 * params["threads"]:
        raise BotSpecError(f"{spec!r}: max_nodes must be at least 2 per thread "
                           f"({2 * params['threads']} for {params['threads']} threads)")
    return name, params


def _set_param(name: str, params: dict[str, Any], key: str, text: str | None,
               spec: str) -> None:
    known = {p.name: p for p in BOT_TYPES[name][2]}
    if key not in known:
        raise BotSpecError(f"{spec!r}: bot {name!r} has no parameter {key!r}; "
                           f"its parameters: {', '.join(known)}")
    if text is None:
        raise BotSpecError(f"{spec!r}: parameter {key!r} needs a value ({key}=...)")
    params[key] = known[key].parse(text, spec)


def _parse_preset(spec: str) -> tuple[str, dict[str, Any]]:
    path = spec
    if spec.startswith("preset:"):
        path = os.path.join("bots", "presets", spec[len("preset:"):] + ".toml")
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise BotSpecError(f"preset {spec!r}: no file {path!r}") from None
    except tomllib.TOMLDecodeError as e:
        raise BotSpecError(f"preset {path!r}: not valid TOML: {e}") from None
    if data.get("bot") == "external":
        from coexist_ai.protocol.specs import params_from_toml
        return "external", params_from_toml(data, path)
    bot = data.pop("bot", None)
    data.pop("description", None)
    if bot not in BOT_TYPES:
        raise BotSpecError(f"preset {path!r}: 'bot' must be one of "
                           f"{', '.join(BOT_TYPES)} or external, got {bot!r}")
    items = ",".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}"
                     for k, v in data.items())
    return parse_spec(f"{bot}:{items}" if items else bot)


def canonical_spec(name: str, params: dict[str, Any]) -> str:
    """The spec string with every parameter spelled out (for records)."""
    return name + ":" + ",".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}"
                                 for k, v in params.items())


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot from its spec; `seed` (if given) replaces the spec's seed."""
    name, params = parse_spec(spec)
    if seed is not None:
        params["seed"] = seed
    if name == "external":
        from coexist_ai.protocol.client import ExternalBot
        return ExternalBot(spec, params)
    cls = BOT_TYPES[name][0]
    return cls(spec, params)


def describe_bots() -> str:
    """The text of `coexist-ai bots`."""
    lines: list[str] = []
    for name, (_, summary, params) in BOT_TYPES.items():
        lines.append(f"{name}: {summary}")
        for p in params:
            extra = f" ({'|'.join(p.choices)})" if p.choices else ""
            lines.append(f"    {p.name:<14} default {p.default!s:<9} {p.help}{extra}")
    lines.append("A spec is NAME or NAME:key=value,...; a preset file: "
                 "path/to/preset.toml or preset:NAME (bots/presets/NAME.toml).")
    lines.append("An external bot (any program speaking docs/protocol.md): "
                 "cmd:[move_time=S] [time_margin=S] [start_timeout=S] [cwd=DIR] "
                 "[option.NAME=VALUE ...] COMMAND, or a .toml file with bot = \"external\", "
                 "command = [...], cwd, options = {...}, move_time, start_timeout, "
                 "time_margin (paths relative to the file's folder).")
    return "\n".join(lines)
