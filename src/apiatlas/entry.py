"""The installed ``apiatlas`` script: imports only the modules of the invoked command, then runs it."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from importlib import import_module


def register(modules: Iterable[str]) -> None:
    """Import command modules (each registers its commands on ``app``)."""
    for name in modules:
        import_module(f"apiatlas.commands.{name}")


def modules_for(argv: Sequence[str]) -> tuple[str, ...]:
    """The command modules an invocation needs: its command's, or all of them (help, unknown words)."""
    from apiatlas.commands import COMMAND_MODULES, COMMANDS

    first = next((a for a in argv if not a.startswith("-")), None)
    return COMMANDS.get(first or "", COMMAND_MODULES)


def main() -> None:
    if sys.argv[1:2] == ["serve"]:  # a stdio server answers its first requests before the rest (typer
        from apiatlas.server.stdio_start import begin  # included) loads

        begin(sys.argv[1:])
    register(modules_for(sys.argv[1:]))
    from apiatlas.cli_app import app

    app()


if __name__ == "__main__":
    main()
