"""Load a NESTFUL spec (a JSON list of endpoints) into a Catalog: one API per entry, keyed by its
``name``; its query and path parameters as inputs, its ``output_parameters`` (nested objects and
lists flattened as ``location.name``, ``author[].id``) as the one output table ``response``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from apiatlas.catalog.model import (
    Api,
    BusinessObject,
    Catalog,
    Column,
    Direction,
    DomainType,
    ExecutorBinding,
    Param,
    SessionTable,
)
from apiatlas.errors import Location, ReasonCode, SourceError
from apiatlas.sources import Progress
from apiatlas.sources.openapi.assemble import RESPONSE_TABLE, identifier_type

SOURCE_KIND = "nestful"
_ENTRY_KEYS = frozenset({"name", "output_parameters"})
# the spec's free-form type names ("String", "float", "Date (yyyy-mm-dd)") as JSON types
_TYPES = {
    "str": "string", "string": "string", "enum": "string", "date": "string", "float": "number",
    "number": "number", "double": "number", "int": "integer", "integer": "integer",
    "boolean": "boolean", "bool": "boolean", "object": "object", "array": "array", "list": "array",
}  # fmt: skip


def is_nestful_spec(path: Path) -> bool:
    """A ``.json`` file holding a list of objects that each have a ``name`` and ``output_parameters``."""
    path = Path(path)
    if not path.is_file() or path.suffix.lower() != ".json":
        return False
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return (
        isinstance(data, list)
        and bool(data)
        and all(isinstance(e, dict) and set(e) >= _ENTRY_KEYS for e in data)
    )


def json_type(declared: Any) -> str:
    """``"String"`` -> ``string``, ``"float"`` -> ``number``, ``"Date (yyyy-mm-dd)"`` -> ``string``."""
    word = str(declared or "string").strip().split(" ", 1)[0].casefold()
    return _TYPES.get(word, "string")


def _columns(name: str, schema: dict[str, Any]) -> list[Column]:
    """One column per leaf: an object's properties as ``name.prop``, a list's items as ``name[].prop``."""
    kind = json_type(schema.get("type"))
    description = str(schema.get("description") or "")
    items = schema.get("items") if isinstance(schema.get("items"), dict) else None
    props = schema.get("properties") if isinstance(schema.get("properties"), dict) else None
    if kind == "array" and items is not None and isinstance(items.get("properties"), dict):
        return [c for sub, s in items["properties"].items() for c in _columns(f"{name}[].{sub}", s)]
    if props:
        return [c for sub, s in props.items() if isinstance(s, dict) for c in _columns(f"{name}.{sub}", s)]
    leaf = name.rsplit(".", 1)[-1].replace("[]", "")
    return [Column(name=name, domain_type=identifier_type(leaf, kind), description=description)]


def _flags_optional(entry: dict[str, Any]) -> bool:
    """Whether the entry marks its optional parameters (``"optional": true``) rather than its required
    ones: then a parameter with neither flag is required (``Instagram_Search_User``'s ``search_query``
    beside ``url_embed_safe``, ``"optional": true``)."""
    groups = [entry.get(g) or {} for g in ("path_parameters", "query_parameters")]
    specs = [s for g in groups if isinstance(g, dict) for s in g.values() if isinstance(s, dict)]
    return any(s.get("optional") is True for s in specs) and not any("required" in s for s in specs)


def _required(spec: dict[str, Any], flags_optional: bool) -> bool:
    if "required" in spec:
        return bool(spec["required"])
    return flags_optional and not spec.get("optional")


def _params(entry: dict[str, Any]) -> list[Param]:
    out = []
    flags_optional = _flags_optional(entry)
    for location, group in (("path", "path_parameters"), ("query", "query_parameters")):
        for name, spec in (entry.get(group) or {}).items():
            spec = spec if isinstance(spec, dict) else {}
            allowed = spec.get("enum") or spec.get("allowed_values") or spec.get("possible_values")
            schema: dict[str, Any] = {"type": json_type(spec.get("type"))}
            if spec.get("description"):
                schema["description"] = str(spec["description"])
            if isinstance(allowed, list) and allowed:
                schema["enum"] = allowed
            out.append(
                Param(
                    name=name,
                    domain_type=identifier_type(name, schema["type"]),
                    required=_required(spec, flags_optional),
                    description=str(spec.get("description") or ""),
                    default=spec.get("default"),
                    json_schema=schema,
                    location=location,
                )
            )
    return out


def _api(entry: dict[str, Any], file: str) -> Api:
    name = str(entry["name"])
    method = str(entry.get("method") or "GET").upper()
    endpoint = str(entry.get("endpoint") or "/")
    host = str(entry.get("host") or "")
    description = str(entry.get("description") or "").strip()
    outputs = entry.get("output_parameters") or {}
    columns = [c for field, s in outputs.items() if isinstance(s, dict) for c in _columns(field, s)]
    return Api(
        key=name,
        object_key=host.split(".", 1)[0] or name,
        title=description.split(". ", 1)[0].rstrip(".") or name,
        description=description,
        params=_params(entry),
        output_tables=[SessionTable(name=RESPONSE_TABLE, direction=Direction.OUT, columns=columns)]
        if columns
        else [],
        approved=True,
        implemented=True,
        executor=ExecutorBinding(kind="http", target=f"{method} {endpoint}"),
        source=Location(file=file, anchor=name),
        extra={"method": method, "path": endpoint, "host": host, "output_parser": entry.get("output_parser")},
    )


def load_nestful(path: Path, *, progress: Progress | None = None) -> Catalog:
    """Every entry of the spec at ``path`` as an API; a malformed entry is a located error."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SourceError(f"cannot read the NESTFUL spec: {exc}", code=ReasonCode.MALFORMED_PAGE,
                          location=Location(file=str(path))) from exc  # fmt: skip
    catalog = Catalog(source_kind=SOURCE_KIND)
    for n, entry in enumerate(data):
        if not isinstance(entry, dict) or not set(entry) >= _ENTRY_KEYS:
            raise SourceError(f"entry {n} has no name or output_parameters", code=ReasonCode.MALFORMED_PAGE,
                              location=Location(file=str(path), anchor=f"[{n}]"))  # fmt: skip
        api = _api(entry, path.name)
        catalog.apis[api.key] = api
        if progress is not None:
            progress(n + 1, len(data))
    for api in catalog.apis.values():
        obj = catalog.objects.setdefault(
            api.object_key, BusinessObject(key=api.object_key, name=api.object_key, approved=True)
        )
        obj.api_keys.append(api.key)
    used = {c.domain_type for a in catalog.apis.values() for t in a.output_tables for c in t.columns}
    used |= {p.domain_type for a in catalog.apis.values() for p in a.params}
    catalog.types = {
        t: DomainType(name=t, base_type=t.split(":")[0], json_schema={"type": t.split(":")[0]},
                      meaning=f"JSON {t}", generic=True)
        for t in sorted(used) if t
    }  # fmt: skip
    catalog.stats[SOURCE_KIND] = {"endpoints": len(catalog.apis)}
    return catalog
