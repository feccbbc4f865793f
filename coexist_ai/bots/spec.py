"""Bot spec strings: `name`, `name:key=value,key=value`, a preset file, or
an external bot: `cmd:COMMAND` or a TOML file with `bot = "external"`.

Every command that takes a bot takes a spec. Unknown names and parameters
are refused with the valid ones listed.
"""
from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

from coexist_ai import _search
from coexist_ai.bots.base import Bot
from coexist_ai.bots.builtin import (ROLLOUT_ROUNDS, GreedyBot, IsmctsBot, RandomBot,
                                     rollout_turns)
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
    # the value the bot played with before this parameter existed or its
    # default last changed (None: the default): what a spec written then
    # that does not set it means
    former: object = None

    def former_value(self) -> object:
        return self.default if self.former is None else self.former

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


PRESETS = resources.files("coexist_ai") / "data" / "presets"

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
        Param("iterations", int, 5000, "iterations per decision (0: none; given another budget alone, 0)", 0, 10**9),
        Param("time", float, 0.0, "seconds per decision (0: none)", 0, 3600),
        Param("turn_time", float, 0.0, "seconds per turn, all its decisions (0: none); "
              "per-decision budgets still cap each decision", 0, 3600),
        Param("turn_iterations", int, 0, "iterations per turn, all its decisions (0: none)",
              0, 10**9),
        Param("c", float, 0.7, "UCB exploration constant", 0, 100),
        Param("reward", str, "rank", "win, rank (share of seats beaten) or margin",
              choices=("win", "rank", "margin")),
        Param("margin_weight", float, 0.1, "share of the score-margin reward blended in", 0, 1),
        Param("policy", str, "fitted", "rollout policy: random, light (weighted by move "
              "kind) or fitted (a softmax over move features fitted to strong play)",
              choices=("random", "light", "fitted"), former="light"),
        Param("policy_model", str, "default", "policy=fitted: default (the shipped weights, "
              "fitted to published games of the default search on the default card set), "
              "v2 (fitted on reconstructed-v2) or a .json written by `coexist-ai fit-policy`"),
        Param("rollout_depth", int, -1, "turns before a rollout is cut off and evaluated "
              f"(0: to the end; -1: {ROLLOUT_ROUNDS} rounds, that is {2 * ROLLOUT_ROUNDS} turns at "
              f"2 players, {3 * ROLLOUT_ROUNDS} at 3 and {4 * ROLLOUT_ROUNDS} at 4)", -1, 10**6,
              former=8),
        Param("discount", float, 0.9, "at each node, a result k rounds later than the end expected there counts discount^k, so a won game is brought to its end (1: off)", 0.01, 1),
        Param("prior", float, 3.0, "virtual visits of each new move at the cut-off "
              "evaluation of the position it leads to (0: off, untried moves first)", 0,
              _search.MAX_PRIOR, former=0.0),
        Param("widen", float, 0.0, "a move that reveals cards keeps at most widen x "
              "sqrt(its visits) outcomes, and later iterations replay the least visited "
              "of them, so the tree grows past the turn's end (0: every outcome its own "
              "child)", 0, _search.MAX_WIDEN),
        Param("threads", int, 1, "root-parallel search threads", 1, 64),
        Param("max_nodes", int, 200_000, "node pool size, all threads (bounded memory)", 16,
              min(10**8, _search.MAX_TREE_NODES)),
        Param("reuse", bool, True, "keep the subtree of the position reached"),
        Param("eval", str, "learned", "evaluation at the rollout cut-off: hand (csrc/cx_eval.c) "
              "or learned (the model of `model`)", choices=("hand", "learned"), former="hand"),
        Param("model", str, "default", "eval=learned: default (the shipped model, trained "
              "on the default card set), v1 (the first, trained on reconstructed-v1) or a "
              ".npz written by `coexist-ai train`"),
        SEED]),
}


# ismcts budgets besides `iterations`: giving one alone drops its default
OTHER_BUDGETS = ("time", "turn_time", "turn_iterations")


