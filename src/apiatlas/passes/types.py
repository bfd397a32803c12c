"""The types pass: merge the built-in DS* map with the documented types, give every field its JSON Schema."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from apiatlas.catalog.model import Api, Catalog, Column, DomainType, Param, SessionTable
from apiatlas.errors import Diagnostic, Location, ReasonCode, Severity
from apiatlas.passes.config import BuildConfig
from apiatlas.passes.context import PassContext
from apiatlas.passes.type_map import schema_from_base_type

FALLBACK_SCHEMA: dict[str, Any] = {"type": "string"}


def _merge_one(builtin: DomainType | None, documented: DomainType | None) -> DomainType:
    if builtin is None and documented is not None:
        schema = dict(documented.json_schema) or schema_from_base_type(documented.base_type)
        return documented.model_copy(update={"json_schema": schema})
    assert builtin is not None
    if documented is None:
        return builtin.model_copy(deep=True)
    schema = dict(builtin.json_schema)
    if documented.json_schema:
        schema.update(documented.json_schema)
    elif documented.base_type:
        derived = schema_from_base_type(documented.base_type)
        if derived.get("type") != schema.get("type"):
            schema = derived  # the documented base type wins over the built-in guess
        elif "maxLength" in derived:
            schema["maxLength"] = derived["maxLength"]
    return builtin.model_copy(
        update={
            "base_type": documented.base_type or builtin.base_type,
            "meaning": documented.meaning or builtin.meaning,
            "example": builtin.example if documented.example is None else documented.example,
            "json_schema": schema,
            "source": documented.source,
        },
        deep=True,
    )


def merge_types(
    documented: dict[str, DomainType], config: BuildConfig, builtin: Mapping[str, DomainType] | None = None
) -> dict[str, DomainType]:
    """The source format's built-in types overlaid with the documented ones; class flags (generic, user
    value) from config."""
    known = builtin or {}
    merged: dict[str, DomainType] = {}
    for name in sorted(set(known) | set(documented)):
        one = _merge_one(known.get(name), documented.get(name))
        merged[name] = one.model_copy(
            update={"generic": config.is_generic(name, known), "user_value": config.is_user_value(name)}
        )
    return merged


def is_generic_type(catalog: Catalog, config: BuildConfig, type_name: str) -> bool:
    """Whether a type is too common to link APIs by type alone (merged map first, then the config)."""
    known = catalog.types.get(type_name)
    return known.generic if known is not None else config.is_generic(type_name)


def is_user_value_type(catalog: Catalog, config: BuildConfig, type_name: str) -> bool:
    """Whether a value of this type is something a user can say (a name, a date, an account number)."""
    known = catalog.types.get(type_name)
    return known.user_value if known is not None else config.is_user_value(type_name)


def field_schema(
    domain_type: str,
    description: str,
    types: dict[str, DomainType],
    *,
    example: Any = None,
    default: Any = None,
) -> dict[str, Any]:
    """JSON Schema of one field: the type's schema, a description like ``Фамилия [DSVARFULLNAME]``."""
    known = types.get(domain_type)
    schema: dict[str, Any] = dict(known.json_schema) if known is not None else dict(FALLBACK_SCHEMA)
    text = description.strip() or (known.meaning if known is not None else "")
    if domain_type:
        text = f"{text} [{domain_type}]".strip()
    if text:
        schema["description"] = text
    shown = example if example is not None else (known.example if known is not None else None)
    if shown is not None:
        schema["example"] = shown
    if default is not None:
        schema["default"] = default
    return schema


def _column_schema(column: Column, types: dict[str, DomainType]) -> dict[str, Any]:
    return field_schema(column.domain_type, column.description, types)


# A value's part of a schema's sharing key: its type too (1, 1.0 and True are equal keys but different
# JSON); None when the value cannot be a key (a list, a dict): that field gets a schema of its own.
_Scalar = str | int | float | bool | None
_NO_KEY = None  # what _value_key gives for a value that cannot be part of a key


def _value_key(value: Any) -> tuple[type, _Scalar] | None:
    return (type(value), value) if isinstance(value, _Scalar) else _NO_KEY


