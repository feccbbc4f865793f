"""`coexist-ai web`: play, watch or replay Coexist in a browser."""
from __future__ import annotations

import socket

import click
from click.core import ParameterSource

from coexist_ai.cards import FAUNAS as FAUNA_NAMES
from coexist_ai.cli_play import (CARDS_OPTION, LEVEL_OPTION, _card_set, describe_opponents,
                                 level_specs)
from coexist_ai.errors import CoexistError


# what a new game sets, and a resumed or replayed record already has
NEW_GAME_OPTIONS = ("vs", "level", "players", "seat", "seed", "fauna", "watch")


class WebError(CoexistError):
    """The web game cannot start as asked (a port in use, a missing extra)."""


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to host:port (port 0: any free port), listening."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        family, _, _, _, address = infos[0]
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(64)
    except OSError as e:
        raise WebError(f"cannot listen on {host}:{port}: {e.strerror or e}; give another "
                       "--port (0: any free port) or --host") from None
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1", "[::1]"]


def page_hosts(host: str) -> list[str] | None:
    """The Host names the page answers: this machine's own names when it
    listens on loopback (a name another site rebinds to 127.0.0.1 gets
    nothing), else `host` too; listening on every address: any name."""
    if host in ("0.0.0.0", "::", ""):
        return None
    return LOOPBACK_NAMES + ([host] if host not in LOOPBACK_NAMES else [])


@click.command()
@click.option("--vs", multiple=True, metavar="BOTSPEC",
              help="A bot: once for all bots, or once per bot in seat order; any spec "
                   "of `coexist-ai bots`, cmd:... included [default: ismcts thinking --time].")
@LEVEL_OPTION
@click.option("--players", default=2, show_default=True, type=click.IntRange(2, 4),
              help="Seats at the table.")
@click.option("--seat", default=0, show_default=True, type=click.IntRange(0, 3),
              help="Your seat (seat 0 plays first).")
@click.option("--seed", type=int, help="Deal seed (faunas and draw pile) [default: random].")
@click.option("--fauna", type=click.Choice(FAUNA_NAMES), help="Your fauna specialty.")
@click.option("--time", "seconds", default=1.0, show_default=True,
              type=click.FloatRange(0.01, 3600),
              help="Seconds an ISMCTS bot whose spec sets no budget thinks, as `play --time` "
                   "gives them; the hint thinks this long for its one decision.")
@click.option("--hint-bot", metavar="BOTSPEC",
              help="The bot that answers hints [default: ismcts:time=--time,reuse=false].")
@click.option("--watch", is_flag=True, help="A bot game to watch: --vs gives every seat.")
@click.option("--resume", type=click.Path(dir_okay=False),
              help="Continue an unfinished saved game (the terminal's or the web's).")
@click.option("--replay", "replay_file", type=click.Path(dir_okay=False),
              help="Step through a recorded game (any records file).")
@click.option("--game", type=click.IntRange(1),
              help="With --resume or --replay: which game of the file (1 = first).")
@click.option("--save", type=click.Path(dir_okay=False),
              help="Save every game to this file [default: coexist-game-DATE-TIME.jsonl "
                   "a game, or the --resume file].")
@click.option("--pace", default=0.4, show_default=True, type=click.FloatRange(0, 10),
              help="Least seconds between two bot moves, so that the page can follow them.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (only this machine by default).")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on (0: any free port).")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a browser.")
@CARDS_OPTION
def web(vs: tuple[str, ...], level: str | None, players: int, seat: int, seed: int | None, fauna: str | None,
        seconds: float, hint_bot: str | None, watch: bool, resume: str | None,
        replay_file: str | None, game: int | None, save: str | None, pace: float, host: str,
        port: int, open_browser: bool, cards_spec: str) -> None:
    """Play Coexist in a web browser against bots (or watch them, or replay)."""
    try:
        import uvicorn

        from coexist_ai.web.server import make_app
    except ImportError as e:
        raise WebError(f"the web game needs the [web] extra ({e.name} is missing): "
                       "pip install 'coexist-ai[web]'") from None
    from coexist_ai.web.newgame import NewGame, Settings
    from coexist_ai.web.table import Table

    if resume and replay_file:
        raise WebError("--resume and --replay: give one of them")
    if game is not None and not (resume or replay_file):
        raise WebError("--game goes with --resume or --replay")
    if resume or replay_file:
        given = [f"--{o}" for o in NEW_GAME_OPTIONS
                 if click.get_current_context().get_parameter_source(o)
                 == ParameterSource.COMMANDLINE]
        if given:
            raise WebError(f"{', '.join(given)}: the recorded game already sets these; "
                           f"drop them with --{'resume' if resume else 'replay'}")
    try:
        vs = level_specs(vs, level)
    except click.UsageError as e:     # (the web game's mistakes are one line)
        raise WebError(e.format_message()) from None
    card_set = _card_set(cards_spec)
    hint_spec = hint_bot or f"ismcts:time={seconds:g},reuse=false"
    settings = Settings(card_set, seconds, hint_spec, save, pace, trusted=tuple(vs))
    table = Table(settings)
    asked = NewGame(players, tuple(vs), seat, seed, watch, fauna)
    line = table.open_first(asked, resume, replay_file, game)
    sock = listening_socket(host, port)
    url = url_of(sock)
    click.echo(f"Coexist web game: {url}  ({line}; Ctrl-C stops the server)", nl=True)
    for shown in describe_opponents(vs):
        click.echo(shown)
    if open_browser:
        import webbrowser
        webbrowser.open(url)
    config = uvicorn.Config(make_app(table, page_hosts(host)), log_level="warning",
                            lifespan="on")
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:
        pass       # uvicorn stops cleanly on Ctrl-C and raises it again after
    finally:
        table.close()
        click.echo(table.farewell())