def parse_spec(spec: str, former: bool = False) -> tuple[str, dict[str, Any]]:
    """(bot name, {param: value}) with defaults filled in, or with
    `former` each parameter's former value (Param.former): what the spec
    meant when the bots' defaults were those before any changed."""
    if not isinstance(spec, str) or not spec.strip():
        raise BotSpecError(f"empty bot spec {spec!r}: expected one of "
                           f"{', '.join(BOT_TYPES)} (or a preset .toml file)")
    spec = spec.strip()
    if spec.startswith("cmd:"):
        from coexist_ai.protocol.specs import params_from_command
        return "external", params_from_command(spec[len("cmd:"):], spec)
    if is_preset(spec):
        return _parse_preset(spec, former)
    name, _, rest = spec.partition(":")
    if name not in BOT_TYPES:
        raise BotSpecError(f"unknown bot {name!r} in {spec!r}: expected one of "
                           f"{', '.join(BOT_TYPES)} (see `coexist-ai bots`)")
    params: dict[str, Any] = {p.name: p.former_value() if former else p.default
                              for p in BOT_TYPES[name][2]}
    given = set()
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        _set_param(name, params, key.strip(), value.strip() if eq else None, spec)
        given.add(key.strip())
    if name == "ismcts" and given & set(OTHER_BUDGETS) and "iterations" not in given:
        params["iterations"] = 0      # another budget alone: no iteration cap
    if name == "ismcts" and not any(params[k] for k in ("iterations",) + OTHER_BUDGETS):
        raise BotSpecError(f"{spec!r}: ismcts needs a budget: iterations, time, "
                           "turn_time or turn_iterations > 0")
    if name == "ismcts" and params["max_nodes"] < 2 * params["threads"]:
        raise BotSpecError(f"{spec!r}: max_nodes must be at least 2 per thread "
                           f"({2 * params['threads']} for {params['threads']} threads)")
    if name == "ismcts" and not former:
        # (a spec read as it was meant before is only compared, never
        # played: `model=` without `eval` meant nothing then)
        _check_learned(params, spec)
    return name, params


def _check_learned(params: dict[str, Any], spec: str) -> None:
    """A learned evaluation's model file is read (and checked) with the spec,
    so that a bad file is refused before any game starts."""
    from coexist_ai.learn.model import SHIPPED, ModelFileError, resolve_model
    if params["eval"] == "hand" and params["model"] != SHIPPED:
        raise BotSpecError(f"{spec!r}: model= is read only with eval=learned")
    if params["eval"] == "learned":
        try:
            resolve_model(params["model"])
        except ModelFileError as e:
            raise BotSpecError(f"{spec!r}: {e}") from None
    _check_policy(params, spec)


def _check_policy(params: dict[str, Any], spec: str) -> None:
    """The fitted policy's weight file, read (and checked) with the spec."""
    from coexist_ai.learn.policy import SHIPPED_POLICY, PolicyFileError, resolve_policy
    if params["policy"] != "fitted":
        if params["policy_model"] != SHIPPED_POLICY:
            raise BotSpecError(f"{spec!r}: policy_model= is read only with policy=fitted")
        return
    try:
        resolve_policy(params["policy_model"])
    except PolicyFileError as e:
        raise BotSpecError(f"{spec!r}: {e}") from None


def _set_param(name: str, params: dict[str, Any], key: str, text: str | None,
               spec: str) -> None:
    known = {p.name: p for p in BOT_TYPES[name][2]}
    if key not in known:
        raise BotSpecError(f"{spec!r}: bot {name!r} has no parameter {key!r}; "
                           f"its parameters: {', '.join(known)}")
    if text is None:
        raise BotSpecError(f"{spec!r}: parameter {key!r} needs a value ({key}=...)")
    params[key] = known[key].parse(text, spec)


def shipped_presets() -> list[str]:
    """Names of the presets in the package (coexist_ai/data/presets/)."""
    return sorted(p.name[:-len(".toml")] for p in PRESETS.iterdir()
                  if p.name.endswith(".toml"))


