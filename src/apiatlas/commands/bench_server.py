"""``apiatlas bench server``: manifest tokens vs one tool per API, responses, cold start, latency."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import anyio
import typer

from apiatlas.cli_app import bench_app
from apiatlas.commands.serve import DB_URL_ENV, load_config, make_executor
from apiatlas.errors import ApiatlasError
from apiatlas.samples.demo_scenarios import BENCH_CALL
from apiatlas.snapshot import Snapshot

if TYPE_CHECKING:
    from apiatlas.server.benchmark import ServerBench

# the execute figures' call when the snapshot has it: the sample bank's (samples/demo_scenarios.py)
DEFAULT_CALL = BENCH_CALL
COLD_START_TARGET_MS = 300.0  # spawn to the first tools/list answer, any snapshot


def render(report: ServerBench) -> str:
    lines = [
        f"snapshot: {report.snapshot} ({report.kept_apis} kept APIs)",
        f"tokens: {report.encoding} — {report.encoding_note}",
        "",
        "tools/list manifest        tools   tokens",
        f"  meta-tools (this server) {report.meta_tools:>6} {report.meta_manifest_tokens:>8}",
        f"  one tool per API         {report.per_api_tools:>6} {report.per_api_manifest_tokens:>8}",
        f"  ratio                           {report.manifest_ratio:>8}x",
        "",
        "typical response           status   reason                text tok  structured tok",
    ]
    for name, r in report.responses.items():
        lines.append(
            f"  {name:<28} {r.status:<8} {r.reason or '-':<20} {r.text_tokens:>8} {r.structured_tokens:>14}"
        )
    lines += [
        "",
        f"cold start to first tools/list over stdio: {report.cold_start_ms} ms "
        f"(median {report.cold_start_median_ms} ms)",
        "",
        "latency (in-process client)      n     p50 ms    p95 ms",
    ]
    for name, q in report.latency.items():
        lines.append(f"  {name:<28} {q.n:>4} {q.p50_ms:>10} {q.p95_ms:>9}")
    if report.execute is not None:
        e = report.execute
        lines += [
            "",
            f"execute {e.api} {json.dumps(e.args, ensure_ascii=False)}   n   p50 ms   p95 ms",
            f"  through MCP execute_api      {e.mcp_execute_api.n:>4} {e.mcp_execute_api.p50_ms:>8} "
            f"{e.mcp_execute_api.p95_ms:>8}",
            f"  executor.call (no MCP)       {e.executor_call.n:>4} {e.executor_call.p50_ms:>8} "
            f"{e.executor_call.p95_ms:>8}",
            f"  bare psycopg (baseline)      {e.bare_psycopg.n:>4} {e.bare_psycopg.p50_ms:>8} "
            f"{e.bare_psycopg.p95_ms:>8}",
            f"  overhead of the server at p50: {e.overhead_p50_ms} ms",
        ]
    lines += [f"note: {n}" for n in report.notes]
    return "\n".join(lines)


@bench_app.command("server")
def bench_server(
    snapshot_path: Annotated[Path, typer.Argument(metavar="SNAP", help="snapshot file (*.atlas)")],
    db: Annotated[
        str | None, typer.Option("--db", help=f"database URL (else ${DB_URL_ENV}) for execute figures")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
    repeat: Annotated[int, typer.Option(min=1, help="calls per latency figure")] = 30,
    cold_runs: Annotated[int, typer.Option(min=1, help="stdio cold starts to time")] = 3,
    api: Annotated[str, typer.Option(help="API for the execute figures")] = DEFAULT_CALL[0],
    args: Annotated[str, typer.Option(help="its arguments as JSON")] = json.dumps(
        DEFAULT_CALL[1], ensure_ascii=False
    ),
    config_file: Annotated[Path | None, typer.Option("--config", help="server config YAML")] = None,
) -> None:
    """Measure the MCP server: manifest tokens vs one tool per API, responses, cold start, latency."""
    try:
        config = load_config(config_file, None, None)
        call_args = json.loads(args)
        url = db or os.environ.get(DB_URL_ENV)
        with Snapshot.open(snapshot_path) as snap:
            executor = make_executor(url, snap, config)
    except (ApiatlasError, json.JSONDecodeError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc

    from apiatlas.server.benchmark import measure

    async def run() -> ServerBench:
        try:
            return await measure(
                snapshot_path,
                executor,
                url,
                config=config,
                repeat=repeat,
                cold_runs=cold_runs,
                call=(api, call_args),
            )
        finally:
            if executor is not None:
                await executor.close()

    report = anyio.run(run)
    typer.echo(report.model_dump_json(indent=2) if as_json else render(report))


def _first_start(snapshot_path: Path) -> list[tuple[float, float]]:
    """One start as on a machine that never served the snapshot: a new folder, an empty cache."""
    import tempfile

    from apiatlas.local_cache import CACHE_ENV
    from apiatlas.server.benchmark import cold_start

    with tempfile.TemporaryDirectory(prefix="apiatlas-first-start-") as scratch:
        env = {CACHE_ENV: str(Path(scratch) / "cache")}
        return anyio.run(cold_start, snapshot_path.resolve(), 1, env, Path(scratch))


@bench_app.command("cold-start")
def bench_cold_start(
    snapshot_path: Annotated[Path, typer.Argument(metavar="SNAP", help="snapshot file (*.atlas)")],
    runs: Annotated[int, typer.Option(min=1, help="stdio cold starts to time, each way")] = 5,
    as_json: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
) -> None:
    """Time `apiatlas serve SNAP` from spawn to the first tools/list answer (official MCP client, stdio),
    three ways, alternating, in one run: a first start (a new folder, an empty $APIATLAS_CACHE: only the
    snapshot's own record of a default server's first answers can answer early, server/start_record.py);
    a later start (the answers held from the previous one, server/stdio_start.py); and without either
    (APIATLAS_STDIO_START=off, everything loaded first)."""
    import statistics

    from apiatlas.server.benchmark import cold_start
    from apiatlas.server.start_record import recorded_answers

    try:
        Snapshot.open(snapshot_path).close()  # a located error before anything is spawned
    except ApiatlasError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    recorded = bool(recorded_answers(["serve", str(snapshot_path)]))
    load_before = os.getloadavg()[0]
    anyio.run(cold_start, snapshot_path, 1)  # a start that holds the answers for the next ones
    first: list[tuple[float, float]] = []
    held: list[tuple[float, float]] = []
    loaded: list[tuple[float, float]] = []
    for _ in range(runs):
        first += _first_start(snapshot_path)
        held += anyio.run(cold_start, snapshot_path, 1)
        loaded += anyio.run(cold_start, snapshot_path, 1, {"APIATLAS_STDIO_START": "off"})
    listed, called = [h[0] for h in held], [h[1] for h in held]
    median, load_after = round(statistics.median(listed), 1), round(os.getloadavg()[0], 2)
    first_median = round(statistics.median(f[0] for f in first), 1)
    figures: dict[str, object] = {
        "snapshot": str(snapshot_path),
        "snapshot_record_applies": recorded,
        "first_start_ms": [f[0] for f in first],
        "first_start_median_ms": first_median,
        "first_start_first_call_ms": [f[1] for f in first],
        "cold_start_ms": listed,
        "median_ms": median,
        "min_ms": min(listed),
        "first_call_ms": called,
        "without_held_answers_ms": [h[0] for h in loaded],
        "without_held_answers_median_ms": round(statistics.median(h[0] for h in loaded), 1),
        "without_held_answers_first_call_ms": [h[1] for h in loaded],
        "target_ms": COLD_START_TARGET_MS,
        "cpus": os.cpu_count(),
        "load_average_1min": {"before": round(load_before, 2), "after": load_after},
    }
    if as_json:
        typer.echo(json.dumps(figures, indent=2))
        return

    def shown(values: list[float]) -> str:
        return ", ".join(f"{t:g}" for t in values) + f" ms (median {round(statistics.median(values), 1)})"

    def verdict(value: float) -> str:
        return f"target ≤ {COLD_START_TARGET_MS:g} ms: {'ok' if value <= COLD_START_TARGET_MS else 'missed'}"

    record = (
        "answered from the snapshot's record of a default server's first answers"
        if recorded
        else "no record in the snapshot applies: compiled before it had one, by other code, "
        "or not a default start (APIATLAS_*/PG* set)"
    )
    typer.echo(
        f"cold start over stdio, spawn to the first tools/list answer ({runs} runs each way, alternating)\n"
        f"  first start (new folder, empty cache; {record}):\n"
        f"    {shown([f[0] for f in first])}; {verdict(first_median)}\n"
        f"    to a first tool call's answer after it: {shown([f[1] for f in first])}\n"
        f"  later start (answers held from the previous start): {shown(listed)}; {verdict(median)}\n"
        f"    to a first tool call's answer after it: {shown(called)}\n"
        f"  without either (APIATLAS_STDIO_START=off): {shown([h[0] for h in loaded])}\n"
        f"    to a first tool call's answer after it: {shown([h[1] for h in loaded])}\n"
        f"  {os.cpu_count()} CPUs, load average {round(load_before, 2)} → {load_after}"
    )
