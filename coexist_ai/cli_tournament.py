"""`coexist-ai duel`, `coexist-ai tournament ...` and `coexist-ai bots`."""
from __future__ import annotations

import os
import secrets
import shlex
import sys
import tomllib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from coexist_ai.errors import CoexistError
from coexist_ai.schedule import MODES, Entrant, Schedule

if TYPE_CHECKING:
    from coexist_ai.results import Standings
    from coexist_ai.sprt import Sprt
    from coexist_ai.tournament import Tournament

_Command = TypeVar("_Command", bound=Callable[..., Any])

DEFAULT_A = "ismcts:iterations=2000"

BACKEND_OPTIONS = [
    click.option("--backend", default="local", show_default=True,
                 type=click.Choice(["local", "ray"]),
                 help="Local processes, or a Ray cluster (pip install 'coexist-ai[ray]')."),
    click.option("--address", default=None,
                 help="Ray: address of the cluster head (host:port); default: start Ray here."),
]


def backend_options(command: _Command) -> _Command:
    for option in reversed(BACKEND_OPTIONS):
        command = option(command)
    return command
DEFAULT_B = "greedy"


def parse_sprt(text: str) -> tuple[float, float, float, float]:
    try:
        elo0, elo1, alpha, beta = (float(x) for x in text.split(","))
    except ValueError:
        raise click.BadParameter(f"{text!r}: expected elo0,elo1,alpha,beta "
                                 "(e.g. 0,10,0.05,0.05)") from None
    if not (0 < alpha < 1 and 0 < beta < 1) or not elo0 < elo1:
        raise click.BadParameter(f"{text!r}: alpha and beta in (0, 1), elo0 < elo1")
    return elo0, elo1, alpha, beta


def sprt_rule(test: Sprt) -> Callable[[Standings], bool]:
    """A stop rule: the SPRT on the deals whose games are all played."""
    def stop(standings: Standings) -> bool:
        standings.sprt = test
        return test.update(standings.complete_deal_scores(0),
                           standings.complete_deal_games()) is not None
    return stop


def print_results(standings: Standings) -> None:
    """The results table (and the SPRT's verdict) of a run; after Ctrl-C,
    the command that resumes it, and the exit status of an interrupt."""
    from coexist_ai import ratings, tables
    click.echo(tables.rating_text(ratings.compute(standings, standings.anchor), standings))
    if standings.sprt:
        click.echo(standings.sprt.summary())
    if standings.interrupted:
        out = click.get_current_context().params.get("out")
        again = "coexist-ai " + shlex.join(sys.argv[1:])
        click.echo(f"interrupted after {standings.recorded} games; " + (
            f"they are in {out}: resume with\n  {again}" if out else
            "none was saved (no --out): rerun with --out FILE to keep the games"), err=True)
        sys.exit(130)


def choose_seed(seed: int | None, out: str | None, echo: Callable[[str], object]) -> int:
    """The tournament seed: the one given; else that of the games already in
    `out` (so that rerunning the command resumes); else a fresh 63-bit one,
    printed and recorded so that the games can be replayed. A fresh seed by
    default keeps the deals unguessable: a bot that knew the seed could
    recompute the draw pile."""
    if seed is not None:
        return seed
    if out and os.path.isfile(out):
        from coexist_ai.records import numbered_records
        seeds: set[int] = set()
        for _, record in numbered_records(out):    # one line at a time
            if record.get("seed") is not None:
                seeds.add(record["seed"])
            if len(seeds) > 1:
                break
        if len(seeds) == 1:
            return seeds.pop()
    seed = secrets.randbits(63)
    echo(f"seed {seed} (drawn at random; pass --seed {seed} to play these games again)")
    return seed


def unique_names(specs: list[str]) -> list[str]:
    """Display names: the spec, numbered when two bots share it."""
    names: list[str] = []
    seen: dict[str, int] = {}
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        names.append(spec if specs.count(spec) == 1 else f"{spec}#{seen[spec]}")
    return names


@click.command()
@click.argument("bot_a", default=DEFAULT_A, required=False)
@click.argument("bot_b", default=DEFAULT_B, required=False)
@click.option("--games", default=20, show_default=True, type=click.IntRange(1),
              help="Games to play (rounded up to whole rounds: one deal at every distinct "
                   "seating of the bots).")
@click.option("--players", default=2, show_default=True, type=click.IntRange(2, 4))
@click.option("--seed", default=None, type=int,
              help="Seed of every deal and bot [default: the seed of the games in --out, "
                   "else a fresh random one, printed].")
