"""Live SQL Server catalog as a source (``mssql://user@host:1433/db``): sys.* rows read through pymssql.

``rows_to_objects`` is pure and unit-tested on recorded rows; ``read_catalog_rows`` (the pymssql
part) has NOT been run against a server — none runs where apiatlas is developed — so treat it as
untested. T-SQL parameter defaults are not in ``sys.parameters`` (``has_default_value`` is set for
CLR routines only), so defaults and the body come from ``OBJECT_DEFINITION`` parsed like a DDL file;
names, types, OUTPUT and READONLY come from the catalog. Password: ``APIATLAS_DB_PASSWORD_FILE`` or
``APIATLAS_MSSQL_PASSWORD``, never the URL.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from apiatlas.catalog.model import Catalog
from apiatlas.errors import ConfigError, Location, ReasonCode, SourceError
from apiatlas.sources import Progress
from apiatlas.sources.mssql_ddl.assemble import SqlServerObjects, build_catalog
from apiatlas.sources.mssql_ddl.parser import (
    ExtendedProperty,
    Routine,
    RoutineParam,
    TableType,
    TableTypeColumn,
    parse_sql_file,
)

KIND = "mssql_catalog"
PASSWORD_ENV = "APIATLAS_MSSQL_PASSWORD"
PASSWORD_FILE_ENV = "APIATLAS_DB_PASSWORD_FILE"
_SCHEME = re.compile(r"^(mssql|sqlserver):/*", re.IGNORECASE)

ROUTINES_SQL = """
SELECT s.name AS [schema], o.name AS name, RTRIM(o.type) AS type, OBJECT_DEFINITION(o.object_id) AS definition
FROM sys.objects o JOIN sys.schemas s ON s.schema_id = o.schema_id
WHERE o.type IN ('P', 'FN', 'IF', 'TF') AND o.is_ms_shipped = 0
ORDER BY s.name, o.name
"""
PARAMETERS_SQL = """
SELECT s.name AS [schema], o.name AS routine, p.name AS name, p.parameter_id, t.name AS type_name,
       SCHEMA_NAME(t.schema_id) AS type_schema, t.is_table_type, t.is_user_defined, p.max_length, p.precision,
       p.scale, p.is_output, p.is_readonly
FROM sys.parameters p
JOIN sys.objects o ON o.object_id = p.object_id
JOIN sys.schemas s ON s.schema_id = o.schema_id
JOIN sys.types t ON t.user_type_id = p.user_type_id
WHERE o.type IN ('P', 'FN', 'IF', 'TF') AND o.is_ms_shipped = 0 AND p.parameter_id > 0
ORDER BY s.name, o.name, p.parameter_id
"""
TABLE_TYPES_SQL = """
SELECT SCHEMA_NAME(tt.schema_id) AS [schema], tt.name AS type_name, c.name AS column_name, c.column_id,
       t.name AS column_type, c.max_length, c.precision, c.scale, c.is_nullable
FROM sys.table_types tt
JOIN sys.columns c ON c.object_id = tt.type_table_object_id
JOIN sys.types t ON t.user_type_id = c.user_type_id
ORDER BY 1, 2, c.column_id
"""
PROPERTIES_SQL = """
SELECT ep.name, CONVERT(nvarchar(max), ep.value) AS value, ep.class,
       CASE ep.class WHEN 3 THEN SCHEMA_NAME(ep.major_id) WHEN 6 THEN SCHEMA_NAME(ty.schema_id)
            WHEN 8 THEN SCHEMA_NAME(tt.schema_id) ELSE SCHEMA_NAME(o.schema_id) END AS schema_name,
       CASE ep.class WHEN 6 THEN ty.name WHEN 8 THEN tt.name ELSE o.name END AS object_name,
       RTRIM(o.type) AS object_type,
       CASE WHEN ep.class = 1 AND ep.minor_id > 0 THEN COL_NAME(ep.major_id, ep.minor_id)
            WHEN ep.class = 8 THEN COL_NAME(tt.type_table_object_id, ep.minor_id) END AS column_name,
       CASE WHEN ep.class = 2 THEN pa.name END AS parameter_name
