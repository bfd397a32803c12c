"""``apiatlas info``: print a snapshot's manifest and counts (rich tables, or JSON with --json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from apiatlas.cli_app import app
from apiatlas.errors import SnapshotError
from apiatlas.snapshot.manifest import serving_of
from apiatlas.snapshot.reader import Snapshot


@app.command("info")
def info_command(
    snapshot: Annotated[Path, typer.Argument(help="The snapshot file (*.atlas).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the manifest as JSON.")] = False,
    files: Annotated[
        bool, typer.Option("--files", help="Also list every source file with its hash.")
    ] = False,
) -> None:
    """Print what a snapshot was built from and what it holds: sources, funnel, graph, counts."""
    try:
        with Snapshot.open(snapshot) as snap:
            manifest = snap.manifest()
            source_files = snap.source_files() if files else {}
    except SnapshotError as exc:
        typer.secho(f"error: {exc}", fg="red", err=True)
        raise typer.Exit(1) from exc
    if as_json:
        data = {**manifest, "files": source_files} if files else manifest
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True))
        return
    console = Console()
    for table in manifest_tables(manifest, source_files):
        console.print(table)


def _served_as(manifest: dict[str, Any]) -> str:
    """``bank_* tools, executes on --db URL``: the manifest's serving facts (older ones: the registry's)."""
    serving = serving_of(manifest)
    runs = {"sql": "executes on --db URL", "http": "executes on --upstream URL"}.get(serving.executor or "")
    return f"{serving.tool_prefix}* tools, " + (runs or "navigation and search only")


def manifest_tables(manifest: dict[str, Any], source_files: dict[str, str] | None = None) -> list[Table]:
    """The manifest as rich tables: snapshot, counts, funnel, graph (and ``source_files`` when given)."""
    files_summary = manifest.get("source_files", {})
    options = manifest.get("options", {})
    head = _pairs(
        "Snapshot",
        [
            ("format version", manifest.get("format_version")),
            ("apiatlas version", manifest.get("apiatlas_version")),
            ("source kind", manifest.get("source_kind")),
            ("served as", _served_as(manifest)),
            ("source root", manifest.get("source_root")),
            ("overlays", options.get("overlays")),
            ("config", options.get("config")),
            ("source files", files_summary.get("count")),
            ("source files sha256", files_summary.get("sha256")),
        ],
    )
    counts = _pairs("Counts", sorted(manifest.get("counts", {}).items()))
    funnel = Table(title="Funnel", show_edge=False)
    for column in ("stage", "rule", "dropped", "APIs"):
        funnel.add_column(column)
    for stage in manifest.get("funnel", {}).get("stages", []):
        funnel.add_row(stage["stage"], stage.get("rule", ""), str(stage["dropped"]), str(stage["count"]))
    graph_stats = manifest.get("graph", {})
    graph = _pairs(
        "Graph",
        [(f"edges: {k}", v) for k, v in graph_stats.get("by_level", {}).items()]
        + [(k, v) for k, v in graph_stats.items() if k != "by_level"],
    )
    search = manifest.get("pass_stats", {}).get("search") or {}
    fusion = search.get("fusion") or {}
    search_table = _pairs(
        "Search",
        [
            ("embedding model", search.get("embedding_model") or "none (lexical only)"),
            ("vectors", search.get("vectors")),
            ("dim", search.get("dim")),
            ("lexical terms", search.get("lexical_terms")),
            ("settings file", options.get("search_settings") or "none (the shipped settings)"),
            ("settings fitted on", fusion.get("fitted_on")),
            ("abstention models", _abstention(fusion.get("abstention"))),
            ("null cosine (out of reach)", _null_cosine(search.get("reach"))),
        ]
        + [
            (f"fusion: {k}", v)
            for k, v in sorted(fusion.items())
            if k != "fitted_on" and not isinstance(v, (dict, list))
        ],
    )
    tables = [head, counts, funnel, graph, search_table]
    for name, stats in sorted(manifest.get("pass_stats", {}).items()):  # a source's entities by kind
        if isinstance(stats, dict) and isinstance(stats.get("by_kind"), dict):
            tables.append(_pairs(f"Entities by kind ({name})", sorted(stats["by_kind"].items())))
    if source_files:
        tables.append(_pairs("Source files (sha256)", sorted(source_files.items())))
    return tables


def _null_cosine(reach: Any) -> str:
    """``0.8238 (64 random-word requests)``: the catalog's null cosine (``search.reach``), or why none."""
    if not isinstance(reach, dict) or "null_cosine" not in reach:
        return "none (not measured: no vectors, or built before it)"
    return f"{reach['null_cosine']} ({reach.get('requests', 0)} random-word requests)"


def _abstention(models: Any) -> str | None:
    """``hybrid (threshold 0.0674, 19 signals), ...``; modes with an empty model never abstain."""
    if not isinstance(models, dict):
        return None
    shown = [
        f"{mode} (threshold {m.get('threshold', 0.0):.4g}, {len(m.get('signals', []))} signals)"
        if m.get("signals")
        else f"{mode} (never abstains)"
        for mode, m in sorted(models.items())
        if isinstance(m, dict)
    ]
    return ", ".join(shown) or "none (never abstains)"


def _pairs(title: str, rows: list[tuple[str, Any]]) -> Table:
    table = Table(title=title, show_header=False, show_edge=False)
    table.add_column("key")
    table.add_column("value", overflow="fold")
    for key, value in rows:
        table.add_row(str(key), "—" if value is None else str(value))
    return table
