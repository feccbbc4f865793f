"""`coexist-ai fit-policy`: the fitted rollout policy's weights, fitted to
the moves of recorded games (coexist_ai/learn/policy.py)."""
import hashlib
import os
import sys
from collections.abc import Iterator
from typing import Any

import click

from coexist_ai.cards import PACKAGED_NAMES, CardSetError, resolve_card_set
from coexist_ai.cli_learn import TrainError, _bar, _check_folder, _jsonable


def _card_set_of(record: dict[str, Any], given: Any, cache: dict[str, Any],
                 where: str) -> Any:
    if given is not None:
        return given
    name = (record.get("card_set") or {}).get("name")
    if name not in PACKAGED_NAMES:
        raise TrainError(f"{where} was played with card set {name!r}, which is not "
                         "packaged: pass its TOML file with --cards")
    if name not in cache:
        cache[name] = resolve_card_set(name)
    return cache[name]


def _games(paths: tuple[str, ...], given: Any) -> Iterator[tuple[Any, dict[str, Any]]]:
    from coexist_ai.records import numbered_records
    cache: dict[str, Any] = {}
    for path in paths:
        for number, record in numbered_records(path):
            yield _card_set_of(record, given, cache, f"{path} line {number}"), record


def _count_games(paths: tuple[str, ...]) -> int:
    return sum(sum(1 for line in open(p, "rb") if line.strip()) for p in paths)


@click.command("fit-policy")
@click.argument("records", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--seed", default=1, show_default=True, type=click.IntRange(0),
              help="Seed of the held-out split.")
@click.option("--held-out", default=0.2, show_default=True, type=click.FloatRange(0, 0.9),
              help="Share of the games kept out of the fit to score it.")
@click.option("--steps", default=300, show_default=True, type=click.IntRange(1, 100_000),
              help="Adam steps over all the decisions.")
@click.option("--l2", default=1e-3, show_default=True, type=click.FloatRange(0, 10),
              help="Weight decay: l2 * |w|^2 is subtracted from the log-likelihood.")
@click.option("--cards", "cards_spec", default=None,
              help="Card set of every record (default: the packaged set each names).")
@click.option("--out", "out_path", default="policy.json", show_default=True,
              help="The weight file to write (use it as ismcts:policy=fitted,policy_model=FILE).")
def fit_policy(records: tuple[str, ...], seed: int, held_out: float, steps: int,
               l2: float, cards_spec: str | None, out_path: str) -> None:
    """Fit the rollout policy `ismcts:policy=fitted` to the moves of recorded
    games: every move of every record is a choice to imitate, so give records
    of the play the rollouts should follow."""
    from coexist_ai.learn.policy import fit, record_decisions, save_policy
    _check_folder("--out", out_path)
    try:
        given = resolve_card_set(cards_spec) if cards_spec else None
    except CardSetError as e:
        raise TrainError(f"--cards: {e}") from None
    with _bar(_count_games(records), "replaying", "game") as bar:
        data = record_decisions(_games(records, given), lambda: bar.update(1))
    click.echo(f"{len(data['start'])} decisions ({len(data['x'])} legal moves) "
               f"from {len(set(data['game'].tolist()))} games")
    try:
        with _bar(steps, "fitting", "step") as bar:
            def progress(step: int, ll: float) -> None:
                bar.set_postfix({"log-likelihood": f"{ll:.4f}"}, refresh=False)
                bar.update(1)
            weights, report = fit(data, seed, held_out, steps, l2, progress)
    except ValueError as e:
        raise TrainError(str(e)) from None
    meta = {"records": {os.path.basename(p): _sha256(p) for p in records},
            "fit": {"seed": seed, "held_out": held_out, "steps": steps, "l2": l2},
            "report": _jsonable(report),
            "command": "coexist-ai fit-policy " + " ".join(sys.argv[2:])}
    try:
        save_policy(weights, meta, out_path)
    except OSError as e:
        raise TrainError(f"--out {out_path!r}: cannot write it ({e.strerror})") from None
    click.echo(format_policy_report(report))
    click.echo(f"weights written to {out_path}")


def _sha256(path: str) -> str:
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def format_policy_report(report: dict[str, Any]) -> str:
    lines = [f"held out: {report['held_out_decisions']} decisions of "
             f"{report['held_out_games']} games (fitted on {report['train_decisions']})",
             f"{'policy':<8} {'log-likelihood':>15} {'top choice':>11}"]
    for name in ("uniform", "fitted"):
        r = report[name]
        lines.append(f"{name:<8} {r['log_likelihood']:>15.4f} {100 * r['top_choice']:>10.1f}%")
    return "\n".join(lines)

