"""Checks a call against the API contract and coerces JSON values to bindable Python values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from apiatlas.catalog.model import Api, DomainType, Param, SessionTable
from apiatlas.errors import ReasonCode
from apiatlas.executors.base import ExecutionLimits
from apiatlas.executors.errors import ValidationError
from apiatlas.executors.value_types import CoercionError, ValueKind, ValueSpec, coerce, value_spec


@dataclass(frozen=True)
class ValidatedCall:
    """A call that fits its contract: every parameter (None when not given) and every input row, coerced."""

    api: Api
    args: dict[str, Any]  # Param.name -> bound value, in documented order
    input_tables: dict[str, list[dict[str, Any]]]  # SessionTable.name -> rows with every column
    table_kinds: dict[str, list[tuple[str, ValueKind]]] = field(default_factory=dict)  # in and out tables


SHOWN_NAMES = 5  # unknown names an error message repeats
SHOWN_NAME_CHARS = 60


def shown_name(name: object) -> str:
    """A caller's name as an error message repeats it: quoted and cut to SHOWN_NAME_CHARS."""
    text = repr(str(name))
    return text if len(text) <= SHOWN_NAME_CHARS else text[: SHOWN_NAME_CHARS - 3] + "..."


def normalize_name(name: str) -> str:
    """How argument, table and column names are matched: without '@', case-insensitive."""
    return name.strip().lstrip("@").lower()


def param_spec(param: Param, types: Mapping[str, DomainType] | None = None) -> ValueSpec:
    """What a parameter accepts: its JSON Schema when the types pass filled it, else its domain type."""
    return value_spec(param.domain_type, param.json_schema, types)


def table_kinds(
    table: SessionTable, types: Mapping[str, DomainType] | None = None
) -> list[tuple[str, ValueKind]]:
    """(column name, kind) of every column of a session table, in documented order (schema first)."""
    return [(c.name, value_spec(c.domain_type, c.json_schema, types).kind) for c in table.columns]


def check_executable(api: Api) -> None:
    """Refuse APIs the documentation marks forbidden or not implemented."""
    if api.forbidden:
        raise ValidationError(
            f"{api.key} is marked forbidden in the documentation and cannot be called",
            api_key=api.key,
            code=ReasonCode.NOT_EXECUTABLE,
        )
    if api.implemented is False:
        raise ValidationError(
            f"{api.key} is documented as not implemented and cannot be called",
            api_key=api.key,
            code=ReasonCode.NOT_EXECUTABLE,
        )


def validate_call(
    api: Api,
    args: Mapping[str, Any],
    input_tables: Mapping[str, Any],
    *,
    limits: ExecutionLimits | None = None,
    types: Mapping[str, DomainType] | None = None,
) -> ValidatedCall:
    """Check ``args`` and ``input_tables`` against ``api``; raise ValidationError naming the bad field."""
    chosen = limits or ExecutionLimits()
    check_executable(api)
    bound_args = _validate_args(api, args, chosen, types)
    bound_tables = _validate_tables(api, input_tables, chosen, types)
    kinds = {t.name: table_kinds(t, types) for t in [*api.input_tables, *api.output_tables]}
    return ValidatedCall(api=api, args=bound_args, input_tables=bound_tables, table_kinds=kinds)


def given_arguments(api: Api, args: Mapping[str, Any]) -> dict[str, Any]:
    """The given values by the API's own parameter names (matched loosely); an unknown name is refused."""
    by_name = {normalize_name(p.name): p for p in api.params}
    given: dict[str, Any] = {}
    unknown: list[str] = []
    for raw_name, value in args.items():
        param = by_name.get(normalize_name(str(raw_name)))
        if param is None:
            unknown.append(str(raw_name))
        else:
            given[param.name] = value
    if unknown:
        accepted = ", ".join(p.name for p in api.params) or "none"
        more = f" and {len(unknown) - SHOWN_NAMES} more" if len(unknown) > SHOWN_NAMES else ""
        raise ValidationError(
            f"{api.key} has no argument {', '.join(shown_name(u) for u in unknown[:SHOWN_NAMES])}{more}; "
            f"accepted arguments: {accepted}",
            api_key=api.key,
            field=unknown[0][:SHOWN_NAME_CHARS],
        )
    return given


