"""`coexist-ai duel`, `coexist-ai tournament ...` and `coexist-ai bots`."""
import os
import secrets
import tomllib

import click

from coexist_ai.errors import CoexistError
from coexist_ai.schedule import Entrant, Schedule

DEFAULT_A = "ismcts:iterations=2000"

BACKEND_OPTIONS = [
    click.option("--backend", default="local", show_default=True,
                 type=click.Choice(["local", "ray"]),
                 help="Local processes, or a Ray cluster (pip install 'coexist-ai[ray]')."),
    click.option("--address", default=None,
                 help="Ray: address of the cluster head (host:port); default: start Ray here."),
]


def backend_options(command):
    for option in reversed(BACKEND_OPTIONS):
        command = option(command)
    return command
DEFAULT_B = "greedy"


def parse_sprt(text):
    try:
        elo0, elo1, alpha, beta = (float(x) for x in text.split(","))
    except ValueError:
        raise click.BadParameter(f"{text!r}: expected elo0,elo1,alpha,beta "
                                 "(e.g. 0,10,0.05,0.05)") from None
    if not (0 < alpha < 1 and 0 < beta < 1) or elo1 == elo0:
        raise click.BadParameter(f"{text!r}: alpha and beta in (0, 1), elo0 != elo1")
    return elo0, elo1, alpha, beta


def sprt_rule(sprt, echo):
    """A stop rule: decide on the scores of the finished blocks."""
    from coexist_ai import elo
    elo0, elo1, alpha, beta = sprt
    lower, upper = elo.sprt_bounds(alpha, beta)

    def stop(standings):
        llr = elo.sprt_llr(standings.block_scores(0), elo0, elo1)
        standings.sprt = (llr, lower, upper)
        if llr >= upper or llr <= lower:
            verdict = "H1 accepted" if llr >= upper else "H0 accepted"
            echo(f"SPRT [{elo0:g}, {elo1:g}]: LLR {llr:.2f} outside "
                 f"({lower:.2f}, {upper:.2f}): {verdict}")
            return True
        return False
    return stop


def choose_seed(seed, out, echo):
    """The tournament seed: the one given; else that of the games already in
    `out` (so that rerunning the command resumes); else a fresh 63-bit one,
    printed and recorded so that the games can be replayed. A fresh seed by
    default keeps the deals unguessable: a bot that knew the seed could
    recompute the draw pile."""
    if seed is not None:
        return seed
    if out and os.path.isfile(out):
        from coexist_ai.records import read_records
        seeds = {r.get("seed") for r in read_records(out)} - {None}
        if len(seeds) == 1:
            return seeds.pop()
    seed = secrets.randbits(63)
    echo(f"seed {seed} (drawn at random; pass --seed {seed} to play these games again)")
    return seed


