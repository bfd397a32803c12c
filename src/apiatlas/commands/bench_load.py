"""``apiatlas bench load``: many MCP sessions over HTTP on the embedded PostgreSQL; ``--fault`` stops it."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import anyio
import typer

from apiatlas.cli_app import bench_app
from apiatlas.errors import ApiatlasError

DEFAULT_WORKDIR = Path(".apiatlas") / "bench-load"
OUTAGE_S = 5.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_listening(process: subprocess.Popen[bytes], port: int, log: Path, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while True:
        with socket.socket() as attempt:
            if attempt.connect_ex(("127.0.0.1", port)) == 0:
                return
        if process.poll() is not None:
            raise RuntimeError(f"apiatlas serve exited: {log.read_text(errors='replace')[-2000:]}")
        if time.monotonic() > deadline:
            raise RuntimeError("apiatlas serve did not listen in time")
        time.sleep(0.1)


def _security_files(workdir: Path, port: int, sessions: int) -> tuple[Path, str]:
    from apiatlas.security.auth import hash_api_key, new_api_key

    key = new_api_key()
    keys = workdir / "keys.yaml"
    keys.write_text(
        json.dumps(
            {"keys": [{"id": "bench", "principal": "bench", "roles": ["agent"], "hash": hash_api_key(key)}]}
        ),
        encoding="utf-8",
    )
    security = workdir / "security.yaml"
    security.write_text(
        json.dumps(
            {
                "auth": {"resource_url": f"http://127.0.0.1:{port}/mcp", "keys_file": "keys.yaml"},
                "roles": {"agent": {}},
                "limits": {"per_principal": None, "max_concurrent_executions": sessions},
                "audit": {"file": "audit.jsonl"},
            }
        ),
        encoding="utf-8",
    )
    return security, key


def _prepare(workdir: Path) -> tuple[Any, str, Path]:
    """The embedded PostgreSQL with the sample bank loaded, and the sample bank's snapshot."""
    from apiatlas.build import compile_docs
    from apiatlas.embedded_pg import EmbeddedPostgres
    from apiatlas.samples.bankdb import load_bank_database
    from apiatlas.samples.docs_writer import SAMPLE_DOCS, SAMPLE_OVERLAYS

    pg = EmbeddedPostgres(workdir / "pg")
    pg.start()
    db_url = pg.create_database("bank")
    load_bank_database(db_url, reset=False)
    snapshot = workdir / "bank.atlas"
    compile_docs(
        SAMPLE_DOCS, overlays_dir=SAMPLE_OVERLAYS, config_path=None, out=snapshot, write_report=False
    )
    return pg, db_url, snapshot


async def _run(
    url: str, key: str, sessions: int, seconds: float, pg: Any, fault: bool, think_s: float
) -> dict[str, Any]:
    from apiatlas.embedded_pg import EmbeddedPostgres
    from apiatlas.security.load import generate_load

    marks: dict[str, float] = {}
    t0 = time.perf_counter()
    result: dict[str, Any] = {}

    async def load() -> None:
        result["run"] = await generate_load(url, key, sessions, seconds, think_s)

    async def outage() -> None:
        await anyio.sleep(seconds / 3)
        marks["down"] = time.perf_counter() - t0
        await anyio.to_thread.run_sync(pg.stop)
        marks["stopped"] = time.perf_counter() - t0
        await anyio.sleep(OUTAGE_S)
        marks["restart"] = time.perf_counter() - t0
        restarted = EmbeddedPostgres(pg.data_dir)
        await anyio.to_thread.run_sync(restarted.start)
        marks["up"] = time.perf_counter() - t0
        result["pg"] = restarted

    async with anyio.create_task_group() as group:
        group.start_soon(load)
        if fault:
            group.start_soon(outage)
    return {"run": result["run"], "marks": marks, "pg": result.get("pg", pg)}


WARM_UP_S = 5.0


