"""The whole ``apiatlas`` command line: importing this module registers every command.

Tests and ``python -m apiatlas.cli`` use it; the installed script (``apiatlas.entry``) registers
only the invoked command's modules, so that start-up stays fast.
"""

from apiatlas.cli_app import app
from apiatlas.commands import COMMAND_MODULES
from apiatlas.entry import register

register(COMMAND_MODULES)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
