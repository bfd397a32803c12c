"""``apiatlas bench load``: many MCP sessions over HTTP on the embedded PostgreSQL; ``--faults`` stops it."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import anyio
import typer

from apiatlas.cli_app import bench_app
from apiatlas.commands.bench_load_report import build_report, print_report
from apiatlas.errors import ApiatlasError

DEFAULT_WORKDIR = Path(".apiatlas") / "bench-load"
OUTAGE_S = 5.0
AUDIT_FILE = "audit.jsonl"


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


def _security_files(
    workdir: Path, port: int, sessions: int, limits: dict[str, str | None]
) -> tuple[Path, str]:
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
                "limits": {"per_principal": None, **limits, "max_concurrent_executions": sessions},
                "audit": {"file": AUDIT_FILE},
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


def local_pool(sessions: int) -> int:
    """The server's database pool in the benchmark: the embedded PostgreSQL shares this machine's cores
    with the server and the load generator, so 4 connections per core (at most one per session). One
    per session (the server's default, from max_concurrent_executions) thrashes a small machine: on
    2 cores, closed loop, 50 sessions: pool 4 -> 97 calls/s, 8 -> 133, 50 -> 63."""
    return max(1, min(sessions, 4 * (os.cpu_count() or 1)))


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process so far (Linux /proc; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _load_average() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


async def _run(
    url: str,
    key: str,
    sessions: int,
    seconds: float,
    pg: Any,
    faults: int,
    think: tuple[float, float],
    server_pid: int,
    sample_s: float = 60.0,
) -> dict[str, Any]:
    from apiatlas.embedded_pg import EmbeddedPostgres
    from apiatlas.samples.bank_load import sample_bank_workload
    from apiatlas.security.load import generate_load, reference
    from apiatlas.soak import growth, sample_resources

    workload = sample_bank_workload()  # the bench serves the sample bank (see _prepare)

    marks: list[dict[str, float]] = []  # one per database outage
    result: dict[str, Any] = {"load_average_start": _load_average()}
    cpu = (_cpu_seconds(server_pid), time.process_time())
    t0 = time.perf_counter()

    async def load() -> None:
        result["run"] = await generate_load(url, key, sessions, seconds, *think, workload=workload)

    async def outages() -> None:  # at 1/(n+2), 2/(n+2), ... of the run: the rest of it shows recovery
        server = pg
        for index in range(1, faults + 1):
            await anyio.sleep(max(0.0, t0 + seconds * index / (faults + 2) - time.perf_counter()))
            mark = {"down": time.perf_counter() - t0}
            await anyio.to_thread.run_sync(server.stop)
            mark["stopped"] = time.perf_counter() - t0
            await anyio.sleep(OUTAGE_S)
            mark["restart"] = time.perf_counter() - t0
            server = EmbeddedPostgres(pg.data_dir)
            await anyio.to_thread.run_sync(server.start)
            mark["up"] = time.perf_counter() - t0
            marks.append(mark)
            result["pg"] = server

    resources: list[dict[str, Any]] = []  # the server's RSS and open fds every sample_s (soak)
    async with anyio.create_task_group() as group:
        group.start_soon(load)
        group.start_soon(sample_resources, server_pid, sample_s, t0 + seconds, resources)
        if faults:
            group.start_soon(outages)
    result["resources"] = growth(resources, warm_up_s=min(300.0, seconds / 5))
    wall = time.perf_counter() - t0
    server_cpu = _cpu_seconds(server_pid)
    result["cpu"] = {
        "wall_s": round(wall, 1),
        "cores": os.cpu_count(),
        "server_s": round(server_cpu - cpu[0], 1) if server_cpu is not None and cpu[0] is not None else None,
        "load_generator_s": round(time.process_time() - cpu[1], 1),
    }
    result["load_average_end"] = _load_average()
    result["reference"] = await reference(url, key, workload)
    return {**result, "marks": marks, "pg": result.get("pg", pg)}


@bench_app.command("load")
def bench_load(
    seconds: Annotated[float, typer.Option(min=1, help="how long the load runs")] = 60,
    sessions: Annotated[int, typer.Option(min=1, help="concurrent MCP sessions")] = 50,
    fault: Annotated[
        bool, typer.Option("--fault", help=f"stop the database for {OUTAGE_S:g} s mid-load (--faults 1)")
    ] = False,
    faults: Annotated[
        int,
        typer.Option(min=0, help=f"stop the database N times ({OUTAGE_S:g} s each), spread over the run"),
    ] = 0,
    limits_storage: Annotated[
        str | None,
        typer.Option(help="the rate limits' storage, e.g. redis://127.0.0.1:6379/0 (default memory://)"),
    ] = None,
    per_principal: Annotated[
        str | None,
        typer.Option(help="a rate limit per principal, e.g. 100000/minute (default: none)"),
    ] = None,
    workdir: Annotated[
        Path, typer.Option(help="database files, snapshot, keys, audit log")
    ] = DEFAULT_WORKDIR,
    think_ms: Annotated[
        float,
        typer.Option(min=0, help="pause of each session between calls (0: closed loop at saturation)"),
    ] = 0,
    think_jitter: Annotated[
        float,
        typer.Option(
            min=0, max=1, help="spread of the pauses: each drawn from think x [1-f, 1+f] (0: all equal)"
        ),
    ] = 0,
    pool: Annotated[
        int | None,
        typer.Option(min=1, help="the server's database pool (default: 4 per CPU core, at most sessions)"),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
    sample_s: Annotated[
        float, typer.Option("--sample-s", min=1, help="seconds between samples of the server's RSS and fds")
    ] = 60.0,
) -> None:
    """Load an authenticated `apiatlas serve` with many MCP sessions calling search and execute."""
    workdir = workdir.resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        pg, db_url, snapshot = _prepare(workdir)
        (workdir / AUDIT_FILE).unlink(missing_ok=True)  # this run's calls only
    except ApiatlasError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    port = _free_port()
    faults = max(faults, 1 if fault else 0)
    limits = {"storage": limits_storage, "per_principal": per_principal}
    security, key = _security_files(workdir, port, sessions, {k: v for k, v in limits.items() if v})
    env = {**os.environ, "APIATLAS_DB_URL": db_url}
    command = [sys.executable, "-m", "apiatlas.entry", "serve", str(snapshot), "--transport", "http"]
    command += ["--port", str(port), "--security", str(security)]
    pool = pool or local_pool(sessions)
    config = workdir / "server.yaml"
    config.write_text(json.dumps({"database_pool": {"max_connections": pool}}), encoding="utf-8")
    command += ["--config", str(config)]
    log = workdir / "serve.log"
    with log.open("wb") as sink:
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=sink, env=env)
    try:
        _wait_listening(server, port, log)
        url = f"http://127.0.0.1:{port}/mcp"
        think = (think_ms / 1000, think_jitter)
        outcome = anyio.run(_run, url, key, sessions, seconds, pg, faults, think, server.pid, sample_s)
        outcome["audit"] = workdir / AUDIT_FILE
        pg = outcome["pg"]
        report = build_report(outcome, sessions, server.poll() is None, bool(faults))
        report["limits"] = limits
        report["think_ms"] = think_ms
        report["think_jitter"] = think_jitter
        report["database_pool"] = pool
        report["resources"] = outcome["resources"]  # soak: RSS and fds per sample, growth after warm-up
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
        print_report(report)
        soak = report["resources"]
        typer.echo(
            f"server after {soak['warm_up_s']:g} s warm-up: RSS growth {soak['rss_growth_pct']} %, "
            f"open fds growth {soak['fd_growth_pct']} % (samples: "
            + ", ".join(
                f"{s['at_s']:g}s {s['rss_kib'] // 1024} MiB/{s['open_fds']} fds" for s in soak["samples"]
            )
            + ")"
        )
