"""JSON Schema of SQL base types, and a database's own types registered by name (the DB catalog sources)."""

from __future__ import annotations

import re
from typing import Any

from apiatlas.catalog.model import DomainType

_SIZED = re.compile(r"^\s*(n?var)?n?char\s*\(\s*(\d+)\s*\)", re.IGNORECASE)
_NUMERIC = re.compile(r"^\s*(numeric|decimal)\s*\(\s*\d+\s*(?:,\s*(\d+)\s*)?\)", re.IGNORECASE)


def schema_from_base_type(base_type: str) -> dict[str, Any]:
    """JSON Schema implied by an SQL base type (``numeric(15,0)`` → integer, ``varchar(40)`` → string)."""
    text = base_type.strip().lower()
    sized = _SIZED.match(text)
    if sized:
        return {"type": "string", "maxLength": int(sized.group(2))}
    numeric = _NUMERIC.match(text)
    if numeric:
        scale = numeric.group(2)
        return {"type": "integer"} if scale in (None, "0") else {"type": "number"}
    word = re.split(r"[\s(]", text, maxsplit=1)[0]
    if word in {"int", "integer", "bigint", "smallint", "tinyint", "serial", "bigserial"}:
        return {"type": "integer"}
    if word == "bit":
        return {"type": "integer", "enum": [0, 1]}
    if word in {"boolean", "bool"}:
        return {"type": "boolean"}
    if word in {"numeric", "decimal", "money", "smallmoney", "float", "real", "double"}:
        return {"type": "number"}
    if word == "date":
        return {"type": "string", "format": "date"}
    if word in {"datetime", "datetime2", "smalldatetime", "timestamp", "datetimeoffset", "timestamptz"}:
        return {"type": "string", "format": "date-time"}
    if word == "time":
        return {"type": "string", "format": "time"}
    if word in {"uniqueidentifier", "uuid"}:
        return {"type": "string", "format": "uuid"}
    return {"type": "string"}


def register_base_type(types: dict[str, DomainType], type_name: str, engine: str) -> None:
    """Add a database's own type (``numeric(15,0)``, ``varchar(40)``) to ``types`` once, its JSON Schema
    from ``schema_from_base_type`` and its meaning naming the ``engine`` (``PostgreSQL``, ``SQL Server``)."""
    if type_name and type_name not in types:
        types[type_name] = DomainType(
            name=type_name,
            base_type=type_name,
            json_schema=schema_from_base_type(type_name),
            meaning=f"{engine} {type_name}",
        )
