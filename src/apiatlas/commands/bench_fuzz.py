"""``apiatlas bench fuzz``: a seeded fuzz campaign against live servers over stdio and HTTP."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from apiatlas.cli_app import bench_app
from apiatlas.errors import ApiatlasError


@bench_app.command("fuzz")
def bench_fuzz_command(
    snapshot: Annotated[Path, typer.Argument(help="The snapshot to serve (*.atlas).")],
    db: Annotated[str, typer.Option("--db", help="Database URL the servers execute on (PostgreSQL).")],
    calls: Annotated[
        int, typer.Option("--calls", min=1, help="Calls to make, half over stdio, half over HTTP.")
    ] = 10_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed: the same seed makes the same calls.")] = 0,
    timeout: Annotated[
        float, typer.Option("--timeout", min=1, help="Seconds after which a call is a hang.")
    ] = 30.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Fuzz a live server with schema-generated and hostile calls; report crashes, hangs, unknown
    answers and database changes (exit 1 when any is non-zero).

    Use when you change the server or a source and want proof that no input crashes it, stalls it,
    gets an answer without a reason code, or changes the database.
    """
    from apiatlas.fuzz.campaign import run_fuzz

    if not snapshot.is_file():
        typer.secho(f"error: snapshot not found: {snapshot}", fg="red", err=True)
        raise typer.Exit(2)
    try:
        report = run_fuzz(snapshot, db, calls=calls, seed=seed, timeout_s=timeout)
    except ApiatlasError as exc:
        typer.secho(f"error: {exc}", fg="red", err=True)
        raise typer.Exit(2) from exc
    if as_json:
        typer.echo(json.dumps(report.model_dump() | {"failed": report.failed}, ensure_ascii=False, indent=2))
    else:
        figures = (
            f"calls {report.calls} ({', '.join(f'{k} {v}' for k, v in report.by_transport.items())}) in "
            f"{report.seconds} s, seed {report.seed}\n"
            f"crashes {report.crashes}, hangs {report.hangs}, unknown shapes {report.unknown_shapes}, "
            f"oversized answers {report.oversized_answers}, database changes {len(report.db_changes)} "
            f"(of {report.tables_checked} tables)\n"
            f"internal errors {report.internal_errors}, not sent {report.not_sent}, "
            f"largest answer {report.max_answer_bytes} bytes"
        )
        typer.echo(figures)
        typer.echo("reasons: " + ", ".join(f"{k} {v}" for k, v in report.reasons.items()))
        typer.echo(
            "HTTP statuses to garbage: " + ", ".join(f"{k} {v}" for k, v in report.http_statuses.items())
        )
        for line in report.failures:
            typer.echo(f"  {line}")
    if report.failed:
        raise typer.Exit(1)