def _report(run: Any, marks: dict[str, float], sessions: int, server_alive: bool) -> dict[str, Any]:
    report: dict[str, Any] = {"sessions": sessions, "seconds": round(run.seconds, 1), **run.figures()}
    first = min((s.started for s in run.samples), default=0.0)
    report["first_call_at_s"] = round(first, 2)
    report["session_failures"] = run.session_failures
    if run.seconds > first + 2 * WARM_UP_S:  # without the burst of every session's first call
        report["after_warm_up"] = run.figures(first + WARM_UP_S)
    if marks:
        down, up = marks["down"], marks["up"]
        from apiatlas.security.load import ANSWERED_EMPTY

        failed = [s for s in run.samples if s.status == "error" and s.reason not in ANSWERED_EMPTY]
        after = [s for s in run.samples if s.kind == "execute" and s.started >= up and s.status != "error"]
        first_ok = min((s.started for s in after), default=None)
        report["fault"] = {
            "database_down_at_s": round(down, 1),
            "database_up_at_s": round(up, 1),
            "failed_calls": len(failed),
            "failure_reasons": dict(Counter(s.reason for s in failed)),
            "failed_before_stop": sum(1 for s in failed if s.started < down),
            "first_execute_ok_after_restart_s": round(first_ok - up, 2) if first_ok is not None else None,
            "after_recovery": run.figures(up + 2.0) if run.seconds > up + 2.0 else None,
            "server_restarted": not server_alive,
            "recovered_without_restart": server_alive and first_ok is not None,
        }
    return report


def _print(report: dict[str, Any]) -> None:
    typer.echo(
        f"{report['sessions']} sessions x {report['seconds']} s (think {report.get('think_ms', 0):g} ms): "
        f"{report['calls']} calls, "
        f"{report['throughput_per_s']} calls/s, {report['errors']} errors {report['error_reasons'] or ''}"
    )
    for kind in ("search", "execute"):
        k = report[kind]
        typer.echo(f"  {kind:<8} {k['calls']:>7} calls  p50 {k['p50_ms']} ms  p99 {k['p99_ms']} ms")
    typer.echo(
        f"  answered 'nothing fits' (NO_MATCH / NO_CONFIDENT_MATCH): {report['answered_nothing_fits']}"
    )
    typer.echo(f"  the first call started {report['first_call_at_s']} s after the sessions began to connect")
    steady = report.get("after_warm_up")
    if steady:
        tail = f"{steady['calls']} calls, {steady['errors']} errors"
        typer.echo(f"{WARM_UP_S:g} s after the first call: {tail}")
        for kind in ("search", "execute"):
            k = steady[kind]
            typer.echo(f"  {kind:<8} {k['calls']:>7} calls  p50 {k['p50_ms']} ms  p99 {k['p99_ms']} ms")
    if report["session_failures"]:
        typer.echo(f"  {len(report['session_failures'])} sessions failed: {report['session_failures'][:3]}")
    fault = report.get("fault")
    if fault:
        typer.echo(
            f"fault: database stopped at {fault['database_down_at_s']} s, "
            f"back at {fault['database_up_at_s']} s; {fault['failed_calls']} calls failed "
            f"(in flight or sent while it was down), reasons {fault['failure_reasons']}"
        )
        after = fault["after_recovery"]
        typer.echo(
            f"  first execute ok {fault['first_execute_ok_after_restart_s']} s after the restart; "
            + (f"after recovery: {after['calls']} calls, {after['errors']} errors; " if after else "")
            + (
                "server recovered without restart"
                if fault["recovered_without_restart"]
                else "server DID NOT recover"
            )
        )


@bench_app.command("load")
def bench_load(
    seconds: Annotated[float, typer.Option(min=1, help="how long the load runs")] = 60,
    sessions: Annotated[int, typer.Option(min=1, help="concurrent MCP sessions")] = 50,
    fault: Annotated[
        bool, typer.Option("--fault", help=f"stop the database for {OUTAGE_S:g} s mid-load")
    ] = False,
    workdir: Annotated[
        Path, typer.Option(help="database files, snapshot, keys, audit log")
    ] = DEFAULT_WORKDIR,
    think_ms: Annotated[
        float,
        typer.Option(min=0, help="pause of each session between calls (0: closed loop at saturation)"),
    ] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
) -> None:
    """Load an authenticated `apiatlas serve` with many MCP sessions calling search and execute."""
    workdir = workdir.resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        pg, db_url, snapshot = _prepare(workdir)
    except ApiatlasError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    port = _free_port()
    security, key = _security_files(workdir, port, sessions)
    env = {**os.environ, "APIATLAS_DB_URL": db_url}
    command = [sys.executable, "-m", "apiatlas.entry", "serve", str(snapshot), "--transport", "http"]
    command += ["--port", str(port), "--security", str(security)]
    log = workdir / "serve.log"
    with log.open("wb") as sink:
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=sink, env=env)
    try:
        _wait_listening(server, port, log)
        url = f"http://127.0.0.1:{port}/mcp"
        outcome = anyio.run(_run, url, key, sessions, seconds, pg, fault, think_ms / 1000)
        pg = outcome["pg"]
        report = _report(outcome["run"], outcome["marks"], sessions, server.poll() is None)
        report["think_ms"] = think_ms
    finally:
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
        pg.stop()
    if as_json:
        typer.echo(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        _print(report)