def argument_value(api: Api, param: Param, given: Mapping[str, Any], what: str) -> Any:
    """The value given for ``param``, else its default (None when neither and it is optional); a
    required one with neither is MISSING_REQUIRED_INPUT, the message naming ``what`` it is."""
    value = given.get(param.name)
    if value is None:
        value = param.default
    if value is None and param.required:
        raise ValidationError(
            f"{api.key} requires argument {param.name!r} ({what})"
            + (f": {param.description}" if param.description else ""),
            api_key=api.key,
            field=param.name,
            code=ReasonCode.MISSING_REQUIRED_INPUT,
        )
    return value


def _validate_args(
    api: Api, args: Mapping[str, Any], limits: ExecutionLimits, types: Mapping[str, DomainType] | None
) -> dict[str, Any]:
    given = given_arguments(api, args)
    bound: dict[str, Any] = {}
    for param in api.params:
        value = argument_value(api, param, given, param.domain_type or "any")
        try:
            bound[param.name] = coerce(value, param_spec(param, types), limits.max_value_bytes)
        except CoercionError as exc:
            raise ValidationError(
                f"argument {param.name!r} of {api.key}: {exc}", api_key=api.key, field=param.name
            ) from None
    return bound


def _validate_tables(
    api: Api, input_tables: Mapping[str, Any], limits: ExecutionLimits, types: Mapping[str, DomainType] | None
) -> dict[str, list[dict[str, Any]]]:
    by_name = {normalize_name(t.name): t for t in api.input_tables}
    given: dict[str, Any] = {}
    for raw_name, rows in input_tables.items():
        table = by_name.get(normalize_name(str(raw_name)))
        if table is None:
            accepted = ", ".join(t.name for t in api.input_tables) or "none"
            raise ValidationError(
                f"{api.key} has no input table {shown_name(raw_name)}; accepted input tables: {accepted}",
                api_key=api.key,
                field=str(raw_name)[:SHOWN_NAME_CHARS],
            )
        given[table.name] = rows
    bound: dict[str, list[dict[str, Any]]] = {}
    for table in api.input_tables:
        rows = given.get(table.name)
        if not rows:
            columns = ", ".join(f"{c.name} ({c.domain_type})" for c in table.columns)
            raise ValidationError(
                f"{api.key} requires at least one row in input table {table.name!r} with columns {columns}",
                api_key=api.key,
                field=table.name,
                code=ReasonCode.MISSING_REQUIRED_INPUT,
            )
        if not isinstance(rows, list):
            raise ValidationError(
                f"input table {table.name!r} of {api.key} must be a list of rows (objects)",
                api_key=api.key,
                field=table.name,
            )
        if len(rows) > limits.max_input_rows:
            raise ValidationError(
                f"input table {table.name!r} of {api.key} has {len(rows)} rows; "
                f"the limit is {limits.max_input_rows}",
                api_key=api.key,
                field=table.name,
            )
        bound[table.name] = [_validate_row(api, table, i, row, limits, types) for i, row in enumerate(rows)]
    return bound


def _validate_row(
    api: Api,
    table: SessionTable,
    index: int,
    row: Any,
    limits: ExecutionLimits,
    types: Mapping[str, DomainType] | None,
) -> dict[str, Any]:
    where = f"row {index} of input table {table.name!r} of {api.key}"
    if not isinstance(row, Mapping):
        raise ValidationError(
            f"{where} must be an object of column values", api_key=api.key, field=table.name
        )
    by_name = {normalize_name(c.name): c for c in table.columns}
    values: dict[str, Any] = {}
    for raw_name, value in row.items():
        column = by_name.get(normalize_name(str(raw_name)))
        if column is None:
            accepted = ", ".join(c.name for c in table.columns)
            raise ValidationError(
                f"{where} has no column {shown_name(raw_name)}; accepted columns: {accepted}",
                api_key=api.key,
                field=f"{table.name}.{str(raw_name)[:SHOWN_NAME_CHARS]}",
            )
        values[column.name] = value
    if all(v is None for v in values.values()):
        raise ValidationError(
            f"{where} has no values",
            api_key=api.key,
            field=table.name,
            code=ReasonCode.MISSING_REQUIRED_INPUT,
        )
    bound: dict[str, Any] = {}
    for column in table.columns:
        try:
            spec = value_spec(column.domain_type, column.json_schema, types)
            bound[column.name] = coerce(values.get(column.name), spec, limits.max_value_bytes)
        except CoercionError as exc:
            raise ValidationError(
                f"column {column.name!r} in {where}: {exc}",
                api_key=api.key,
                field=f"{table.name}.{column.name}",
            ) from None
    return bound
