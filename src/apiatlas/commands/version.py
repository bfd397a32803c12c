"""``apiatlas version``: print the tool version."""

import typer

from apiatlas import __version__
from apiatlas.cli_app import app


@app.command()
def version() -> None:
    """Print the apiatlas version."""
    typer.echo(__version__)
