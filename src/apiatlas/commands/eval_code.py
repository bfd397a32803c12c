"""``apiatlas eval retrieval --dataset code SNAP REQUESTS.json`` and ``apiatlas eval check-code SNAP
CASES.json``: search and check_code figures over a compiled code snapshot (an SDK)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from apiatlas.commands.eval_retrieval import eval_app
from apiatlas.errors import ApiatlasError

_ROWS = ("recall@1", "recall@5", "recall@10", "ndcg@5", "mrr", "latency_p50_ms", "latency_p95_ms")
_PARTS = ("all", "dev", "test", "russian", "russian_dev", "russian_test", "english")


def _fail(exc: ApiatlasError) -> typer.Exit:
    typer.secho(f"error: {exc}", fg="red", err=True)
    return typer.Exit(1)


def eval_code_retrieval(files: list[Path], embedding: str | None, as_json: bool) -> None:
    from apiatlas.evals.code_retrieval import run_code_retrieval

    if len(files) != 2:
        raise typer.BadParameter("--dataset code takes two files: SNAPSHOT REQUESTS.json")
    try:
        report = run_code_retrieval(files[0], files[1], embedding)
    except ApiatlasError as exc:
        raise _fail(exc) from exc
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False, indent=2, sort_keys=True))
        return
    console = Console()
    for mode, parts in report["modes"].items():
        table = Table(
            title=f"eval retrieval — code: {report['queries']} requests ({report['russian']} Russian), "
            f"mode {mode} (exact names first)",
            show_edge=False,
        )
        table.add_column("figure")
        for part in _PARTS:
            table.add_column(f"{part} ({parts[part]['queries']})", justify="right")
        for row in _ROWS:
            fmt = "{:.1f}" if row.endswith("_ms") else "{:.3f}"
            table.add_row(row, *(fmt.format(parts[p][row]) for p in _PARTS))
        console.print(table)


@eval_app.command("check-code")
def eval_check_code(
    snapshot: Annotated[Path, typer.Argument(help="A compiled code snapshot (apiatlas compile SDK_FOLDER).")],
    cases: Annotated[Path, typer.Argument(help='JSON list of {"code": "...", "unknown": ["Type.Member"]}.')],
    compile_step: Annotated[
        bool, typer.Option("--compile/--no-compile", help="Also run the mcs compile step (timed apart).")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Precision and recall of the unknown members check_code reports, and its latency, over CASES."""
    from apiatlas.evals.check_code import run_check_code_eval

    try:
        report: dict[str, Any] = run_check_code_eval(snapshot, cases, compile_step=compile_step)
    except ApiatlasError as exc:
        raise _fail(exc) from exc
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False, indent=2, sort_keys=True))
        return
    table = Table(title=f"eval check-code — {report['cases']} cases", show_edge=False)
    table.add_column("figure")
    for part in ("all", "dev", "test"):
        table.add_column(part, justify="right")
    for row in ("cases", "precision", "recall", "exact_cases", "latency_p50_ms", "latency_p95_ms"):
        fmt = "{:.0f}" if row == "cases" else "{:.1f}" if row.endswith("_ms") else "{:.3f}"
        table.add_row(row, *(fmt.format(report[part][row]) for part in ("all", "dev", "test")))
    console = Console()
    console.print(table)
    for miss in report["dev_mistakes"]:
        console.print(f"dev case {miss['case']}: missed {miss['missed']}, extra {miss['extra']}")