def unique_names(specs):
    """Display names: the spec, numbered when two bots share it."""
    names, seen = [], {}
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
@click.option("--sprt", help="elo0,elo1,alpha,beta: stop when the test decides.")
@click.option("--cards", "cards_spec", default="default", show_default=True)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@backend_options
def duel(bot_a, bot_b, games, players, seed, jobs, out, sprt, cards_spec, quiet,
         backend, address):
    """BOT_A against BOT_B (default: ISMCTS against the heuristic bot)."""
    from coexist_ai import tournament as tm
    sprt_params = parse_sprt(sprt) if sprt else None
    names = unique_names([bot_a, bot_b])
    seed = choose_seed(seed, out, click.echo)
    entrants = [Entrant(n, s) for n, s in zip(names, [bot_a, bot_b])]
    per_round = Schedule("round-robin", entrants, players, seed, 1).games_per_round
    t = tm.Tournament("duel", entrants, players, "round-robin", -(-games // per_round),
                      seed, cards_spec, anchor=names[1])
    click.echo(f"duel: {names[0]} vs {names[1]}, {len(t.schedule)} games at "
               f"{players} players, seed {seed}")
    stop = sprt_rule(sprt_params, click.echo) if sprt_params else None
    standings = tm.run(t, out, jobs, progress=not quiet, stop_rule=stop, echo=click.echo,
                       backend=backend, address=address)
    click.echo(standings.table())


def load_config(path):
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


def tournament_from_config(data, path, out=None):
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
    if mode not in ("round-robin", "gauntlet"):
        raise click.BadParameter(f"{path}: mode {mode!r}: expected round-robin or gauntlet")
    return Tournament(data.get("name", os.path.basename(path)),
                      [Entrant(n, b["spec"]) for n, b in zip(names, bots)],
                      _whole(data, "players", 2, path, 2, 4), mode,
                      _whole(data, "rounds", 10, path, 1),
                      choose_seed(_whole(data, "seed", 0, path) if "seed" in data else None,
                                  out, click.echo),
                      data.get("cards", "default"),
                      anchor=data.get("anchor", "random"))


def _whole(data, key, default, path, low=None, high=None):
    """A whole-number key of a config, range-checked like the CLI options."""
    value = data.get(key, default)
    if (not isinstance(value, int) or isinstance(value, bool)
            or (low is not None and value < low) or (high is not None and value > high)):
        bounds = f" in {low}..{high}" if high is not None else f" >= {low}" if low is not None else ""
        raise click.BadParameter(f"{path}: {key} = {value!r}: expected a whole number{bounds}",
                                 param_hint="CONFIG")
    return value


@click.group()
def tournament():
    """Round robins and gauntlets over any number of bots."""


def _refuse_options_the_config_sets(ctx):
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
              type=click.Choice(["round-robin", "gauntlet"]))
@click.option("--rounds", default=10, show_default=True, type=click.IntRange(1),
              help="Deals per table; each is played under every seat rotation.")
@click.option("--seed", default=None, type=int,
              help="[default: the seed of the games in --out, else a fresh random one]")
@click.option("--jobs", default=None, type=click.IntRange(1))
@click.option("--out", type=click.Path(dir_okay=False), help="Records file (resumable).")
@click.option("--quiet", is_flag=True)
@backend_options
def tournament_run(config, bots, players, mode, rounds, seed, jobs, out, quiet,
                   backend, address):
    """Play a tournament from CONFIG (TOML) or from --bots."""
    from coexist_ai import tournament as tm
    if bool(config) == bool(bots):
        raise click.UsageError("give either a CONFIG file or --bots A,B,...")
    if config:
        _refuse_options_the_config_sets(click.get_current_context())
        t = tournament_from_config(load_config(config), config, out)
    else:
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
    click.echo(standings.table())


@tournament.command("ratings")
@click.argument("files", nargs=-1, required=True)
@click.option("--anchor", default="random", show_default=True)
def tournament_ratings(files, anchor):
    """The rating table of game records from any FILES, merged."""
    from coexist_ai.records import RecordsError, numbered_records, without_repeats
    from coexist_ai.results import Standings
    located, sha, unfinished = [], None, 0
    for path in files:
        if not os.path.exists(path):
            raise click.BadParameter(f"no file {path!r}", param_hint="FILES")
        for line, record in numbered_records(path):
            if record["end"] == "unfinished":   # a saved game still in play
                unfinished += 1
                continue
            this = record["card_set"]["sha256"]
            if sha and this != sha:
                raise RecordsError(f"{path}:{line}: mixes card sets ({this} after {sha}); "
                                   "ratings need one card set")
            sha = this
            located.append((path, line, record))
    if unfinished:
        click.echo(f"left out {unfinished} unfinished game(s)")
    records = without_repeats(located, click.echo)
    click.echo(Standings(None, records, anchor=anchor).table())


@click.command()
def bots():
    """List every bot with its parameters, defaults and meaning."""
    from coexist_ai.bots import describe_bots
    click.echo(describe_bots())
