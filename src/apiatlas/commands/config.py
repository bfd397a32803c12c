"""``apiatlas config``: the snippet a client needs to serve a snapshot, with this machine's paths."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from apiatlas.cli_app import app
from apiatlas.errors import ApiatlasError

_WHERE = {
    "claude-desktop": "claude_desktop_config.json (Settings > Developer > Edit Config)",
    "cursor": ".cursor/mcp.json (project) or ~/.cursor/mcp.json",
    "vscode": ".vscode/mcp.json",
    "http": "an HTTP client's mcpServers (Cursor, VS Code, ...); start the server with the line above",
}


@app.command("config")
def config_command(
    snapshot: Annotated[Path, typer.Argument(metavar="SNAP", help="snapshot file (*.atlas)")],
    client: Annotated[
        str, typer.Option("--client", help="claude-desktop, cursor, vscode or http")
    ] = "claude-desktop",
    db: Annotated[str | None, typer.Option("--db", help="database URL without its password")] = None,
    upstream: Annotated[
        str | None, typer.Option("--upstream", help="REST snapshots: the API's base URL")
    ] = None,
    url: Annotated[str | None, typer.Option("--url", help="http: the server's MCP URL")] = None,
) -> None:
    """Print the configuration snippet for a client (credentials by environment variable, never inline)."""
    from apiatlas.server.client_config import client_snippet, http_serve_line

    if not snapshot.is_file():
        typer.echo(f"error: {snapshot}: no such snapshot", err=True)
        raise typer.Exit(2)
    try:
        snippet = client_snippet(snapshot, client, db=db, upstream=upstream, url=url)
    except ApiatlasError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    if client == "http":
        typer.echo(f"# run the server: {http_serve_line(snapshot, db, upstream)}")
        typer.echo("# the client sends its key from $APIATLAS_API_KEY (docs/operations.md: keys)")
    elif db:
        typer.echo("# the database password comes from PGPASSWORD (or ~/.pgpass), never from this file")
    typer.echo(f"# add to {_WHERE[client]}")
    typer.echo(json.dumps(snippet, ensure_ascii=False, indent=2))
