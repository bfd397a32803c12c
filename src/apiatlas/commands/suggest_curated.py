"""``apiatlas suggest-curated``: propose the operations to serve as direct MCP tools, with reasons."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from apiatlas import atomic
from apiatlas.cli_app import app
from apiatlas.curation import curated_yaml, suggest_curated
from apiatlas.errors import SnapshotError
from apiatlas.snapshot import Snapshot


@app.command("suggest-curated")
def suggest_curated_command(
    snapshot_path: Annotated[Path, typer.Argument(metavar="SNAP", help="snapshot file (*.atlas)")],
    max_tools: Annotated[int, typer.Option("--max", min=1, max=500, help="most tools to propose")] = 50,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="write the curated-tools YAML here (serve --curated)")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the suggestions as JSON")] = False,
) -> None:
    """Propose read-only operations with simple inputs, structured output and a central place in the graph."""
    try:
        with Snapshot.open(snapshot_path) as snapshot:
            suggestions = suggest_curated(snapshot, max_tools)
            total = len(snapshot.all_api_keys())
    except SnapshotError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    if out is not None:
        header = (
            f"Curated tools for {snapshot_path.name}: {len(suggestions)} of {total} APIs "
            f"(apiatlas suggest-curated --max {max_tools}).\n"
            "Edit names and descriptions freely; serve with: apiatlas serve SNAP --curated THIS_FILE"
        )
        out.parent.mkdir(parents=True, exist_ok=True)
        atomic.write_text(out, curated_yaml(suggestions, header))
        typer.echo(f"wrote {len(suggestions)} curated tools to {out}", err=True)
    if as_json:
        typer.echo(json.dumps([s.model_dump() for s in suggestions], ensure_ascii=False, indent=2))
        return
    if out is not None:
        return
    table = Table(title=f"{len(suggestions)} of {total} APIs as direct tools", show_edge=False)
    for column in ("score", "tool", "API", "reasons"):
        table.add_column(column, overflow="fold")
    for s in suggestions:
        table.add_row(f"{s.score:.2f}", s.name, s.api, "; ".join(s.reasons))
    Console().print(table)
