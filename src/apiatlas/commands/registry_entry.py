"""``apiatlas registry-entry``: the MCP registry's server.json for serving a snapshot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from apiatlas.cli_app import app
from apiatlas.errors import ApiatlasError


@app.command("registry-entry")
def registry_entry_command(
    snapshot: Annotated[Path, typer.Argument(metavar="SNAP", help="snapshot file (*.atlas)")],
    name: Annotated[
        str | None, typer.Option("--name", help="registry name, reverse-DNS: io.github.you/server")
    ] = None,
    url: Annotated[str | None, typer.Option("--url", help="a Streamable HTTP endpoint serving it")] = None,
    out: Annotated[Path | None, typer.Option("-o", "--out", help="write server.json here")] = None,
) -> None:
    """Print (or write) server.json for the MCP registry: the apiatlas package serving this snapshot."""
    from apiatlas.server.client_config import registry_entry, server_name

    if not snapshot.is_file():
        typer.echo(f"error: {snapshot}: no such snapshot", err=True)
        raise typer.Exit(2)
    try:
        entry = registry_entry(snapshot, name=name or f"io.github.apiatlas/{server_name(snapshot)}", url=url)
    except ApiatlasError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    text = json.dumps(entry, ensure_ascii=False, indent=2)
    if out is None:
        typer.echo(text)
    else:
        out.write_text(text + "\n", encoding="utf-8")
        typer.echo(f"wrote {out}", err=True)