FROM sys.extended_properties ep
LEFT JOIN sys.objects o ON ep.class IN (1, 2) AND o.object_id = ep.major_id
LEFT JOIN sys.parameters pa ON ep.class = 2 AND pa.object_id = ep.major_id AND pa.parameter_id = ep.minor_id
LEFT JOIN sys.types ty ON ep.class = 6 AND ty.user_type_id = ep.major_id
LEFT JOIN sys.table_types tt ON ep.class = 8 AND tt.user_type_id = ep.major_id
WHERE ep.class IN (1, 2, 3, 6, 8)
"""
_OBJECT_LEVEL = {
    "P": "PROCEDURE",
    "FN": "FUNCTION",
    "IF": "FUNCTION",
    "TF": "FUNCTION",
    "U": "TABLE",
    "V": "VIEW",
}


def sql_type(name: str, max_length: int, precision: int, scale: int) -> str:
    """``nvarchar(100)`` from sys.types/sys.parameters facts (max_length is in bytes, -1 = max)."""
    lowered = name.lower()
    if lowered in ("varchar", "char", "varbinary", "binary"):
        return f"{lowered}({'max' if max_length == -1 else max_length})"
    if lowered in ("nvarchar", "nchar"):
        return f"{lowered}({'max' if max_length == -1 else max_length // 2})"
    if lowered in ("decimal", "numeric"):
        return f"{lowered}({precision},{scale})"
    if lowered in ("datetime2", "time", "datetimeoffset") and scale != 7:
        return f"{lowered}({scale})"
    return lowered


def rows_to_objects(rows: dict[str, list[dict[str, Any]]]) -> SqlServerObjects:
    """Recorded or live rows (``routines``, ``parameters``, ``table_types``, ``properties``) -> objects."""
    objects = SqlServerObjects()
    params: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in rows.get("parameters", []):
        params.setdefault((row["schema"], row["routine"]), []).append(row)
    for row in rows.get("routines", []):
        kind = "procedure" if row["type"] == "P" else "function"
        anchor = f"{row['schema']}.{row['name']}"
        parsed = parse_sql_file(row.get("definition") or "").routines
        from_text = parsed[0] if parsed else None
        defaults = {p.name.lower(): p.default for p in from_text.params} if from_text else {}
        routine = Routine(
            schema=row["schema"], name=row["name"], kind=kind,
            params=[_param(p, defaults) for p in params.get((row["schema"], row["name"]), [])],
            body=from_text.body if from_text else [], line=from_text.line if from_text else 1,
            returns=from_text.returns if from_text else None,
        )  # fmt: skip
        objects.routines.append((routine, Location(file="@catalog", anchor=anchor)))
    types: dict[tuple[str, str], TableType] = {}
    for row in rows.get("table_types", []):
        key = (row["schema"], row["type_name"])
        table_type = types.setdefault(key, TableType(schema=key[0], name=key[1], columns=[], line=1))
        table_type.columns.append(
            TableTypeColumn(name=row["column_name"], nullable=bool(row["is_nullable"]),
                            type_name=sql_type(row["column_type"], row["max_length"], row["precision"],
                                               row["scale"]))
        )  # fmt: skip
    objects.table_types = list(types.values())
    for row in rows.get("properties", []):
        prop = _property(row)
        if prop is not None:
            objects.properties.append(
                (prop, Location(file="@catalog", anchor=".".join(n for _, n in prop.levels)))
            )
    return objects


def _param(row: dict[str, Any], defaults: dict[str, str | None]) -> RoutineParam:
    name = str(row["name"]).lstrip("@")
    if row["is_table_type"] or row["is_user_defined"]:
        type_name = f"{row['type_schema']}.{row['type_name']}"
    else:
        type_name = sql_type(row["type_name"], row["max_length"], row["precision"], row["scale"])
    return RoutineParam(name=name, type_name=type_name, default=defaults.get(name.lower()),
                        output=bool(row["is_output"]), readonly=bool(row["is_readonly"]))  # fmt: skip


def _property(row: dict[str, Any]) -> ExtendedProperty | None:
    levels: list[tuple[str, str]] = [("SCHEMA", str(row["schema_name"]))]
    cls = int(row["class"])
    if cls in (1, 2):
        level1 = _OBJECT_LEVEL.get(str(row.get("object_type") or ""))
        if level1 is None:
            return None
        levels.append((level1, str(row["object_name"])))
        if cls == 1 and row.get("column_name"):
            levels.append(("COLUMN", str(row["column_name"])))
        if cls == 2:
            levels.append(("PARAMETER", str(row["parameter_name"])))
    elif cls in (6, 8):
        levels.append(("TYPE", str(row["object_name"])))
        if cls == 8:
            levels.append(("COLUMN", str(row["column_name"])))
    return ExtendedProperty(name=str(row["name"]), value=str(row["value"] or ""), levels=levels, line=1)


def is_mssql_url(source: Path | str) -> bool:
    """Whether ``source`` is an ``mssql://`` (or ``sqlserver://``) URL."""
    return _SCHEME.match(str(source)) is not None


