"""`python -m coexist_ai.protocol serve SPEC` / `check -- COMMAND...`: the
protocol commands without the installed `coexist-ai` script."""
import sys

import click

from coexist_ai.cli_protocol import protocol, serve
from coexist_ai.errors import CoexistError


@click.group()
def main() -> None:
    """The coexist protocol: serve a built-in bot, check an external one."""


main.add_command(serve)
main.add_command(protocol.commands["check"])

if __name__ == "__main__":
    try:
        main()
    except CoexistError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
