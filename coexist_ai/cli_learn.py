"""`coexist-ai train`: self-play positions, then the learned evaluation
fitted to them (coexist_ai/learn/), with progress bars and the held-out
comparison against the hand-written evaluation."""
import os
import sys
from typing import Any

import click

from coexist_ai.cards import DEFAULT_NAME, CardSetError, resolve_card_set
from coexist_ai.errors import CoexistError
from coexist_ai.learn.model import HEADS, save_model


class TrainError(CoexistError):
    """A positions file that cannot be used, a bad option value."""


def _players(text: str) -> list[int]:
    try:
        counts = [int(n) for n in text.split(",")]
    except ValueError:
        counts = []
    if not counts or any(not 2 <= n <= 4 for n in counts):
        raise TrainError(f"--players {text!r}: expected player counts 2..4, "
                         "comma-separated (games cycle through them)")
    return counts


def _bot(spec: str) -> dict[str, Any]:
    """What identifies the self-play bot: its spec with every parameter
    spelled out (a default changed since does not pass for the old one) and
    the sha256 of the model it reads, if it reads one (a file retrained in
    place is another bot)."""
    from coexist_ai.bots.spec import canonical_spec, model_identity, parse_spec
    name, params = parse_spec(spec)   # a bad spec is one error line, before any game
    if name == "external":
        raise TrainError(f"--bot {spec!r}: self-play needs a built-in bot")
    bot = {"bot": canonical_spec(name, params)}
    model = model_identity(spec)
    return bot | ({"bot_model": model} if model else {})


@click.command()
@click.option("--games", default=2000, show_default=True, type=click.IntRange(2),
              help="Self-play games to draw positions from.")
@click.option("--players", "players_text", default="2,2,4", show_default=True,
              help="Player counts, comma-separated: game g has the (g mod len)-th.")
@click.option("--bot", "bot_spec", default="ismcts:iterations=200", show_default=True,
              help="The bot of every seat of the self-play games.")
@click.option("--seed", default=1, show_default=True, type=click.IntRange(0),
              help="Seed of the games, the held-out split and the training.")
@click.option("--jobs", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Processes playing the self-play games (the positions do not depend on it).")
@click.option("--positions", "positions_path", default=None,
              help="Keep the self-play positions in this .npz: read it if it exists "
                   "(made with the same settings), else write it.")
@click.option("--hidden", default=0, show_default=True, type=click.IntRange(0, 64),
              help="Hidden units of the model (0: a linear model).")
@click.option("--epochs", default=10, show_default=True, type=click.IntRange(1))
@click.option("--out", "out_path", default="learned-eval.npz", show_default=True,
              help="The model file to write (use it as ismcts:eval=learned,model=FILE).")
@click.option("--cards", "cards_spec", default="default", show_default=True,
              help=f"Card set: 'default' ({DEFAULT_NAME}) or a path to a TOML file.")
def train(games: int, players_text: str, bot_spec: str, seed: int, jobs: int,
          positions_path: str | None, hidden: int, epochs: int, out_path: str,
          cards_spec: str) -> None:
    """Train the learned evaluation: positions of self-play games labelled
    with their final results, then a numpy model fitted to them."""
    from coexist_ai.learn.train import TrainSettings
    from coexist_ai.learn.train import train as fit
    try:
        card_set = resolve_card_set(cards_spec)
    except CardSetError as e:
        raise TrainError(f"--cards: {e}") from None
    for option, path in (("--out", out_path), ("--positions", positions_path)):
        _check_folder(option, path)   # before the self-play, not after
    made_with = {"games": games, "players": _players(players_text),
                 **_bot(bot_spec), "seed": seed, "card_set": card_set.sha256}
    data = _positions(card_set, made_with, jobs, positions_path)
    settings = TrainSettings(hidden=hidden, epochs=epochs, seed=seed)
    with _bar(epochs, "training", "epoch") as bar:
        def progress(epoch: int, losses: dict[str, float]) -> None:
            bar.set_postfix({k: f"{v:.4f}" for k, v in losses.items()})
            bar.update(1)
        model, report = fit(data, settings, progress)
    model.meta = {"positions": made_with, "training": settings.__dict__,
                  "report": _jsonable(report), "rows": int(len(data["x"])),
                  "command": "coexist-ai train " + " ".join(sys.argv[2:])}
    try:
        save_model(model, out_path)
    except OSError as e:
        raise TrainError(f"--out {out_path!r}: cannot write it ({e.strerror})") from None
    click.echo(format_report(report))
    click.echo(f"model written to {out_path}")


def _check_folder(option: str, path: str | None) -> None:
    folder = os.path.dirname(path) if path else "."
    if folder and not os.path.isdir(folder):
        raise TrainError(f"{option} {path!r}: no folder {folder!r} to write it in")


def _same_settings(recorded: dict[str, Any], ours: dict[str, Any]) -> bool:
    """Whether a positions file was made with these settings, its bot
    compared as a tuning run's is (a parameter added since, spelled out
    in ours only, means the value the bot played with then)."""
    from coexist_ai.tune.settings import same_bot
    rest = {k: v for k, v in recorded.items() if k != "bot"}
    return (same_bot(recorded.get("bot"), ours["bot"])
            and rest == {k: v for k, v in ours.items() if k != "bot"})


def _positions(card_set: Any, made_with: dict[str, Any], jobs: int,
               path: str | None) -> dict[str, Any]:
    from coexist_ai.learn import selfplay
    if path and os.path.exists(path):
        try:
            data, settings = selfplay.load_positions(path)
        except ValueError as e:
            raise TrainError(f"--positions {path!r}: {e}") from None
        if not _same_settings(settings, made_with):
            raise TrainError(f"--positions {path!r} was made with {settings}, not "
                             f"{made_with}: give another file or the same settings")
        click.echo(f"positions read from {path}: {len(data['x'])} rows")
        return data
    with _bar(made_with["games"], "self-play", "game") as bar:
        data = selfplay.generate(card_set, made_with["games"], made_with["players"],
                                 made_with["bot"], made_with["seed"], jobs, bar.update)
    if path:
        try:
            selfplay.save_positions(data, made_with, path)
        except OSError as e:
            raise TrainError(f"--positions {path!r}: cannot write it ({e.strerror})") from None
    click.echo(f"{len(data['x'])} rows (a seat at a turn start) from "
               f"{len(set(data['game'].tolist()))} games")
    return data


def _bar(total: int, desc: str, unit: str) -> Any:
    from tqdm import tqdm
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr,
                disable=None if sys.stderr.isatty() else False, mininterval=1.0)


def format_report(report: dict[str, Any]) -> str:
    """The held-out comparison, one line per evaluation."""
    lines = [f"held out: {report['held_out_rows']} rows of {report['held_out_games']} "
             f"games (trained on {report['train_rows']} rows)",
             f"{'evaluation':<10} " + " ".join(f"{'xent ' + h:>12} {'brier ' + h:>12}"
                                               for h in HEADS) + "  winner picked"]
    for name in ("learned", "hand"):
        r = report[name]
        lines.append(f"{name:<10} " + " ".join(
            f"{r['cross_entropy'][h]:>12.4f} {r['brier'][h]:>12.4f}" for h in HEADS)
            + f"  {100 * r['winner_accuracy']:>12.1f}%")
    return "\n".join(lines)


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    return float(value) if hasattr(value, "item") else value