def assign_schemas(
    catalog: Catalog, types: dict[str, DomainType], *, source_schemas_win: bool | None = None
) -> int:
    """Fill Param.json_schema and Column.json_schema of every API; returns the number of fields typed.

    A parameter that arrived with its own JSON Schema keeps it when it has no domain type, or always when
    ``source_schemas_win`` (None: as the catalog's source format says, e.g. OpenAPI's enums and bodies).
    Fields alike (same domain type, description, example and default) share one schema dict: a catalog
    repeats its fields across APIs, and a dict per column was a tenth of a large catalog's memory. No
    pass changes a schema in place (each assigns a new one).
    """
    if source_schemas_win is None:
        from apiatlas.sources import source_format

        source_schemas_win = source_format(catalog.source_kind).source_schemas_win
    unknown_seen: set[str] = set()
    shared: dict[tuple[Any, ...], dict[str, Any]] = {}
    fields = 0
    for key in sorted(catalog.apis):
        api = catalog.apis[key]
        for param in api.params:
            fields += 1
            if param.json_schema and (not param.domain_type or source_schemas_win):
                continue  # a source that already knows the schema keeps it
            _check_known(catalog, api, param.domain_type, param.name, types, unknown_seen)
            schema = _param_schema(param, types, shared)
            if param.json_schema is not schema:  # alike fields are often one instance (bank_html's alike.py)
                param.json_schema = schema
        for table in [*api.input_tables, *api.output_tables]:
            for column in table.columns:
                fields += 1
                _check_known(
                    catalog, api, column.domain_type, f"{table.name}.{column.name}", types, unknown_seen
                )
                alike = ("column", column.domain_type, column.description)
                schema = shared.get(alike)
                if schema is None:
                    schema = shared[alike] = _column_schema(column, types)
                if column.json_schema is not schema:
                    column.json_schema = schema
    return fields


def _param_schema(param: Param, types: dict[str, DomainType], shared: dict[tuple[Any, ...], Any]) -> Any:
    """The parameter's schema: the one of an alike parameter seen before (in ``shared``), else a new one."""
    example, default = _value_key(param.example), _value_key(param.default)
    alike = ("param", param.domain_type, param.description, example, default)
    schema = shared.get(alike) if example is not _NO_KEY and default is not _NO_KEY else None
    if schema is None:
        schema = field_schema(
            param.domain_type, param.description, types, example=param.example, default=param.default
        )
        if example is not _NO_KEY and default is not _NO_KEY:  # a list or dict value: a schema of its own
            shared[alike] = schema
    return schema


def _check_known(
    catalog: Catalog, api: Api, domain_type: str, field: str, types: dict[str, DomainType], seen: set[str]
) -> None:
    if not domain_type or domain_type in types or domain_type in seen:
        return
    seen.add(domain_type)
    base = api.source or Location()
    catalog.add_diagnostic(
        Diagnostic(
            severity=Severity.WARNING,
            code=ReasonCode.UNKNOWN_DOMAIN_TYPE,
            message=f"domain type {domain_type!r} (first used by {api.key}.{field}) is neither built in nor "
            "documented; treated as a string",
            location=base.model_copy(update={"anchor": f"{api.key}.{field}"}),
        )
    )


def _table_schema(table: SessionTable, kind: str) -> dict[str, Any]:
    properties = {c.name: c.json_schema or dict(FALLBACK_SCHEMA) for c in table.columns}
    label = f"{kind} {table.name}" + (f": {table.description}" if table.description else "")
    return {
        "type": "array",
        "description": label,
        "items": {
            "type": "object",
            "properties": properties,
            "required": [c.name for c in table.columns],
            "additionalProperties": False,
        },
    }


def input_schema(api: Api) -> dict[str, Any]:
    """The API's input as one JSON Schema object: scalar params, then each input table as an array of rows.

    Every column of an input table is required in each row and a table with columns is itself required
    (the documentation format has no per-column "required" mark; a lookup by a list needs its keys).
    """
    properties: dict[str, Any] = {}
    required: list[str] = []
    for param in api.params:
        schema = dict(param.json_schema) or {**FALLBACK_SCHEMA, "description": param.description}
        properties[param.name] = schema
        if param.required:
            required.append(param.name)
    for table in api.input_tables:
        table_schema = _table_schema(table, "Входная таблица")
        if table.columns:
            table_schema["minItems"] = 1
            required.append(table.name)
        properties[table.name] = table_schema
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def output_schema(api: Api) -> dict[str, Any]:
    """The API's output as one JSON Schema object: each output table as an array of rows."""
    properties = {t.name: _table_schema(t, "Выходная таблица") for t in api.output_tables}
    return {"type": "object", "properties": properties}


def types(catalog: Catalog, config: BuildConfig, context: PassContext) -> None:
    """Runs before the graph: edges compare the merged types, entry points read their user-value class."""
    documented = len(catalog.types)
    builtin = context.source_of(catalog).builtin_types()
    catalog.types = merge_types(catalog.types, config, builtin)
    before = sum(1 for d in catalog.diagnostics if d.code is ReasonCode.UNKNOWN_DOMAIN_TYPE)
    fields = assign_schemas(
        catalog, catalog.types, source_schemas_win=context.source_of(catalog).source_schemas_win
    )
    unknown = sum(1 for d in catalog.diagnostics if d.code is ReasonCode.UNKNOWN_DOMAIN_TYPE) - before
    catalog.stats["types"] = {
        "builtin": len(builtin),
        "documented": documented,
        "merged": len(catalog.types),
        "fields_typed": fields,
        "unknown": unknown,
    }
    context.progress(f"types: {len(catalog.types)} types, {fields} fields typed, {unknown} unknown")
