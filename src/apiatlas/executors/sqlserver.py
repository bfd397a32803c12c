"""Runs stored procedures on SQL Server (pymssql): one T-SQL batch per call, built with bound values only.

``build_batch`` is a pure function and is unit-tested. ``SqlServerExecutor`` is written against
pymssql's DB-API but has NOT been run against a server (none is available where apiatlas is
developed): treat it as untested. Read-only is enforced by rolling every transaction back —
SQL Server has no read-only transaction mode — so point it at a login with read permissions only.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any
from urllib.parse import unquote, urlsplit

from apiatlas.catalog.model import Api, DomainType
from apiatlas.errors import ConfigError, ReasonCode
from apiatlas.executors.base import (
    CallRequest,
    CallResult,
    ExecutionLimits,
    Executor,
    ExecutorSession,
    TableResult,
    error_result,
    json_value,
    ok_result,
)
from apiatlas.executors.errors import ValidationError
from apiatlas.executors.identifiers import check_identifier, split_target
from apiatlas.executors.unavailable import UnavailableSession
from apiatlas.executors.validation import ValidatedCall, validate_call
from apiatlas.executors.value_types import ValueKind

SQLSERVER_TYPES: dict[ValueKind, str] = {
    ValueKind.INTEGER: "BIGINT",
    ValueKind.NUMBER: "DECIMAL(38,10)",
    ValueKind.STRING: "NVARCHAR(4000)",
    ValueKind.DATE: "DATE",
    ValueKind.DATETIME: "DATETIME2",
    ValueKind.BOOLEAN: "BIT",
}
ISOLATION_LEVELS = ("READ UNCOMMITTED", "READ COMMITTED", "REPEATABLE READ", "SNAPSHOT", "SERIALIZABLE")
# Base types from DomainTypes.htm used as they are when they are plain SQL Server types.
_BASE_TYPE = re.compile(
    r"^(?:tinyint|smallint|int|bigint|bit|money|smallmoney|date|datetime|datetime2|smalldatetime|float|real"
    r"|uniqueidentifier|(?:n?(?:var)?char)\((?:\d{1,4}|max)\)|(?:numeric|decimal)\(\d{1,2}(?:,\s*\d{1,2})?\))$",
    re.IGNORECASE,
)
_INSERT_CHUNK = 1000  # SQL Server accepts at most 1000 rows per VALUES list


def bracket(name: str) -> str:
    """``[name]`` — only for names that passed ``check_identifier`` (so no ']' to escape)."""
    return f"[{name}]"


def column_type(domain_type: str, kind: ValueKind, types: Mapping[str, DomainType] | None = None) -> str:
    """The SQL Server type of a session-table column: the domain type's base type when plain, else by kind."""
    known = (types or {}).get(domain_type)
    if known is not None and _BASE_TYPE.match(known.base_type.strip()):
        return re.sub(r"\s+", "", known.base_type.strip()).upper()
    return SQLSERVER_TYPES[kind]


def build_batch(
    api: Api,
    call: ValidatedCall,
    limits: ExecutionLimits | None = None,
    *,
    types: Mapping[str, DomainType] | None = None,
    default_schema: str = "dbo",
    isolation: str = "READ COMMITTED",
) -> tuple[str, tuple[Any, ...]]:
    """The T-SQL batch of one call and its parameters (pymssql ``%s`` placeholders, values never in the text).

    Creates ``#`` session tables, inserts the input rows, EXECs the procedure with named parameters
    (or selects from a table-valued function) and selects each output table capped at max_rows + 1.
    """
    chosen = limits or ExecutionLimits()
    if isolation not in ISOLATION_LEVELS:
        raise ConfigError(f"unknown isolation level {isolation!r}; use one of {', '.join(ISOLATION_LEVELS)}")
    schema, routine = split_target(api, default_schema)
    routine_sql = f"{bracket(schema)}.{bracket(routine)}"
    cap = int(chosen.max_rows) + 1
    lines = [
        "SET NOCOUNT ON;",
        "SET XACT_ABORT ON;",
        f"SET LOCK_TIMEOUT {int(chosen.statement_timeout_ms)};",
        f"SET TRANSACTION ISOLATION LEVEL {isolation};",
    ]
    params: list[Any] = []
    if api.executor.kind == "sql_function":
        placeholders = ", ".join("%s" for _ in call.args)
        if _returns_scalar(api):  # SELECT [s].[f](…) AS [f]: one row, one value
            lines.append(f"SELECT {routine_sql}({placeholders}) AS {routine_sql.split('.')[-1]};")
        else:
            lines.append(f"SELECT TOP ({cap}) * FROM {routine_sql}({placeholders});")
        return "\n".join(lines), tuple(call.args.values())
    tvp_types, result_sets = _introspected(api)
    tables = {t.name: t for t in [*api.input_tables, *api.output_tables]}
    for name, type_name in tvp_types.items():
        type_schema, type_routine = type_name.split(".", 1) if "." in type_name else ("dbo", type_name)
        lines.append(
            f"DECLARE @{check_identifier(name, api_key=api.key, what='table-valued parameter')} "
            f"{bracket(check_identifier(type_schema, api_key=api.key, what='type schema'))}."
            f"{bracket(check_identifier(type_routine, api_key=api.key, what='table type'))};"
        )
    for name, table in tables.items():
        if name in tvp_types or name in result_sets:
            continue
        temp = bracket("#" + check_identifier(name, api_key=api.key, what="session table"))
        columns = ", ".join(
            f"{bracket(check_identifier(c.name, api_key=api.key, what='column'))} "
            f"{column_type(c.domain_type, kind, types)} NULL"
            for c, (_, kind) in zip(table.columns, call.table_kinds[name], strict=True)
        )
        lines.append(f"DROP TABLE IF EXISTS {temp};")
        lines.append(f"CREATE TABLE {temp} ({columns});")
    for name, rows in call.input_tables.items():
        names = [c for c, _ in call.table_kinds[name]]
        column_list = ", ".join(bracket(c) for c in names)
        row_sql = "(" + ", ".join("%s" for _ in names) + ")"
        for start in range(0, len(rows), _INSERT_CHUNK):
            chunk = rows[start : start + _INSERT_CHUNK]
            values = ", ".join(row_sql for _ in chunk)
            target = f"@{name}" if name in tvp_types else bracket("#" + name)
            lines.append(f"INSERT INTO {target} ({column_list}) VALUES {values};")
            params.extend(row[c] for row in chunk for c in names)
    given = _given_arguments(api, call)
    arguments = ", ".join(
        [f"@{check_identifier(name.lstrip('@'), api_key=api.key, what='parameter')} = %s" for name in given]
        + [f"@{name} = @{name}" for name in tvp_types]
    )
    lines.append(f"EXEC {routine_sql}{' ' + arguments if arguments else ''};")
    params.extend(given.values())
    for table in api.output_tables:
        if table.name in result_sets:
            continue  # the procedure's own SELECT returns it
        column_list = ", ".join(bracket(c.name) for c in table.columns) or "*"
        lines.append(f"SELECT TOP ({cap}) {column_list} FROM {bracket('#' + table.name)};")
    return "\n".join(lines), tuple(params)


