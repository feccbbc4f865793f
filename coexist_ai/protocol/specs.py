"""The specs of external bots: `cmd:[SETTING=VALUE ...] COMMAND` and TOML
files with `bot = "external"` (docs/protocol.md, "External bots").

A cmd: spec is split into words like a shell would; leading words of the
form NAME=VALUE are settings, as cutechess-cli takes them on its command
line: `move_time=2`, `time_margin=0.5`, `start_timeout=10`, `cwd=DIR`,
and `option.NAME=VALUE` for a setoption. The first other word starts the
command. A TOML file says the same in keys; its relative paths (`cwd`, a
command path with a slash) are relative to the file's own folder, so an
entry works from any directory.
"""
from __future__ import annotations

import math
import os
import re
import shlex
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from coexist_ai.bots.spec import BotSpecError

Params = dict[str, Any]              # an external bot's settings (DEFAULTS' keys)
Fail = Callable[[str], NoReturn]     # raise the spec error of a problem

DEFAULTS: Params = {"command": None, "cwd": None, "options": {}, "move_time": 1.0,
            "start_timeout": 10.0, "time_margin": 0.5, "seed": 0}
TOML_KEYS = set(DEFAULTS) | {"bot", "description"}
SECONDS = {"move_time": 0.001, "start_timeout": 0.001, "time_margin": 0.0}   # lowest values
MAX_SECONDS = 3600
CMD_SETTINGS = (*SECONDS, "cwd", "option.NAME")
SETTING_WORD = re.compile(r"([A-Za-z_][A-Za-z0-9_]*(?:\.[^=\s]+)?)=(.*)", re.S)


def _spec_error(message: str) -> BotSpecError:
    from coexist_ai.bots.spec import BotSpecError
    return BotSpecError(message)


def params_from_command(text: str, spec: str) -> Params:
    """The parameters of a `cmd:` spec; `text` is what follows `cmd:`."""
    try:
        words = shlex.split(text)
    except ValueError as e:
        raise _spec_error(f"{spec!r}: the command does not split into words: {e}") from None
    params = dict(DEFAULTS, options={})
    while words and (setting := SETTING_WORD.fullmatch(words[0])):
        words.pop(0)
        key, value = setting.groups()
        _set_cmd_setting(params, key, value, spec)
    if not words:
        raise _spec_error(f"{spec!r}: no command after 'cmd:' and its settings "
                          "(e.g. cmd:move_time=2 python3 bots/examples/first_legal.py)")
    params["command"] = words
    return params


def _set_cmd_setting(params: Params, key: str, value: str, spec: str) -> None:
    if key.startswith("option."):
        params["options"][key[len("option."):]] = value    # typed after the bot's hello
    elif key == "cwd":
        params["cwd"] = value
    elif key in SECONDS:
        try:
            seconds: float | None = float(value)
        except ValueError:
            seconds = None

        def fail(problem: str) -> NoReturn:
            _fail_spec(spec, problem)
        params[key] = _seconds(key, seconds, fail)
    else:
        _fail_spec(spec, f"unknown setting {key!r} (settings: {', '.join(CMD_SETTINGS)}; "
                         f"a command that starts with NAME=VALUE: cmd:env {key}=... COMMAND)")


def _fail_spec(spec: str, problem: str) -> NoReturn:
    raise _spec_error(f"{spec!r}: {problem}")


def _seconds(key: str, value: object, fail: Fail) -> float:
    low = SECONDS[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not low <= value <= MAX_SECONDS:
        fail(f"{key!r} must be a number of seconds in {low}..{MAX_SECONDS}, got {value!r}")
    return float(value)


def params_from_toml(data: dict[str, Any], path: str) -> Params:
    """The parameters of a TOML file with `bot = "external"`."""

    def fail(problem: str) -> NoReturn:
        raise _spec_error(f"external bot {path!r}: {problem}")

    unknown = set(data) - TOML_KEYS
    if unknown:
        fail(f"unknown keys {sorted(unknown)}; valid: {sorted(TOML_KEYS)}")
    params = dict(DEFAULTS, options={})
    folder = os.path.dirname(os.path.abspath(path))
    params["command"] = _toml_command(data.get("command"), folder, fail)
    cwd = data.get("cwd", ".")
    if not isinstance(cwd, str):
        fail(f"'cwd' must be a folder name, got {cwd!r}")
    params["cwd"] = os.path.normpath(os.path.join(folder, os.path.expanduser(cwd)))
    options = data.get("options", {})
    if not isinstance(options, dict) or not all(
            isinstance(v, (bool, int, str)) or (isinstance(v, float) and math.isfinite(v))
            for v in options.values()):
        fail(f"'options' must be a table of numbers, strings or booleans, got {options!r}")
    params["options"] = dict(options)
    for key in SECONDS:
        if key in data:
            params[key] = _seconds(key, data[key], fail)
    if "seed" in data:
        if isinstance(data["seed"], bool) or not isinstance(data["seed"], int):
            fail(f"'seed' must be a whole number, got {data['seed']!r}")
        params["seed"] = data["seed"]
    return params


def _toml_command(command: object, folder: str, fail: Fail) -> list[str]:
    """The command words; a relative program path with a slash in it
    (`./bot`, `bin/bot`) made absolute from the TOML file's folder."""
    if isinstance(command, str):
        try:
            command = shlex.split(command)
        except ValueError as e:
            fail(f"'command' does not split into words: {e}")
    if not (isinstance(command, list) and command
            and all(isinstance(c, str) and c for c in command)):
        fail(f"'command' must be a list of strings (or one string), got {command!r}")
    program = os.path.expanduser(command[0])
    if os.sep in program and not os.path.isabs(program):
        program = os.path.normpath(os.path.join(folder, program))
    return [program, *command[1:]]


def typed_option(value: Any, declared: object) -> Any:
    """The value to send in setoption: a string given for an option the bot
    declared int, float or bool (a cmd: spec's option.NAME=VALUE, or a
    string in TOML) becomes that type; anything else is sent as given."""
    if not isinstance(value, str) or not isinstance(declared, dict):
        return value
    kind, text = declared.get("type"), value.strip()
    try:
        if kind == "int":
            return int(text)
        if kind == "float" and math.isfinite(float(text)):
            return float(text)
    except ValueError:
        return value            # the bot will refuse it, and say why
    if kind == "bool" and text.lower() in ("true", "false", "1", "0", "yes", "no", "on", "off"):
        return text.lower() in ("true", "1", "yes", "on")
    return value
