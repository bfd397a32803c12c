"""The output schema a tool lists: its result's top-level fields with their JSON types.

A tool's full result model (nested parts, every docstring) cost ~5,400 tokens of ``tools/list`` over ten
tools, three quarters of it, on every request of every conversation. The outline keeps what a client
validates and routes on — the fields and their types, ``status`` with its values, which fields are
always there — and leaves the nested shapes to the answers themselves, which every structured result
still matches (the outline allows what the full schema allows)."""

from __future__ import annotations

from typing import Any

_JSON_TYPES = ("object", "array", "string", "integer", "number", "boolean", "null")


def outline_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` (a pydantic model's JSON Schema) reduced to its top-level properties and their types."""
    defs = schema.get("$defs", {})
    properties = {name: _outline(node, defs) for name, node in schema.get("properties", {}).items()}
    out: dict[str, Any] = {"type": "object", "properties": properties}
    if schema.get("required"):
        out["required"] = list(schema["required"])
    return out


def _outline(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    if "enum" in node and len(node["enum"]) <= 4:
        return {"enum": list(node["enum"])}  # a few values (status) are worth naming
    types = _types(node, defs)
    return {"type": types[0] if len(types) == 1 else types} if types else {}


def _types(node: dict[str, Any], defs: dict[str, Any]) -> list[str]:
    """The JSON types a node allows (refs followed, unions merged), in the usual order; [] for any."""
    ref = node.get("$ref")
    if isinstance(ref, str):
        return _types(defs.get(ref.rsplit("/", 1)[-1], {}), defs)
    found: set[str] = set()
    for key in ("anyOf", "oneOf"):
        for member in node.get(key, []):
            member_types = _types(member, defs)
            if not member_types:
                return []
            found.update(member_types)
    kind = node.get("type")
    if isinstance(kind, str):
        found.add(kind)
    elif isinstance(kind, list):
        found.update(kind)
    elif "enum" in node:
        found.update(_enum_type(v) for v in node["enum"])
    if "integer" in found and "number" in found:
        found.discard("integer")
    return [t for t in _JSON_TYPES if t in found]


def _enum_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    return "string"


def lean_input_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """An input schema a model reads in fewer tokens, accepting the same calls the handler accepts:
    nested models inlined (none is recursive) without their docstrings and their ``additionalProperties:
    false`` (the server refuses unknown fields anyway), ``additionalProperties: true`` dropped (the
    default), and an optional ``X | None`` argument shown as ``X`` (omitting it is how to say None)."""
    defs = schema.get("$defs", {})
    required = set(schema.get("required", []))
    out = {k: v for k, v in schema.items() if k not in ("$defs", "properties")}
    out["properties"] = {
        name: _lean(node, defs, optional=name not in required)
        for name, node in schema.get("properties", {}).items()
    }
    return out


def _lean(node: Any, defs: dict[str, Any], *, optional: bool = False, nested: bool = False) -> Any:
    if isinstance(node, list):
        return [_lean(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        inlined = {k: v for k, v in defs[ref.rsplit("/", 1)[-1]].items() if k != "description"}
        return _lean({**inlined, **{k: v for k, v in node.items() if k != "$ref"}}, defs, nested=True)
    members = node.get("anyOf")
    if optional and isinstance(members, list):
        kept = [m for m in members if m != {"type": "null"}]
        if len(kept) == 1 and len(kept) < len(members):
            rest = {k: v for k, v in node.items() if k != "anyOf"}
            return _lean({**kept[0], **rest}, defs)
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "additionalProperties" and (value is True or (value is False and nested)):
            continue
        if key == "properties" and isinstance(value, dict):
            required = set(node.get("required", []))
            out[key] = {n: _lean(v, defs, optional=n not in required) for n, v in value.items()}
        else:
            out[key] = _lean(value, defs)
    return out