def _preset_path(spec: str) -> str:
    """The file of a preset spec: `preset:NAME` is one shipped in the
    package, found from any directory; anything else is a path."""
    if not spec.startswith("preset:"):
        return spec
    name = spec[len("preset:"):]
    if name not in shipped_presets():
        raise BotSpecError(f"no preset {name!r}: the shipped presets are "
                           f"{', '.join(shipped_presets())} (a preset of your own "
                           "goes by its path: path/to/mine.toml)")
    return str(PRESETS / f"{name}.toml")


def _read_preset(path: str, spec: str) -> dict[str, Any]:
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise BotSpecError(f"preset {spec!r}: no file {path!r}") from None
    except tomllib.TOMLDecodeError as e:
        raise BotSpecError(f"preset {path!r}: not valid TOML: {e}") from None


def _parse_preset(spec: str, former: bool = False) -> tuple[str, dict[str, Any]]:
    path = _preset_path(spec)
    data = _read_preset(path, spec)
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
    return parse_spec(f"{bot}:{items}" if items else bot, former)


def is_preset(spec: str) -> bool:
    return spec.startswith("preset:") or spec.endswith(".toml")


def preset_identity(spec: str) -> str | None:
    """What a preset file says (its bot and the parameters it sets, not
    its description or comments), or None if `spec` is no preset. A preset
    is a file people edit: a run's identity includes what its presets say,
    so that a preset edited between two runs makes them two runs rather
    than one mixing two bots. Like a spec string, it leaves defaults out:
    a parameter added to the bots later changes no run's identity."""
    if not is_preset(spec.strip()):
        return None
    data = _read_preset(_preset_path(spec.strip()), spec)
    data.pop("description", None)
    return json.dumps(data, sort_keys=True, default=str)


def changed_defaults(spec: str, players: int) -> dict[str, Any] | None:
    """{param: value} of the defaults a spec relies on that play otherwise
    at `players` than they did (Param.former), or None if there is none. A
    run's identity includes them: a run begun before a default changed and
    resumed after would rate two bots as one, yet a parameter added since,
    or a default that plays as before at this player count (four rounds of
    rollout are the former 8 turns at 2 players), changes no run's
    identity."""
    name, now = parse_spec(spec)
    if name == "external":
        return None
    _, then = parse_spec(spec, former=True)
    played_now, played_then = as_played(now, players), as_played(then, players)
    changed = {k: v for k, v in now.items() if played_then[k] != played_now[k]}
    return changed or None


def as_played(params: dict[str, Any], players: int) -> dict[str, Any]:
    """A bot's parameters as they play at `players`: rollout_depth -1
    (four rounds) in turns, which depend on it."""
    if "rollout_depth" not in params:
        return params
    return dict(params, rollout_depth=rollout_turns(params["rollout_depth"], players))


def model_identity(spec: str) -> str | None:
    """The sha256 of the model file a learned ismcts bot reads (joined by
    "+" to that of the weight file of policy=fitted, if it rolls out by
    it), or None for a bot that reads neither. A model file is retrained in
    place (the shipped one with the package, a user's own at its path): a
    run's identity includes what the files are, so games of two models are
    never rated as one bot's."""
    name, params = parse_spec(spec)
    if name != "ismcts":
        return None
    from coexist_ai.learn.model import model_path
    from coexist_ai.learn.policy import policy_path
    files = ([model_path(params["model"])] if params["eval"] == "learned" else []) + \
        ([policy_path(params["policy_model"])] if params["policy"] == "fitted" else [])
    shas = [hashlib.sha256(path.read_bytes()).hexdigest() for path in files]
    return "+".join(shas) or None


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
            lines.append(f"    {p.name:<15} default {p.default!s:<9} {p.help}{extra}")
    lines.append("A spec is NAME or NAME:key=value,...; a preset file: "
                 f"path/to/preset.toml or preset:NAME, shipped: {', '.join(shipped_presets())} "
                 "(see `coexist-ai levels`).")
    lines.append("An external bot (any program speaking docs/protocol.md): "
                 "cmd:[move_time=S] [time_margin=S] [start_timeout=S] [cwd=DIR] "
                 "[option.NAME=VALUE ...] COMMAND, or a .toml file with bot = \"external\", "
                 "command = [...], cwd, options = {...}, move_time, start_timeout, "
                 "time_margin (paths relative to the file's folder).")
    return "\n".join(lines)