def read_catalog_rows(url: str) -> dict[str, list[dict[str, Any]]]:  # pragma: no cover - needs a server
    """Run the four catalog queries through pymssql (untested: no SQL Server where apiatlas is built)."""
    import pymssql

    parts = urlsplit(url)
    password = os.environ.get(PASSWORD_ENV)
    if os.environ.get(PASSWORD_FILE_ENV):
        password = Path(os.environ[PASSWORD_FILE_ENV]).read_text(encoding="utf-8").strip()
    conn = pymssql.connect(server=parts.hostname or "localhost", port=str(parts.port or 1433),
                           user=unquote(parts.username or ""), password=password or "",
                           database=parts.path.lstrip("/"), login_timeout=10, as_dict=True)  # fmt: skip
    try:
        cursor = conn.cursor()
        rows: dict[str, list[dict[str, Any]]] = {}
        for key, query in (("routines", ROUTINES_SQL), ("parameters", PARAMETERS_SQL),
                           ("table_types", TABLE_TYPES_SQL), ("properties", PROPERTIES_SQL)):  # fmt: skip
            cursor.execute(query)
            rows[key] = list(cursor.fetchall())
        return rows
    finally:
        conn.close()


def load_mssql_catalog(source: Path | str, *, progress: Progress | None = None) -> Catalog:
    """Introspect the SQL Server database at ``source`` (``mssql://user@host:port/db``) into a Catalog."""
    match = _SCHEME.match(str(source))
    url = f"{match.group(1)}://{str(source)[match.end() :]}" if match else str(source)
    parts = urlsplit(url)
    where = Location(file=f"{parts.scheme}://{parts.hostname or ''}{parts.path}")
    if parts.password:
        raise ConfigError(f"the database URL contains a password; use {PASSWORD_ENV} or {PASSWORD_FILE_ENV}",
                          location=where)  # fmt: skip
    try:
        rows = read_catalog_rows(url)
    except Exception as exc:  # pymssql raises its own hierarchy; any failure means "cannot read"
        raise SourceError(f"cannot read the SQL Server catalog: {exc}", code=ReasonCode.UPSTREAM_UNAVAILABLE,
                          location=where) from exc  # fmt: skip
    if progress is not None:
        progress(1, 1)
    catalog = build_catalog(rows_to_objects(rows), source_kind=KIND)
    payload = json.dumps(rows, sort_keys=True, default=str).encode("utf-8")
    catalog.source_files["@catalog/mssql.json"] = hashlib.sha256(payload).hexdigest()
    return catalog