def _given_arguments(api: Api, call: ValidatedCall) -> dict[str, Any]:
    """Every argument, except, for routines read from DDL or a catalog (``extra["sql_kind"]``), optional
    ones left empty: omitted so the procedure's own default applies (passing NULL would override it)."""
    if "sql_kind" not in api.extra:
        return dict(call.args)
    optional = {p.name for p in api.params if not p.required}
    return {name: value for name, value in call.args.items() if value is not None or name not in optional}


def _returns_scalar(api: Api) -> bool:
    """A function read from DDL or a catalog that returns one value (``RETURNS int``), not a table."""
    returns = api.extra.get("returns")
    return isinstance(returns, str) and "TABLE" not in returns.upper()


def _introspected(api: Api) -> tuple[dict[str, str], set[str]]:
    """Routines read from DDL or a catalog (``sources/mssql_ddl``): TVP types of input tables, and the
    output tables the procedure returns as result sets of its own instead of filling ``#`` tables."""
    raw_types = api.extra.get("tvp_types")
    tvp_types = {str(k): str(v) for k, v in raw_types.items()} if isinstance(raw_types, dict) else {}
    raw_sets = api.extra.get("result_sets")
    result_sets = {str(n) for n in raw_sets} if isinstance(raw_sets, list) else set()
    return tvp_types, result_sets


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


class SqlServerExecutor(Executor):
    """The SQL Server executor (pymssql, run in a worker thread). Untested against a live server."""

    def __init__(
        self,
        url: str,
        limits: ExecutionLimits | None = None,
        *,
        types: Mapping[str, DomainType] | None = None,
        default_schema: str = "dbo",
        isolation: str = "READ COMMITTED",
    ) -> None:
        self.limits = limits or ExecutionLimits()
        self.types = dict(types or {})
        self.default_schema = default_schema
        self.isolation = isolation
        self._connect_args = connect_arguments(url, self.limits)

    def session(self) -> AbstractAsyncContextManager[ExecutorSession]:
        return self._session()

    @asynccontextmanager
    async def _session(self) -> AsyncIterator[ExecutorSession]:
        import pymssql

        try:
            conn = await asyncio.to_thread(lambda: pymssql.connect(**self._connect_args))
        except pymssql.Error as exc:
            yield UnavailableSession(
                f"database unavailable: {str(exc).splitlines()[0] if str(exc) else exc!r}",
                self.limits,
                self.types,
            )
            return
        session = _SqlServerSession(self, conn)
        try:
            yield session
        finally:
            try:
                if self.limits.read_only or session.failed:
                    await asyncio.to_thread(conn.rollback)
                else:
                    await asyncio.to_thread(conn.commit)
            finally:
                await asyncio.to_thread(conn.close)

    async def close(self) -> None:
        """Nothing pooled: every session opens and closes its own connection."""


class _SqlServerSession(ExecutorSession):
    def __init__(self, executor: SqlServerExecutor, conn: Any) -> None:
        self.executor = executor
        self.conn = conn
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
        try:
            result_sets = await asyncio.to_thread(self._execute, batch, params)
        except pymssql.Error as exc:
            self.failed = True
            reason, message, code = classify_error(exc.args, api)
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
