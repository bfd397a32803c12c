"""``apiatlas serve``: serve a snapshot over MCP (stdio or Streamable HTTP), optionally executing on a DB."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import anyio
import typer

from apiatlas.cli_app import app
from apiatlas.errors import ApiatlasError, ConfigError
from apiatlas.executors.base import ExecutionLimits, Executor
from apiatlas.executors.registry import executor_for_url
from apiatlas.server.config import ServerConfig
from apiatlas.server.result_text import RESULT_TEXT_FORMS
from apiatlas.snapshot import Snapshot
from apiatlas.snapshot.manifest import ExecutorKind, serving_of

if TYPE_CHECKING:
    from apiatlas.security.config import SecurityConfig
    from apiatlas.server.app import AtlasServer

DB_URL_ENV = "APIATLAS_DB_URL"
log = logging.getLogger("apiatlas.serve")


def load_config(config_file: Path | None, host: str | None, port: int | None) -> ServerConfig:
    config = ServerConfig.load(config_file) if config_file else ServerConfig()
    if host is not None:
        config.http.host = host
    if port is not None:
        config.http.port = port
    return config


def make_executor(
    db_url: str | None,
    snapshot: Snapshot,
    config: ServerConfig,
    upstream: str | None = None,
    max_concurrent_executions: int | None = None,
) -> Executor | None:
    """The executor the snapshot's manifest names (``serving.executor``): ``sql`` snapshots run on ``db_url``
    (or $APIATLAS_DB_URL), ``http`` snapshots on ``upstream`` (or ``upstream.base_url`` of the config), a
    snapshot without an executor on none; None when no URL is set.
    The SQL database pool (PostgreSQL, SQL Server) is sized by the config's ``database_pool``, by default from
    ``max_concurrent_executions`` (the security config's cap)."""
    url = _executor_url(serving_of(snapshot.manifest()).executor, db_url, upstream, config)
    if not url:
        return None
    limits = ExecutionLimits(
        statement_timeout_ms=config.limits.statement_timeout_ms,
        max_rows=config.limits.max_rows,
        max_value_bytes=config.limits.max_value_bytes,
    )
    types = snapshot.all_types()  # the executor looks types up by name (exact, then upper-case)
    http = config.upstream.http_settings() if url.lower().startswith(("http://", "https://")) else None
    pool = config.database_pool.sized(max_concurrent_executions)
    return executor_for_url(url, limits, types=types, http=http, pool=pool)


def _executor_url(
    kind: ExecutorKind | None, db_url: str | None, upstream: str | None, config: ServerConfig
) -> str | None:
    """The URL the snapshot's executor kind runs on; a URL for the other kind is a ConfigError."""
    if kind == "http":
        if db_url:
            raise ConfigError(
                "this snapshot is served over HTTP: point it at its upstream with --upstream, not --db"
            )
        return upstream or config.upstream.base_url
    if upstream:
        raise ConfigError(
            "--upstream is for snapshots served over HTTP (e.g. OpenAPI); this one runs on --db URL"
            if kind == "sql"
            else "this snapshot's source has no executor: serve it without --upstream"
        )
    if kind is None:
        if db_url:
            raise ConfigError("this snapshot's source has no executor: serve it without --db")
        return None
    return db_url or os.environ.get(DB_URL_ENV)


def check_search(snapshot: Snapshot, config: ServerConfig) -> None:
    """Before serving: the query model must match the snapshot's vectors (else a located error), and a
    snapshot whose vectors nobody can match is served by words, with a warning that says how to fix it.
    Nothing is loaded for it: the search engine and its model load with the first search."""
    from apiatlas.search.providers import served_search_note

    note = served_search_note(snapshot, config.embedding)
    if note:
        log.warning("%s", note)


@app.command()
def serve(
    snapshot_path: Annotated[Path, typer.Argument(metavar="SNAP", help="snapshot file (*.atlas)")],
    db: Annotated[
        str | None,
        typer.Option("--db", help=f"database URL for execution (else ${DB_URL_ENV}; none: navigation only)"),
    ] = None,
    transport: Annotated[str, typer.Option(help="stdio or http (Streamable HTTP)")] = "stdio",
    host: Annotated[str | None, typer.Option(help="HTTP host (default 127.0.0.1)")] = None,
    port: Annotated[int | None, typer.Option(help="HTTP port (default 8765)")] = None,
    config_file: Annotated[Path | None, typer.Option("--config", help="server config YAML")] = None,
    upstream: Annotated[
        str | None,
        typer.Option("--upstream", help="REST snapshots: base URL of the API to call (http[s]://)"),
    ] = None,
    curated: Annotated[
        Path | None, typer.Option("--curated", help="curated-tools YAML (apiatlas suggest-curated --out)")
    ] = None,
    security_file: Annotated[
        Path | None,
        typer.Option("--security", help="security YAML: auth, roles, limits, audit, TLS (HTTP only)"),
    ] = None,
    stateless: Annotated[
        bool, typer.Option("--stateless", help="HTTP: no MCP sessions, every request stands alone")
    ] = False,
    embedding: Annotated[
        str | None,
        typer.Option(
            "--embedding",
            help="the model that embeds queries of a snapshot embedded by an endpoint: "
            "openai:MODEL@BASE_URL (default: the snapshot's bundled model)",
        ),
    ] = None,
    result_text: Annotated[
        str | None,
        typer.Option(
            "--result-text",
            help="text beside each answer's structured content: lines (the data as lines and tables, "
            "default), summary (clients that forward the structured content), json",
        ),
    ] = None,
    evidence_journal: Annotated[
        Path | None,
        typer.Option(
            "--evidence-journal",
            help="SQLite file where resumable sessions' evidence and playbook progress outlive a restart",
        ),
    ] = None,
) -> None:
    """Serve a snapshot to LLM agents over MCP (stdout carries only the protocol on stdio)."""
    logging.basicConfig(
        stream=sys.stderr, level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )
    if transport not in ("stdio", "http"):
        typer.echo(f"error: --transport must be stdio or http, not {transport!r}", err=True)
        raise typer.Exit(2)
    if result_text is not None and result_text not in RESULT_TEXT_FORMS:
        forms = ", ".join(RESULT_TEXT_FORMS)
        typer.echo(f"error: --result-text must be one of {forms}, not {result_text!r}", err=True)
        raise typer.Exit(2)
    try:
        config = load_config(config_file, host, port)
        if result_text is not None:
            config.result_text = result_text
        if evidence_journal is not None:
            config.evidence.journal = evidence_journal
        snapshot = Snapshot.open(snapshot_path)
        security, db = _security_for(security_file, transport, db)
        if curated is not None:
            config.curated = curated
        if embedding is not None:
            config.embedding = embedding
        config.http.stateless = config.http.stateless or stateless
        check_search(snapshot, config)
        executor, write_executor = _executors(db, snapshot, config, upstream, security)
        from apiatlas.server.app import build_server  # the MCP SDK loads only for this command

        server = build_server(snapshot, executor, config)
    except ApiatlasError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    mode: Literal["stdio", "http"] = "http" if transport == "http" else "stdio"
    try:
        _run(mode, server, snapshot, config, security, executor, write_executor)
    except KeyboardInterrupt:
        pass
    except ApiatlasError as exc:  # a problem found only when serving starts: one line, no traceback
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    finally:
        for running in (executor, write_executor):
            if running is not None:
                anyio.run(running.close)
        snapshot.close()


def _security_for(
    security_file: Path | None, transport: str, db: str | None
) -> tuple[SecurityConfig | None, str | None]:
    """The security config (``--security``, HTTP only; docs/operations.md) and the database URL it allows."""
    if security_file is None:
        return None, db
    if transport != "http":
        raise ConfigError("--security protects HTTP: use it with --transport http (stdio has one user)")
    from apiatlas.security.config import SecurityConfig
    from apiatlas.security.secrets import configured_database_url

    security = SecurityConfig.load(security_file)
    return security, configured_database_url(db, allow_plaintext=security.allow_plaintext_passwords)


def _executors(
    db: str | None,
    snapshot: Snapshot,
    config: ServerConfig,
    upstream: str | None,
    security: SecurityConfig | None,
) -> tuple[Executor | None, Executor | None]:
    """The executor, and the one that keeps writes, only for roles an operator enabled write APIs for."""
    cap = security.limits.max_concurrent_executions if security is not None else None
    executor = make_executor(db, snapshot, config, upstream, cap)
    if security is None or executor is None:
        return executor, None
    from apiatlas.security.gateway import needs_write_executor

    if not needs_write_executor(security):
        return executor, None
    write_executor = make_executor(db, snapshot, config, upstream, cap)
    assert write_executor is not None
    write_executor.limits = write_executor.limits.model_copy(update={"read_only": False})
    return executor, write_executor


def _run(
    mode: Literal["stdio", "http"],
    server: AtlasServer,
    snapshot: Snapshot,
    config: ServerConfig,
    security: SecurityConfig | None,
    executor: Executor | None,
    write_executor: Executor | None,
) -> None:
    """Serve until interrupted: the authenticated gateway (``--security``), stdio, or plain HTTP."""
    from apiatlas.server.app import serve_http

    if security is not None and mode == "http":
        from apiatlas.security.gateway import serve_secured

        serve_secured(snapshot, executor, config, security, write_executor)
    elif mode == "stdio":
        from apiatlas.server.stdio_guard import serve_stdio_guarded

        anyio.run(serve_stdio_guarded, server)  # every request answered, also an unreadable one
    else:
        typer.echo(f"serving on http://{config.http.host}:{config.http.port}{config.http.path}", err=True)
        serve_http(server, config)