@click.option("--jobs", default=None, type=click.IntRange(1),
              help="Parallel games [default: all cores].")
@click.option("--out", type=click.Path(dir_okay=False),
              help="Append game records here (rerun to resume).")
@click.option("--sprt", help="elo0,elo1,alpha,beta (e.g. 0,10,0.05,0.05): the generalized "
              "SPRT on complete deals; stop when it decides.")
@click.option("--cards", "cards_spec", default="default", show_default=True)
@click.option("--quiet", is_flag=True, help="No progress line.")
@backend_options
def duel(bot_a: str, bot_b: str, games: int, players: int, seed: int | None,
         jobs: int | None, out: str | None, sprt: str | None, cards_spec: str, quiet: bool,
         backend: str, address: str | None) -> None:
    """BOT_A against BOT_B (default: ISMCTS against the heuristic bot).

    Games come in deals played under every seat rotation. The live line
    shows the score, the Elo of BOT_A with its 95% interval (the figures of
    the final table) and, with --sprt, the log-likelihood ratio and its
    bounds; the SPRT decides only on complete deals. Ctrl-C prints the
    table so far and the command that resumes (exit status 130).

    \b
    Examples:
      coexist-ai duel ismcts:iterations=10000 greedy --games 200 --out duel.jsonl
      coexist-ai duel ismcts:iterations=2000 ismcts:iterations=1000 \\
          --games 2000 --sprt 0,50,0.05,0.05 --out sprt.jsonl
    """
    from coexist_ai import tournament as tm
    from coexist_ai.sprt import Sprt
    sprt_params = parse_sprt(sprt) if sprt else None
    names = unique_names([bot_a, bot_b])
    seed = choose_seed(seed, out, click.echo)
    entrants = [Entrant(n, s) for n, s in zip(names, [bot_a, bot_b])]
    per_round = Schedule("round-robin", entrants, players, seed, 1).games_per_round
    t = tm.Tournament("duel", entrants, players, "round-robin", -(-games // per_round),
                      seed, cards_spec, anchor=names[1])
    click.echo(f"duel: {names[0]} vs {names[1]}, {len(t.schedule)} games at "
               f"{players} players, seed {seed}")
    stop = sprt_rule(Sprt(*sprt_params)) if sprt_params else None
    standings = tm.run(t, out, jobs, progress=not quiet, stop_rule=stop, echo=click.echo,
                       backend=backend, address=address)
    print_results(standings)


def load_config(path: str) -> dict[str, Any]:
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise click.BadParameter(f"no file {path!r}", param_hint="CONFIG") from None
    except tomllib.TOMLDecodeError as e:
        raise click.BadParameter(f"{path}: not valid TOML: {e}", param_hint="CONFIG") from None
    return data


CONFIG_KEYS = {"name", "players", "mode", "rounds", "seed", "cards", "anchor", "bot",
               "description"}


def tournament_from_config(data: dict[str, Any], path: str,
                           out: str | None = None) -> Tournament:
    from coexist_ai.tournament import Tournament
    unknown = set(data) - CONFIG_KEYS
    if unknown:
        raise click.BadParameter(f"{path}: unknown keys {sorted(unknown)}; valid: "
                                 f"{sorted(CONFIG_KEYS)}", param_hint="CONFIG")
    bots = data.get("bot", [])
    if len(bots) < 2 or not all(isinstance(b, dict) and "spec" in b for b in bots):
        raise click.BadParameter(f"{path}: needs at least two [[bot]] tables, each "
                                 "with a 'spec' (and an optional 'name')", param_hint="CONFIG")
    names = unique_names([b.get("name", b["spec"]) for b in bots])
    mode = data.get("mode", "round-robin")
    if mode not in MODES:
        raise click.BadParameter(f"{path}: mode {mode!r}: expected one of {', '.join(MODES)}")
    anchor = data.get("anchor", "random")
    if "anchor" in data and anchor not in names + [b["spec"] for b in bots]:
        raise click.BadParameter(f"{path}: anchor = {anchor!r} is none of the bots; "
                                 f"the bots: {', '.join(names)}", param_hint="CONFIG")
    return Tournament(data.get("name", os.path.basename(path)),
                      [Entrant(n, b["spec"]) for n, b in zip(names, bots)],
                      _whole(data, "players", 2, path, 2, 4), mode,
                      _whole(data, "rounds", 10, path, 1),
                      choose_seed(_whole(data, "seed", 0, path) if "seed" in data else None,
                                  out, click.echo),
                      data.get("cards", "default"), anchor=anchor)


def _whole(data: dict[str, Any], key: str, default: int, path: str, low: int | None = None,
           high: int | None = None) -> int:
    """A whole-number key of a config, range-checked like the CLI options."""
    value = data.get(key, default)
    if (not isinstance(value, int) or isinstance(value, bool)
            or (low is not None and value < low) or (high is not None and value > high)):
        bounds = f" in {low}..{high}" if high is not None else f" >= {low}" if low is not None else ""
        raise click.BadParameter(f"{path}: {key} = {value!r}: expected a whole number{bounds}",
                                 param_hint="CONFIG")
    return value


@click.group()
def tournament() -> None:
    """Round robins and gauntlets over any number of bots, and what their
    records say: rating tables, exports for other programs, reports.

    \b
    Examples:
      coexist-ai tournament run tournaments/ladder.toml --out ladder.jsonl
      coexist-ai tournament ratings ladder.jsonl duel.jsonl --anchor greedy
      coexist-ai tournament export ladder.jsonl --format pgn --out ladder.pgn
      coexist-ai tournament report ladder.jsonl --out ladder.html
    """


def _refuse_options_the_config_sets(ctx: click.Context) -> None:
    """A config file says players, mode, rounds and seed itself: an option
    beside it would be silently ignored, so it is refused."""
    given = [f"--{name}" for name in ("players", "mode", "rounds", "seed")
             if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE]
    if given:
        raise click.UsageError(f"{', '.join(given)}: set by the CONFIG file; "
                               "edit the file instead (or use --bots)")


@tournament.command("run")
@click.argument("config", required=False)
@click.option("--bots", help="Comma-separated bot specs (instead of a CONFIG file).")
@click.option("--players", default=2, show_default=True, type=click.IntRange(2, 4))
@click.option("--mode", default="round-robin", show_default=True,
              type=click.Choice(MODES),
              help="round-robin: every group of bots meets; gauntlet: the first bot "
                   "meets every other; chain: each bot (listed weakest first) meets "
                   "its neighbours within players + 1 places.")
@click.option("--rounds", default=10, show_default=True, type=click.IntRange(1),
              help="Deals per table; each is played under every seat rotation.")
@click.option("--seed", default=None, type=int,
              help="[default: the seed of the games in --out, else a fresh random one]")
@click.option("--jobs", default=None, type=click.IntRange(1))
@click.option("--out", type=click.Path(dir_okay=False), help="Records file (resumable).")
@click.option("--quiet", is_flag=True)
@backend_options
def tournament_run(config: str | None, bots: str | None, players: int, mode: str,
                   rounds: int, seed: int | None, jobs: int | None, out: str | None,
                   quiet: bool, backend: str, address: str | None) -> None:
    """Play a tournament from CONFIG (TOML) or from --bots.

    The live line shows the standings (the table's Elo) and the time left;
    the results table follows. Rerun the same command with the same --out
    to resume; Ctrl-C prints the standings so far and that command.

    \b
    Examples:
      coexist-ai tournament run tournaments/quick.toml --out quick.jsonl
      coexist-ai tournament run --bots random,greedy,ismcts:iterations=500 --rounds 4
    """
    from coexist_ai import tournament as tm
    if bool(config) == bool(bots):
        raise click.UsageError("give either a CONFIG file or --bots A,B,...")
    if config:
        _refuse_options_the_config_sets(click.get_current_context())
        t = tournament_from_config(load_config(config), config, out)
    else:
        assert bots is not None, "one of CONFIG and --bots, checked above"
        specs = [s.strip() for s in bots.split(";" if ";" in bots else ",") if s.strip()]
        if len(specs) < 2:
            raise click.BadParameter(f"{bots!r}: needs at least two bot specs",
                                     param_hint="--bots")
        names = unique_names(specs)
        seed = choose_seed(seed, out, click.echo)
        t = tm.Tournament("cli", [Entrant(n, s) for n, s in zip(names, specs)],
                          players, mode, rounds, seed, anchor="random")
    click.echo(f"tournament {t.name!r}: {len(t.entrants)} bots, {t.mode}, "
               f"{t.players} players, {len(t.schedule)} games")
    standings = tm.run(t, out, jobs, progress=not quiet, echo=click.echo,
                       backend=backend, address=address)
    print_results(standings)


@click.command()
def bots() -> None:
    """List every bot with its parameters, defaults and meaning."""
    from coexist_ai.bots import describe_bots
    click.echo(describe_bots())


from coexist_ai import cli_results  # noqa: E402,F401  (ratings, export, report)
