"""``apiatlas bench openapi``: compile time of API specs by stage, operations found against the spec."""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from apiatlas.cli_app import bench_app

# compile-time targets from issue 5 (2-core machine), by the spec file name's start
TARGETS_S: dict[str, float] = {"kubernetes": 20.0, "stripe": 30.0}


def target_for(spec: Path) -> float | None:
    return next((s for prefix, s in TARGETS_S.items() if spec.name.lower().startswith(prefix)), None)


def bench_spec(spec: Path, work: Path) -> dict[str, Any]:
    """Compile ``spec`` into ``work`` and return its figures (seconds per stage, counts, size)."""
    from apiatlas.build import compile_docs
    from apiatlas.sources.openapi.documents import SpecDocuments

    start = time.perf_counter()
    SpecDocuments.open(spec)
    read_s = time.perf_counter() - start
    out = work / f"{spec.stem}.atlas"
    start = time.perf_counter()
    result = compile_docs(spec, overlays_dir=None, config_path=None, out=out, kind="openapi")
    total_s = time.perf_counter() - start
    stats = result.catalog.stats.get("openapi", {})
    graph = result.catalog.stats.get("graph", {})
    target = target_for(spec)
    # The embedding (index) stage is search's cost (cached by card text), timed on its own.
    without_index_s = total_s - result.timings.get("index", 0.0)
    return {
        "spec": str(spec),
        "spec_version": stats.get("spec_version"),
        "operations_in_spec": stats.get("operations_in_spec"),
        "operations_found": stats.get("operations"),
        "all_present": stats.get("operations") == stats.get("operations_in_spec"),
        "kept_apis": result.manifest.counts.get("kept_apis"),
        "edges": graph.get("edges"),
        "edges_by_level": graph.get("by_level"),
        "cycles_cut": stats.get("cycles_cut"),
        "diagnostics": len(result.catalog.diagnostics),
        "seconds": {
            "read_spec": round(read_s, 3),
            **{stage: round(s, 3) for stage, s in result.timings.items()},
            "total": round(total_s, 3),
            "total_without_index": round(without_index_s, 3),
        },
        "snapshot_bytes": out.stat().st_size,
        "target_s": target,
        "within_target": None if target is None else without_index_s < target,
    }


@bench_app.command("openapi")
def bench_openapi_command(
    specs: Annotated[list[Path], typer.Argument(help="OpenAPI 3.x / Swagger 2.0 spec files.", exists=True)],
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Compile each spec once and print its compile time by stage and its operation counts."""
    from apiatlas.errors import ApiatlasError

    figures: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="apiatlas-bench-openapi-") as tmp:
        for spec in specs:
            try:
                figures.append(bench_spec(spec, Path(tmp)))
            except ApiatlasError as exc:
                figures.append({"spec": str(spec), "error": str(exc)})
    if as_json:
        typer.echo(json.dumps({"specs": figures}, indent=2))
    else:
        _print_table(figures)
    if any("error" in f or f.get("within_target") is False or not f.get("all_present") for f in figures):
        raise typer.Exit(1)


def _print_table(figures: list[dict[str, Any]]) -> None:
    table = Table(title="OpenAPI compile", show_edge=False)
    for column in (
        "spec",
        "ops found/spec",
        "read",
        "parse",
        "passes",
        "snapshot",
        "report",
        "index",
        "total",
        "w/o index",
        "target (w/o index)",
    ):
        table.add_column(column, justify="left" if column == "spec" else "right")
    for f in figures:
        if "error" in f:
            table.add_row(Path(f["spec"]).name, f"[red]{f['error']}[/red]", *[""] * 9)
            continue
        s = f["seconds"]
        target = (
            ""
            if f["target_s"] is None
            else f"{f['target_s']:.0f} s " + ("ok" if f["within_target"] else "MISSED")
        )
        table.add_row(
            Path(f["spec"]).name,
            f"{f['operations_found']}/{f['operations_in_spec']}",
            *(
                f"{s.get(k, 0.0):.2f}"
                for k in (
                    "read_spec",
                    "parse",
                    "passes",
                    "snapshot",
                    "report",
                    "index",
                    "total",
                    "total_without_index",
                )
            ),
            target,
        )
    Console().print(table)
