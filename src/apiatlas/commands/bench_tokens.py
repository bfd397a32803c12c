"""``apiatlas bench tokens``: what the MCP surface costs in tokens, beside one tool per API."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import anyio
import typer

from apiatlas.cli_app import bench_app
from apiatlas.commands.serve import load_config
from apiatlas.errors import ApiatlasError


@bench_app.command("tokens")
def bench_tokens(
    snapshot_path: Annotated[Path, typer.Argument(metavar="SNAP", help="snapshot file (*.atlas)")],
    as_json: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
    config_file: Annotated[Path | None, typer.Option("--config", help="server config YAML")] = None,
) -> None:
    """Tokens of tools/list (description + inputSchema, whole), the instructions (static prefix, playbook
    index) and the largest describe_api answer, each beside the one-tool-per-API equivalent."""
    if not snapshot_path.is_file():
        typer.echo(f"error: {snapshot_path}: no such snapshot", err=True)
        raise typer.Exit(2)
    try:
        config = load_config(config_file, None, None)
    except ApiatlasError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc

    from apiatlas.server.token_budget import measure_tokens, render_tokens

    report = anyio.run(measure_tokens, snapshot_path, config)
    typer.echo(report.model_dump_json(indent=2) if as_json else render_tokens(report))
