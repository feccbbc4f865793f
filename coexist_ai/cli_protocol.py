"""`coexist-ai serve` and `coexist-ai protocol check`."""
import os
import sys
from typing import Any

import click


@click.command()
@click.argument("botspec")
@click.option("--cards", "cards_specs", multiple=True,
              help="A card set the frontend may use without sending it in newgame "
                   "(repeatable; the default set is always known).")
def serve(botspec: str, cards_specs: tuple[str, ...]) -> None:
    """Serve the built-in bot BOTSPEC over the protocol on stdin/stdout
    (docs/protocol.md). Ends on quit or at end of input."""
    from coexist_ai.cards import resolve_card_set
    from coexist_ai.protocol.server import Engine
    output = sys.stdout.buffer
    sys.stdout = sys.stderr            # a stray print must not corrupt the protocol
    engine = Engine(botspec, output, [resolve_card_set(c) for c in cards_specs])
    engine.run(sys.stdin.buffer)
    if engine.busy:                    # quit while thinking: leave the search behind
        output.flush()
        os._exit(0)


@click.group()
def protocol() -> None:
    """The bot protocol: check that a program speaks it."""


@protocol.command("check", context_settings={"ignore_unknown_options": True})
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
@click.option("--move-time", default=1.0, show_default=True, type=click.FloatRange(0.01),
              help="Seconds each move request allows.")
@click.option("--margin", "time_margin", default=0.5, show_default=True,
              type=click.FloatRange(0), help="Seconds of lateness tolerated.")
@click.option("--start-timeout", default=10.0, show_default=True,
              type=click.FloatRange(0.01), help="Seconds for the handshake.")
@click.option("--ping-timeout", default=0.5, show_default=True,
              type=click.FloatRange(0.01), help="Seconds to answer a ping, even while thinking (the worst of "
                   "the pings spread over every decision counts).")
@click.option("--games", default=1, show_default=True, type=click.IntRange(1))
@click.option("--max-moves", default=0, show_default=True, type=click.IntRange(0),
              help="Stop each game after the bot's first N moves (0: play it out).")
@click.option("--players", default=2, show_default=True, type=click.IntRange(2, 4))
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--cwd", type=click.Path(file_okay=False, exists=True),
              help="Folder to run COMMAND in.")
@click.option("--verbose", "-v", is_flag=True, help="Show every line exchanged.")
def protocol_check(command: tuple[str, ...], verbose: bool, **settings: Any) -> None:
    """Check that COMMAND speaks the protocol: handshake, ping, errors,
    options, legal moves in time over whole games, pings spread over every
    decision's thinking, stop, quit (docs/protocol.md lists every check).
    Exit code 0 if every required check passed, 1 if not.

    Put the command after `--`:  coexist-ai protocol check -- perl bot.pl
    """
    from coexist_ai.protocol.check import check_bot
    def show(direction: str, text: str) -> None:
        click.echo(f"{direction} {text[:300]}", err=True)
    log = show if verbose else None
    passed = check_bot(list(command), echo=click.echo, log=log, **settings)
    sys.exit(0 if passed else 1)
