"""Turns parsed SQL Server routines, table types and extended properties into a Catalog."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from apiatlas.catalog.model import (
    Api,
    BusinessObject,
    Catalog,
    Column,
    Direction,
    ExecutorBinding,
    Param,
    SessionTable,
    SideEffect,
)
from apiatlas.errors import Diagnostic, Location, ReasonCode, Severity
from apiatlas.passes.type_map import register_base_type
from apiatlas.sources.mssql_ddl.parser import DESCRIPTION_PROPERTIES, ExtendedProperty, Routine, TableType
from apiatlas.sources.mssql_ddl.results import final_select_columns
from apiatlas.sources.sql_body import BodyFacts, Dialect, classify_writes

_ORDER = [SideEffect.READ, SideEffect.WRITE, SideEffect.DESTRUCTIVE]


@dataclass
class SqlServerObjects:
    """Everything read from a project or a live database, with where each routine was found."""

    routines: list[tuple[Routine, Location]] = field(default_factory=list)
    table_types: list[TableType] = field(default_factory=list)
    properties: list[tuple[ExtendedProperty, Location]] = field(default_factory=list)


@dataclass
class _Descriptions:
    schemas: dict[str, str] = field(default_factory=dict)
    routines: dict[tuple[str, str], str] = field(default_factory=dict)
    params: dict[tuple[str, str, str], str] = field(default_factory=dict)
    tables: dict[tuple[str, str], str] = field(default_factory=dict)  # tables and table types
    columns: dict[tuple[str, str, str], str] = field(default_factory=dict)
    other: int = 0  # indexes, constraints: not about an API


def _descriptions(objects: SqlServerObjects) -> _Descriptions:
    found = _Descriptions()
    for prop, _ in objects.properties:
        if prop.name not in DESCRIPTION_PROPERTIES or not prop.levels:
            continue
        lowered = [(t, n.lower().lstrip("@")) for t, n in prop.levels]
        types = [t for t, _ in lowered]
        names = [n for _, n in lowered]
        if types == ["SCHEMA"]:
            found.schemas[names[0]] = prop.value
        elif types[:2] in (["SCHEMA", "PROCEDURE"], ["SCHEMA", "FUNCTION"]) and len(types) == 2:
            found.routines[(names[0], names[1])] = prop.value
        elif types[:2] in (["SCHEMA", "PROCEDURE"], ["SCHEMA", "FUNCTION"]) and types[2] == "PARAMETER":
            found.params[(names[0], names[1], names[2])] = prop.value
        elif types[:2] in (["SCHEMA", "TABLE"], ["SCHEMA", "TYPE"], ["SCHEMA", "VIEW"]) and len(types) == 2:
            found.tables[(names[0], names[1])] = prop.value
        elif (
            types[:2] in (["SCHEMA", "TABLE"], ["SCHEMA", "TYPE"], ["SCHEMA", "VIEW"])
            and types[2] == "COLUMN"
        ):
            found.columns[(names[0], names[1], names[2])] = prop.value
        else:
            found.other += 1
    return found


def build_catalog(objects: SqlServerObjects, *, source_kind: str) -> Catalog:
    """One API per routine (key ``schema.name``), one business object per schema, TVPs as input tables."""
    catalog = Catalog(source_kind=source_kind)
    texts = _descriptions(objects)
    table_types = {(t.schema.lower(), t.name.lower()): t for t in objects.table_types}
    facts: dict[str, BodyFacts] = {}
    for routine, location in objects.routines:
        key = f"{routine.schema}.{routine.name}"
        if key in catalog.apis:
            catalog.add_diagnostic(
                Diagnostic(severity=Severity.WARNING, code=ReasonCode.DUPLICATE_KEY,
                           message=f"{key} is defined twice; the first definition is kept", location=location)
            )  # fmt: skip
            continue
        facts[key] = classify_writes(routine.body, Dialect.TSQL)
        if (
            not routine.body and routine.kind == "procedure"
        ):  # encrypted or unreadable: never assumed read-only
            facts[key].note(SideEffect.WRITE, "the body cannot be read")
        catalog.apis[key] = _api(routine, location, texts, table_types, facts[key], catalog)
    _transitive_side_effects(catalog, facts)
    for api in catalog.apis.values():
        obj = catalog.objects.get(api.object_key)
        if obj is None:
            description = texts.schemas.get(api.object_key.lower(), "")
            obj = catalog.objects[api.object_key] = BusinessObject(
                key=api.object_key, name=api.object_key, title=description or api.object_key,
                description=description,
            )  # fmt: skip
        obj.api_keys.append(api.key)
    for obj in catalog.objects.values():
        obj.api_keys.sort()
    catalog.stats["descriptions"] = {
        "schemas": len(texts.schemas),
        "routines": len(texts.routines),
        "parameters": len(texts.params),
        "tables": len(texts.tables),
        "columns": len(texts.columns),
        "indexes_and_constraints": texts.other,
    }
    return catalog


def _api(
    routine: Routine,
    location: Location,
    texts: _Descriptions,
    table_types: dict[tuple[str, str], TableType],
    facts: BodyFacts,
    catalog: Catalog,
) -> Api:
    key = f"{routine.schema}.{routine.name}"
    where = (routine.schema.lower(), routine.name.lower())
    description = texts.routines.get(where, "")
    params: list[Param] = []
    inputs: list[SessionTable] = []
    output_params: list[str] = []
    for p in routine.params:
        text = texts.params.get((*where, p.name.lower()), "")
        type_key = tuple(p.type_name.lower().split(".")[-2:])
        table_type = table_types.get((type_key[0], type_key[1])) if len(type_key) == 2 else None
        if p.readonly or table_type is not None:
            inputs.append(_tvp(p.name, p.type_name, table_type, text, texts, catalog, location))
            continue
        _register_type(catalog, p.type_name)
        if p.output:
            output_params.append(p.name)
        params.append(
            Param(name=p.name, domain_type=p.type_name, required=p.default is None and not p.output,
                  description=text or ("OUTPUT parameter" if p.output else ""), default=_literal(p.default))
        )  # fmt: skip
    outputs: list[SessionTable] = []
    columns = final_select_columns(routine.body)
    if columns:
        outputs.append(
            SessionTable(
                name="result", direction=Direction.OUT,
                description="rows of the final SELECT",
                columns=[Column(name=c.name, description=_column_text(texts, c.source_table, c.source_column))
                         for c in columns],
            )
        )  # fmt: skip
    tables = {t: texts.tables[_split(t)] for t in dict.fromkeys(facts.tables) if _split(t) in texts.tables}
    extra: dict[str, Any] = {"sql_kind": routine.kind, "side_effect_reasons": list(facts.reasons)}
    if routine.returns:
        extra["returns"] = routine.returns
    if output_params:
        extra["output_params"] = output_params
    if inputs:  # how the SQL Server executor declares and passes them
        extra["tvp_types"] = {
            p.name: p.type_name for p in routine.params if p.name in {t.name for t in inputs}
        }
    if outputs:
        extra["result_sets"] = [t.name for t in outputs]
    if tables:
        extra["tables"] = tables
    return Api(
        key=key,
        object_key=routine.schema,
        title=description.splitlines()[0] if description else "",
        description=description,
        params=params,
        input_tables=inputs,
        output_tables=outputs,
        approved=True,
        implemented=True,
        forbidden=False,
        side_effect=SideEffect.READ if routine.kind == "function" else facts.side_effect,
        executor=ExecutorBinding(
            kind="sql_function" if routine.kind == "function" else "sql_procedure",
            target=f"[{routine.schema}].[{routine.name}]",
        ),
        source=location,
        extra=extra,
    )


def _tvp(
    name: str,
    type_name: str,
    table_type: TableType | None,
    text: str,
    texts: _Descriptions,
    catalog: Catalog,
    location: Location,
) -> SessionTable:
    columns: list[Column] = []
    if table_type is None:
        catalog.add_diagnostic(
            Diagnostic(severity=Severity.WARNING, code=ReasonCode.DANGLING_REFERENCE,
                       message=f"table-valued parameter @{name} uses {type_name}, a table type not defined "
                               "in the source; its columns are unknown", location=location)
        )  # fmt: skip
    else:
        owner = (table_type.schema.lower(), table_type.name.lower())
        for c in table_type.columns:
            _register_type(catalog, c.type_name)
            columns.append(
                Column(name=c.name, domain_type=c.type_name,
                       description=texts.columns.get((*owner, c.name.lower()), ""))
            )  # fmt: skip
    type_text = texts.tables.get(_split(type_name), "")
    description = text or f"table-valued parameter @{name} of type {type_name}"
    if type_text:
        description += f": {type_text}"
    return SessionTable(name=name, direction=Direction.IN, description=description, columns=columns)


def _register_type(catalog: Catalog, type_name: str) -> None:
    register_base_type(catalog.types, type_name, "SQL Server")


def _split(name: str) -> tuple[str, str]:
    parts = name.lower().split(".")
    return (parts[-2] if len(parts) >= 2 else "dbo", parts[-1])


def _column_text(texts: _Descriptions, table: str | None, column: str | None) -> str:
    if table is None or column is None:
        return ""
    return texts.columns.get((*_split(table), column.lower()), "")


def _literal(default: str | None) -> Any:
    if default is None or default.upper() == "NULL":
        return None
    if default.startswith("'") and default.endswith("'"):
        return default[1:-1]
    try:
        return int(default)
    except ValueError:
        try:
            return float(default)
        except ValueError:
            return default


def _transitive_side_effects(catalog: Catalog, facts: dict[str, BodyFacts]) -> None:
    """A procedure running another is at least as strong; an unknown procedure counts as a write."""
    by_name: dict[str, str] = {}
    for key in catalog.apis:
        schema, name = key.split(".", 1)
        by_name[key.lower()] = key
        by_name.setdefault(name.lower(), key)
        by_name.setdefault(f"dbo.{name}".lower() if schema.lower() == "dbo" else key.lower(), key)
    changed = True
    while changed:
        changed = False
        for key, fact in facts.items():
            api = catalog.apis[key]
            if api.extra.get("sql_kind") == "function":
                continue
            for called in fact.exec_calls:
                target = by_name.get(called.lower()) or by_name.get(called.split(".")[-1].lower())
                if target is None:
                    effect, why = SideEffect.WRITE, f"runs {called}, whose body is not in the source"
                else:
                    effect, why = catalog.apis[target].side_effect, f"runs {target}"
                if _ORDER.index(effect) > _ORDER.index(api.side_effect):
                    api.side_effect = effect
                    api.extra["side_effect_reasons"] = [*api.extra["side_effect_reasons"], why]
                    changed = True
    grouped: dict[str, int] = defaultdict(int)
    for api in catalog.apis.values():
        grouped[api.side_effect.value] += 1
    catalog.stats["side_effects"] = dict(sorted(grouped.items()))
