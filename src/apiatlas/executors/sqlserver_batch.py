"""The T-SQL batch of one SQL Server call: ``#`` session tables, bound input rows, the EXEC (or the
function's SELECT), the capped output SELECTs and, last, the ``#`` tables dropped again (a pooled
connection outlives the call). Pure functions: values are ``%s`` placeholders, never in the text.

Every batch sets the session options it relies on (NOCOUNT, XACT_ABORT, LOCK_TIMEOUT, isolation
level) at its top, so options left by an earlier call on a pooled connection do not carry over.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from apiatlas.catalog.model import Api, DomainType
from apiatlas.errors import ConfigError
from apiatlas.executors.base import ExecutionLimits
from apiatlas.executors.identifiers import check_identifier, split_target
from apiatlas.executors.validation import ValidatedCall
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
    temps = session_tables(api)
    for name, table in tables.items():
        if name not in temps:
            continue
        temp = bracket("#" + name)
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
    if temps:  # a pooled connection outlives the call: leave no # table to the next one
        lines.append(drop_tables(temps))
    return "\n".join(lines), tuple(params)


def session_tables(api: Api) -> list[str]:
    """The ``#`` tables a procedure call's batch creates (checked names): its input and output tables,
    except TVP inputs and outputs the procedure returns as result sets of its own."""
    if api.executor.kind == "sql_function":
        return []
    tvp_types, result_sets = _introspected(api)
    return [
        check_identifier(t.name, api_key=api.key, what="session table")
        for t in {t.name: t for t in [*api.input_tables, *api.output_tables]}.values()
        if t.name not in tvp_types and t.name not in result_sets
    ]


def drop_tables(names: list[str]) -> str:
    """``DROP TABLE IF EXISTS [#a], [#b];`` for checked session-table names."""
    return "DROP TABLE IF EXISTS " + ", ".join(bracket("#" + n) for n in names) + ";"


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
