"""Runs stored procedures on SQL Server (pymssql, in worker threads): one T-SQL batch per call
(``sqlserver_batch.build_batch``), built with bound values only.

Connections come from the shared pool (``executors/pool.py``: at most ``max_connections`` in use, up
to ``max_idle`` kept open, pinged with ``SELECT 1`` before reuse): one connection and one transaction
per session. A pooled connection keeps its session state, so each batch drops its own ``#`` tables
at its end and sets its options at its top; after a failed call the session is rolled back, then
the ``#`` tables that call may have left are dropped; a connection whose rollback fails, or that was
lost or timed out, is closed instead of pooled.

``SqlServerExecutor`` is written against pymssql's DB-API but has NOT been run against a server
(none is available where apiatlas is developed; its tests use a scripted pymssql connection): treat
it as untested. Read-only is enforced by rolling every transaction back — SQL Server has no
read-only transaction mode — so point it at a login with read permissions only.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote, urlsplit

from apiatlas.catalog.model import Api, DomainType
from apiatlas.errors import ConfigError, ReasonCode
from apiatlas.executors.base import (
    CallRequest,
    CallResult,
    ExecutionLimits,
    TableResult,
    error_result,
    json_value,
    ok_result,
)
from apiatlas.executors.errors import ValidationError
from apiatlas.executors.pool import DEFAULT_MAX_CONNECTIONS, ConnectionPool, Driver
from apiatlas.executors.pooled import PooledExecutor, PooledSession
from apiatlas.executors.sqlserver_batch import build_batch, drop_tables, session_tables
from apiatlas.executors.validation import validate_call

# SQL Server / DB-Library error numbers (https://learn.microsoft.com/sql/relational-databases/errors-events).
_TIMEOUT_ERRORS = {20003, 1222, -2}  # query timeout, lock request timeout, client timeout
_UNAVAILABLE_ERRORS = {20002, 20004, 20006, 20009, 20017, 20020, 20047, 20058, 4060, 18456, 233, 10054}
_NOT_FOUND_ERRORS = {2812, 208, 207}  # no such procedure, object, column
_READ_ONLY_ERRORS = {3906, 229, 262}  # read-only database, permission denied


def classify_error(args: tuple[Any, ...], api: Api) -> tuple[ReasonCode, str, str | None]:
    """(reason, message, documented error code) for a pymssql error's ``args``.

    pymssql raises every server error as ``(number, message bytes)``; a procedure's
    ``RAISERROR(50001, 16, 1)`` / ``THROW 50001`` surfaces as number 50001.
    """
    payload: Any = args[0] if len(args) == 1 and isinstance(args[0], tuple) else args
    number = payload[0] if payload and isinstance(payload[0], int) else None
    raw = payload[1] if number is not None and len(payload) > 1 else payload[0] if payload else ""
    text = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else str(raw)
    lines = [line.split("DB-Lib error message")[0].strip() for line in text.splitlines()]
    useful = [line for line in lines if line and not line.startswith("General SQL Server error")]
    first = useful[0] if useful else "unknown error"
    documented = {e.code: e.description for e in api.errors}
    if number in _TIMEOUT_ERRORS or "timed out" in text.lower():
        return ReasonCode.TIMEOUT, f"{api.key} exceeded its time limit: {first}", None
    if number in _UNAVAILABLE_ERRORS:
        return ReasonCode.UPSTREAM_UNAVAILABLE, f"database unavailable: {first}", None
    if number in _NOT_FOUND_ERRORS:
        return ReasonCode.NOT_EXECUTABLE, f"{api.key} cannot be called in this database: {first}", None
    if number in _READ_ONLY_ERRORS:
        return ReasonCode.TOOL_EXECUTION_ERROR, f"{api.key} tried to write or lacks permission: {first}", None
    code = str(number) if number is not None and str(number) in documented else None
    message = f"{api.key} failed: {first}"
    if code is not None:
        message += f" (error {code}: {documented[code]})" if documented[code] else f" (error {code})"
    return ReasonCode.TOOL_EXECUTION_ERROR, message, code


def connect_arguments(url: str, limits: ExecutionLimits) -> dict[str, Any]:
    """pymssql.connect keyword arguments from ``mssql://user:password@host:port/database``."""
    parts = urlsplit(url)
    if not parts.hostname:
        raise ConfigError("an mssql:// URL needs a host: mssql://user:password@host:port/database")
    return {
        "server": parts.hostname,
        "port": str(parts.port or 1433),
        "user": unquote(parts.username or ""),
        "password": unquote(parts.password or ""),
        "database": parts.path.lstrip("/"),
        "login_timeout": limits.connect_timeout_s,
        "timeout": max(1, limits.statement_timeout_ms // 1000),
        "autocommit": False,
        "appname": "apiatlas",
    }


class _Link:
    """A pymssql connection as the pool holds it: ``broken`` once it may not be reused, and the ``#``
    tables a failed batch may have left behind (dropped before the connection goes back)."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self.broken = False
        self.leftover: set[str] = set()

    def ping(self) -> None:
        cursor = self.raw.cursor()
        cursor.execute("SELECT 1")
        cursor.fetchall()

    def finish(self, commit: bool) -> None:
        """Commit or roll back; then drop what a failed batch left (in a transaction of its own)."""
        self.raw.commit() if commit else self.raw.rollback()
        if self.leftover:
            self.raw.cursor().execute(drop_tables(sorted(self.leftover)))
            self.raw.commit()
            self.leftover.clear()

    def close(self) -> None:
        self.broken = True
        self.raw.close()


class SqlServerExecutor(PooledExecutor[_Link]):
    """The SQL Server executor (pymssql, run in a worker thread). Untested against a live server."""

    def __init__(
        self,
        url: str,
        limits: ExecutionLimits | None = None,
        *,
        types: Mapping[str, DomainType] | None = None,
        default_schema: str = "dbo",
        isolation: str = "READ COMMITTED",
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
        max_idle: int | None = None,
    ) -> None:
        import pymssql

        self.limits = limits or ExecutionLimits()
        self.types = dict(types or {})
        self.default_schema = default_schema
        self.isolation = isolation
        self._connect_args = connect_arguments(url, self.limits)
        driver: Driver[_Link] = Driver(
            connect=lambda: asyncio.to_thread(lambda: _Link(pymssql.connect(**self._connect_args))),
            ping=lambda link: asyncio.to_thread(link.ping),
            finish=lambda link, commit: asyncio.to_thread(link.finish, commit),
            close=lambda link: asyncio.to_thread(link.close),
            usable=lambda link: not link.broken,
            errors=(pymssql.Error,),
        )
        self._pool = ConnectionPool(driver, max_connections=max_connections, max_idle=max_idle)

    def _open(self, connection: _Link) -> _SqlServerSession:
        return _SqlServerSession(self, connection)


class _SqlServerSession(PooledSession):
    def __init__(self, executor: SqlServerExecutor, link: _Link) -> None:
        self.executor = executor
        self.link = link
        self.conn = link.raw
        self.failed = False

    async def call(self, request: CallRequest) -> CallResult:
        import pymssql

        started = time.perf_counter()
        api = request.api
        ex = self.executor
        try:
            validated = validate_call(
                api, request.args, request.input_tables, limits=ex.limits, types=ex.types
            )
            batch, params = build_batch(
                api,
                validated,
                ex.limits,
                types=ex.types,
                default_schema=ex.default_schema,
                isolation=ex.isolation,
            )
        except ValidationError as exc:
            return error_result(api.key, exc.code, exc.message, started)
        if self.link.broken:
            self.failed = True
            return error_result(
                api.key, ReasonCode.UPSTREAM_UNAVAILABLE, "the database connection was lost earlier", started
            )
        try:
            result_sets = await asyncio.to_thread(self._execute, batch, params)
        except pymssql.Error as exc:
            self.failed = True
            self.link.leftover.update(session_tables(api))
            reason, message, code = classify_error(exc.args, api)
            if reason in (ReasonCode.UPSTREAM_UNAVAILABLE, ReasonCode.TIMEOUT):
                self.link.broken = True  # lost, or a batch cut short: never reuse this connection
            return error_result(api.key, reason, message, started, error_code=code)
        names = [t.name for t in api.output_tables] or ["result"]
        ours = result_sets[-len(names) :] if result_sets else []
        tables = [
            self._table(name, columns, rows) for name, (columns, rows) in zip(names, ours, strict=False)
        ]
        return ok_result(api.key, tables, started)

    def _execute(self, batch: str, params: tuple[Any, ...]) -> list[tuple[list[str], list[tuple[Any, ...]]]]:
        cursor = self.conn.cursor()
        cursor.execute(batch, params)
        result_sets: list[tuple[list[str], list[tuple[Any, ...]]]] = []
        while True:
            if cursor.description:
                result_sets.append(([d[0] for d in cursor.description], cursor.fetchall()))
            if not cursor.nextset():
                break
        return result_sets

    def _table(self, name: str, columns: list[str], raw: list[tuple[Any, ...]]) -> TableResult:
        limits = self.executor.limits
        truncated = len(raw) > limits.max_rows
        rows: list[dict[str, Any]] = []
        for record in raw[: limits.max_rows]:
            row: dict[str, Any] = {}
            for column, value in zip(columns, record, strict=True):
                row[column], cut = json_value(value, limits.max_value_bytes)
                truncated = truncated or cut
            rows.append(row)
        return TableResult(name=name, columns=columns, rows=rows, row_count=len(rows), truncated=truncated)
