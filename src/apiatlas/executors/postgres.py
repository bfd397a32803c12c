"""Runs stored procedures and functions on PostgreSQL (psycopg 3, async) by the session-table convention.

Connections come from the shared pool (``executors/pool.py``: at most ``max_connections`` in use, up
to ``max_idle`` kept open, pinged before reuse; ``apiatlas serve`` sizes it from the server config's
``database_pool``): one connection and one transaction per session, one savepoint per call.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Mapping
from typing import Any

import psycopg
from psycopg import sql

from apiatlas.catalog.model import DomainType
from apiatlas.errors import ReasonCode
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
from apiatlas.executors.identifiers import argument_name, check_identifier, split_target
from apiatlas.executors.pool import DEFAULT_MAX_CONNECTIONS, ConnectionPool, Driver
from apiatlas.executors.pooled import PooledExecutor, PooledSession
from apiatlas.executors.postgres_errors import error_for
from apiatlas.executors.validation import ValidatedCall, validate_call
from apiatlas.executors.value_types import ValueKind

PG_TYPES: dict[ValueKind, str] = {
    ValueKind.INTEGER: "bigint",
    ValueKind.NUMBER: "numeric",
    ValueKind.STRING: "text",
    ValueKind.DATE: "date",
    ValueKind.DATETIME: "timestamp",
    ValueKind.BOOLEAN: "boolean",
}
EXECUTABLE_KINDS = ("sql_procedure", "sql_function")
_SAVEPOINT = sql.SQL("SAVEPOINT apiatlas_call")
_ROLLBACK_SAVEPOINT = sql.SQL("ROLLBACK TO SAVEPOINT apiatlas_call")
_RELEASE_SAVEPOINT = sql.SQL("RELEASE SAVEPOINT apiatlas_call")


class PostgresExecutor(PooledExecutor[psycopg.AsyncConnection[Any]]):
    """The PostgreSQL executor: ``sql_procedure`` (CALL + temp session tables) and ``sql_function``."""

    def __init__(
        self,
        url: str,
        limits: ExecutionLimits | None = None,
        *,
        types: Mapping[str, DomainType] | None = None,
        default_schema: str = "api",
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
        max_idle: int | None = None,
    ) -> None:
        self.url = url
        self.limits = limits or ExecutionLimits()
        self.types = dict(types or {})
        self.default_schema = default_schema
        driver: Driver[psycopg.AsyncConnection[Any]] = Driver(
            connect=self._connect,
            ping=lambda conn: conn.execute("SELECT 1"),
            finish=lambda conn, commit: conn.commit() if commit else conn.rollback(),
            close=lambda conn: conn.close(),
            usable=lambda conn: not conn.broken and not conn.closed,
            errors=(psycopg.Error,),
        )
        self._pool = ConnectionPool(driver, max_connections=max_connections, max_idle=max_idle)

    def _open(self, connection: psycopg.AsyncConnection[Any]) -> _PostgresSession:
        return _PostgresSession(self, connection)

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        conn = await psycopg.AsyncConnection.connect(
            self.url,
            autocommit=False,
            connect_timeout=self.limits.connect_timeout_s,
            application_name="apiatlas",
        )
        if self.limits.read_only:
            await begin_read_write(conn)
        return conn


async def begin_read_write(conn: psycopg.AsyncConnection[Any]) -> None:
    """Begin this connection's transactions READ WRITE when its login defaults to read-only.

    A login with ``default_transaction_read_only = on`` (``apiatlas db reader-role``) could not create
    the session (temporary) tables a procedure exchanges: PostgreSQL refuses every CREATE in a
    read-only transaction, temporary tables included. A read-only executor makes each call read-only
    itself once the session tables are made and filled (``SET LOCAL transaction_read_only = on``
    before the CALL or SELECT), so only that preparation runs read-write; what the login may read or
    write is decided by its privileges, which a transaction mode never widens. A standby (in recovery)
    is left as it is: it allows no read-write transaction at all.
    """
    cur = await conn.execute(
        "SELECT current_setting('default_transaction_read_only')::boolean AND NOT pg_is_in_recovery()"
    )
    row = await cur.fetchone()
    await conn.rollback()
    if row is not None and row[0]:
        await conn.set_read_only(False)


class _PostgresSession(PooledSession):
    """One connection, one transaction; each call runs in a savepoint that is rolled back when read-only."""

    def __init__(self, executor: PostgresExecutor, conn: psycopg.AsyncConnection[Any]) -> None:
        self.executor = executor
        self.limits = executor.limits
        self.conn = conn
        self.failed = False

    async def call(self, request: CallRequest) -> CallResult:
        started = time.perf_counter()
        api = request.api
        try:
            validated = validate_call(
                api, request.args, request.input_tables, limits=self.limits, types=self.executor.types
            )
            if api.executor.kind not in EXECUTABLE_KINDS:
                raise ValidationError(
                    f"{api.key} is bound to {api.executor.kind!r}; "
                    f"this executor runs {', '.join(EXECUTABLE_KINDS)}",
                    api_key=api.key,
                    code=ReasonCode.NOT_EXECUTABLE,
                )
            routine = sql.Identifier(*split_target(api, self.executor.default_schema))
            arguments, values = call_arguments(validated)
        except ValidationError as exc:
            return error_result(api.key, exc.code, exc.message, started)
        if self.conn.broken or self.conn.closed:
            self.failed = True
            return error_result(
                api.key, ReasonCode.UPSTREAM_UNAVAILABLE, "the database connection was lost earlier", started
            )
        budget_s = self.limits.statement_timeout_ms / 1000.0 * 4 + self.limits.connect_timeout_s
        try:
            async with asyncio.timeout(budget_s):
                tables = await self._run(validated, routine, (arguments, values))
        except psycopg.Error as exc:
            self.failed = True
            return error_for(exc, api, self.conn, self.limits, started)
        except TimeoutError:
            self.failed = True
            await self.conn.close()
            return error_result(api.key, ReasonCode.TIMEOUT, f"no answer within {budget_s:.0f} s", started)
        return ok_result(api.key, tables, started)

    async def _run(
        self, call: ValidatedCall, routine: sql.Identifier, bound: tuple[sql.Composable, tuple[Any, ...]]
    ) -> list[TableResult]:
        api = call.api
        arguments, values = bound
        async with self.conn.cursor() as cur:
            await cur.execute(_SAVEPOINT)
            try:
                await cur.execute(
                    "SELECT set_config('statement_timeout', %s, true)",
                    (str(self.limits.statement_timeout_ms),),
                )
                if api.executor.kind == "sql_function":
                    tables = await self._run_function(cur, call, routine, arguments, values)
                else:
                    tables = await self._run_procedure(cur, call, routine, arguments, values)
            except psycopg.Error:
                if not self.conn.broken and not self.conn.closed:
                    with contextlib.suppress(psycopg.Error):
                        await cur.execute(_ROLLBACK_SAVEPOINT)
                raise
            if self.limits.read_only:
                await cur.execute(_ROLLBACK_SAVEPOINT)
            else:
                for name in call.table_kinds:
                    await cur.execute(sql.SQL("DROP TABLE IF EXISTS pg_temp.{}").format(sql.Identifier(name)))
                await cur.execute(_RELEASE_SAVEPOINT)
        return tables

    async def _run_procedure(
        self,
        cur: psycopg.AsyncCursor[Any],
        call: ValidatedCall,
        routine: sql.Identifier,
        arguments: sql.Composable,
        values: tuple[Any, ...],
    ) -> list[TableResult]:
        api = call.api
        for name, kinds in call.table_kinds.items():
            await cur.execute(
                create_temp_table(name, kinds, api.key) + sql.SQL("; ") + share_temp_table(name)
            )
        for name, rows in call.input_tables.items():
            columns = [c for c, _ in call.table_kinds[name]]
            await cur.executemany(insert_rows(name, columns), [tuple(r[c] for c in columns) for r in rows])
        if self.limits.read_only:
            await cur.execute("SET LOCAL transaction_read_only = on")
        await cur.execute(sql.SQL("CALL {}({})").format(routine, arguments), values)
        tables: list[TableResult] = []
        if cur.description is not None:  # OUT / INOUT parameters come back as one row
            tables.append(await self._read(cur, "out_params"))
        for table in api.output_tables:
            columns = [c for c, _ in call.table_kinds[table.name]]
            query = sql.SQL("SELECT {} FROM pg_temp.{} LIMIT %s").format(
                sql.SQL(", ").join(sql.Identifier(c.lower()) for c in columns) if columns else sql.SQL("*"),
                sql.Identifier(table.name),
            )
            await cur.execute(query, (self.limits.max_rows + 1,))
            tables.append(await self._read(cur, table.name, columns))
        return tables

    async def _run_function(
        self,
        cur: psycopg.AsyncCursor[Any],
        call: ValidatedCall,
        routine: sql.Identifier,
        arguments: sql.Composable,
        values: tuple[Any, ...],
    ) -> list[TableResult]:
        if self.limits.read_only:
            await cur.execute("SET LOCAL transaction_read_only = on")
        query = sql.SQL("SELECT * FROM {}({}) LIMIT %s").format(routine, arguments)
        await cur.execute(query, (*values, self.limits.max_rows + 1))
        documented = call.api.output_tables[0] if call.api.output_tables else None
        spelled = {c.name.lower(): c.name for c in documented.columns} if documented else {}
        columns = [spelled.get(d.name.lower(), d.name) for d in cur.description or []]
        return [await self._read(cur, documented.name if documented else "result", columns)]

    async def _read(
        self, cur: psycopg.AsyncCursor[Any], name: str, columns: list[str] | None = None
    ) -> TableResult:
        names = columns or [d.name for d in cur.description or []]
        raw = await cur.fetchall()
        truncated = len(raw) > self.limits.max_rows
        rows: list[dict[str, Any]] = []
        for record in raw[: self.limits.max_rows]:
            row: dict[str, Any] = {}
            for column, value in zip(names, record, strict=True):
                row[column], cut = json_value(value, self.limits.max_value_bytes)
                truncated = truncated or cut
            rows.append(row)
        return TableResult(name=name, columns=names, rows=rows, row_count=len(rows), truncated=truncated)


def create_temp_table(name: str, kinds: list[tuple[str, ValueKind]], api_key: str) -> sql.Composed:
    """``CREATE TEMP TABLE "name" (col type, ...)``: lower-case column names, types from value kinds."""
    check_identifier(name, api_key=api_key, what="session table")
    columns = sql.SQL(", ").join(
        sql.SQL("{} {}").format(
            sql.Identifier(check_identifier(column, api_key=api_key, what="column").lower()),
            sql.SQL(PG_TYPES[kind]),
        )
        for column, kind in kinds
    )
    return sql.SQL("CREATE TEMP TABLE {} ({})").format(sql.Identifier(name), columns)


def share_temp_table(name: str) -> sql.Composed:
    """``GRANT`` on a session table to every role of this session: a SECURITY DEFINER procedure (the
    reader role's, ``apiatlas db reader-role``) runs as its owner, which must read and fill the tables the
    login made. A temporary table is private to its session, so no other session gains anything."""
    return sql.SQL("GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON pg_temp.{} TO PUBLIC").format(
        sql.Identifier(name)
    )


def insert_rows(name: str, columns: list[str]) -> sql.Composed:
    """``INSERT INTO pg_temp."name" (cols) VALUES (%s, ...)``: values are always bound, never spliced."""
    return sql.SQL("INSERT INTO pg_temp.{} ({}) VALUES ({})").format(
        sql.Identifier(name),
        sql.SQL(", ").join(sql.Identifier(c.lower()) for c in columns),
        sql.SQL(", ").join(sql.Placeholder() for _ in columns),
    )


def call_arguments(call: ValidatedCall) -> tuple[sql.Composable, tuple[Any, ...]]:
    """The argument list and its values: the session-table convention, or ``extra["pg_arguments"]``.

    Routines read from a live catalog (``sources/postgres``) carry ``pg_arguments``: each input's real
    argument name (None when unnamed: passed by position) and whether it has a default (then a
    missing value is left out, so the database default applies instead of NULL).
    """
    described = call.api.extra.get("pg_arguments")
    if not isinstance(described, list):
        return _named_arguments(call), tuple(call.args.values())
    positional = any(item.get("argument") is None for item in described)
    parts: list[sql.Composable] = []
    values: list[Any] = []
    for item in described:
        param = str(item.get("param", ""))
        value = call.args.get(param)
        if value is None and item.get("has_default") and not positional:
            continue
        if positional:
            parts.append(sql.Placeholder())
        else:
            name = check_identifier(str(item["argument"]), api_key=call.api.key, what="argument")
            parts.append(sql.SQL("{} => {}").format(sql.Identifier(name), sql.Placeholder()))
        values.append(value)
    return sql.SQL(", ").join(parts), tuple(values)


def _named_arguments(call: ValidatedCall) -> sql.Composable:
    """``p_a => %s, p_b => %s`` in documented parameter order."""
    return sql.SQL(", ").join(
        sql.SQL("{} => {}").format(
            sql.Identifier(argument_name(name, api_key=call.api.key)), sql.Placeholder()
        )
        for name in call.args
    )
