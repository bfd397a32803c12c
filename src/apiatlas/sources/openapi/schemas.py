"""Lazy ``$ref`` resolution over schemas: flatten a response into field paths, inline a parameter's schema.

Every reference is followed only when a field needs it, each result is memoised per (reference, depth
left), a reference met again inside itself is cut and marked, and depth and field counts are bounded,
so a cyclic or very large spec costs time linear in what is emitted, never an exponential blow-up.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from apiatlas.errors import Diagnostic, Location, Severity, SourceError
from apiatlas.sources.openapi.documents import SpecDocuments
from apiatlas.sources.openapi.markup import plain_text
from apiatlas.sources.openapi.references import MAX_REFERENCE_DEPTH, kept_below, names_kind

MAX_FLAT_DEPTH = 3  # nested objects below the response root
MAX_COLUMNS = 200  # fields of one response
MAX_INLINE_DEPTH = 3  # nested schemas kept in a parameter's JSON Schema
MAX_DESCRIPTION = 300
PRIMITIVES = ("string", "integer", "number", "boolean", "null")
KEPT_KEYWORDS = (
    "type", "format", "enum", "const", "default", "example", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems",
    "multipleOf", "nullable", "readOnly", "writeOnly", "deprecated", "title", "description",
)  # fmt: skip


class FlatField(NamedTuple):
    """One field of a response: ``results[].id`` with its domain type and description."""

    path: str
    domain_type: str
    json_type: str
    description: str
    reference: bool = False  # below the flattened depth, kept as a key of another kind (``names_kind``)


@dataclass(frozen=True, slots=True)
class Node:
    """A schema node, the file it was written in and the ``$ref`` (canonical) it was reached through."""

    schema: Any
    file: Path
    ref: str | None = None

    @property
    def ref_name(self) -> str | None:
        return self.ref.rsplit("/", 1)[-1] if self.ref else None


def json_type(schema: Any) -> str:
    """The schema's main JSON type (3.1 type lists lose their ``null``); '' when it states none."""
    if not isinstance(schema, dict):
        return ""
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), kind[0] if kind else "")
    if isinstance(kind, str):
        return kind
    if "properties" in schema or "additionalProperties" in schema:
        return "object"
    if "items" in schema:
        return "array"
    if schema.get("enum"):
        first = schema["enum"][0]
        return "integer" if isinstance(first, int) and not isinstance(first, bool) else "string"
    return ""


def type_name(schema: Any) -> str:
    """A domain type name from the JSON schema: ``string:date-time``, ``integer``, ``string``."""
    kind = json_type(schema) or "string"
    fmt = schema.get("format") if isinstance(schema, dict) else None
    if kind == "string" and isinstance(fmt, str) and fmt:
        return f"string:{fmt}"
    return kind


def short(text: Any) -> str:
    value = " ".join(plain_text(str(text)).split()) if text else ""
    return value if len(value) <= MAX_DESCRIPTION else value[: MAX_DESCRIPTION - 1] + "…"


def leaf_name(path: str) -> str:
    """``results[].id`` -> ``id``; ``genre_ids[]`` -> ``genre_ids``."""
    return path.replace("[]", "").rsplit(".", 1)[-1]


@dataclass
class SchemaWalker:
    """Follows ``$ref`` lazily for one spec and records broken references as located diagnostics."""

    docs: SpecDocuments
    kinds: Mapping[str, frozenset[str]] = field(default_factory=dict)  # the catalog's kinds and their key
    # words (``references.path_kinds``): below the depth, only their keys are kept
    diagnostics: list[Diagnostic] = field(default_factory=list)
    cycles_cut: int = 0
    ref_types: dict[str, str] = field(default_factory=dict)  # domain type name (a schema name) -> base type
    _reported: set[str] = field(default_factory=set)
    _flat: dict[tuple[str, int], list[FlatField]] = field(default_factory=dict)
    _flat_refs: dict[tuple[str, int], list[FlatField]] = field(default_factory=dict)  # ``_references``
    _refs_only: bool = False
    _inline: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)

    # -- references ---------------------------------------------------------------------------------
    def follow(self, node: Node, where: Location) -> Node | None:
        """The node behind a chain of ``$ref``; None (and one diagnostic) when a reference is broken."""
        seen: set[str] = set()
        while isinstance(node.schema, dict) and isinstance(node.schema.get("$ref"), str):
            ref = node.schema["$ref"]
            try:
                target = self.docs.resolve(ref, node.file, where)
            except SourceError as exc:
                self._broken(ref, exc, where)
                return None
            if target.ref in seen:
                self.cycles_cut += 1
                return None
            seen.add(target.ref)
            node = Node(target.node, target.file, target.ref)
        return node

    def _broken(self, ref: str, exc: SourceError, where: Location) -> None:
        if ref in self._reported:
            return
        self._reported.add(ref)
        self.diagnostics.append(
            Diagnostic(severity=Severity.ERROR, code=exc.code, message=exc.message, location=where)
        )

    def identifier_of(self, node: Node, where: Location) -> str | None:
        """The schema name when ``node`` is a ``$ref`` to an object with an ``id`` (an expandable id)."""
        target = self.follow(node, where)
        if target is None or target.ref is None or not isinstance(target.schema, dict):
            return None
        props = target.schema.get("properties")
        if isinstance(props, dict) and "id" in props:
            name = target.ref_name or ""
            id_node = self.follow(Node(props["id"], target.file), where)
            self.ref_types.setdefault(name, json_type(id_node.schema if id_node else None) or "string")
            return name
        return None

    # -- flattening a response -------------------------------------------------------------------------
    def flatten(self, node: Node, where: Location) -> list[FlatField]:
        """Field paths of a response body (``results[].id``, ``name``), bounded in depth and count."""
        out: list[FlatField] = []
        self._walk(node, "", MAX_FLAT_DEPTH, (), out, where, "")
        unique: dict[str, FlatField] = {}
        for f in out:
            unique.setdefault(f.path or "value", f._replace(path=f.path or "value"))
        if len(out) >= MAX_COLUMNS and self.kinds:  # cut: the keys of other kinds it holds kept
            refs = [f for f in self._references(node, where) if f.path not in unique][: MAX_COLUMNS // 4]
            return list(unique.values())[: MAX_COLUMNS - len(refs)] + refs
        return list(unique.values())[:MAX_COLUMNS]

    def _references(self, node: Node, where: Location) -> list[FlatField]:
        """Only the fields naming an item of a kind of the catalog (``names_kind``), at every depth."""
        self._refs_only, memo = True, self._flat
        self._flat = self._flat_refs
        try:
            out: list[FlatField] = []
            self._walk(node, "", MAX_FLAT_DEPTH, (), out, where, "")
            return [f._replace(reference=True) for f in out if f.path and names_kind(f.path, self.kinds)]
        finally:
            self._refs_only, self._flat = False, memo

    def _walk(
        self,
        node: Node,
        prefix: str,
        depth: int,
        active: tuple[str, ...],
        out: list[FlatField],
        where: Location,
        description: str,
    ) -> None:
        if len(out) >= MAX_COLUMNS:
            return
        if isinstance(node.schema, dict) and "$ref" in node.schema:
            description = description or short(node.schema.get("description"))
            target = self.follow(node, where)
            if target is None:
                out.append(FlatField(prefix, "object", "object", "unresolved or cyclic $ref"))
                return
            if target.ref in active:
                self.cycles_cut += 1
                text = f"recursive reference to {target.ref_name} (cut)"
                out.append(FlatField(prefix, "object", "object", text))
                return
            assert target.ref is not None
            memo = self._flat.get((target.ref, depth))
            if memo is None:
                memo = []
                self._walk(target, "", depth, (*active, target.ref), memo, where, "")
                self._flat[(target.ref, depth)] = memo
            fields = _prefixed(memo, prefix, description)
            if depth < 0 or self._refs_only:  # below the depth: bare keys decided with what names them
                fields = [
                    f for f, m in zip(fields, memo, strict=True)
                    if (depth == -1 and not self._refs_only and not m.path.strip("[]"))
                    or kept_below(f.path, self.kinds)
                ]  # fmt: skip
            out.extend(fields)
            return
        schema = node.schema if isinstance(node.schema, dict) else {}
        description = description or short(schema.get("description"))
        parts = [Node(p, node.file) for p in schema.get("allOf", []) if isinstance(p, dict)]
        variants = [Node(p, node.file) for key in ("oneOf", "anyOf") for p in schema.get(key, [])]
        if parts or variants:
            self._composed(schema, node, parts, variants, prefix, depth, active, out, where, description)
            return
        if isinstance(schema.get("items"), list):  # the tuple form of ``items``
            self._listed_items(schema, node, prefix, depth, active, out, where, description)
            return
        kind = json_type(schema)
        if kind == "object":
            props = schema.get("properties")
            if not isinstance(props, dict) or not props or depth < 0:
                if depth >= -1 and not self._refs_only:
                    out.append(FlatField(prefix, type_name(schema), "object", description))
                if isinstance(props, dict) and props and self.kinds and depth > -MAX_REFERENCE_DEPTH:
                    self._properties(node, list(props.items()), prefix, depth, active, out, where)
                return
            start = len(out)
            self._properties(node, list(props.items()), prefix, depth, active, out, where)
            if len(out) >= MAX_COLUMNS:  # cut: the object's own scalars first, then what it nests
                del out[start:]
                ordered = sorted(props.items(), key=lambda kv: self._nests(Node(kv[1], node.file), where))
                self._properties(node, ordered, prefix, depth, active, out, where)
            return
        if kind == "array":
            items = schema.get("items")
            self._walk(Node(items or {}, node.file), f"{prefix}[]", depth, active, out, where, description)
            return
        below = depth < -1 or self._refs_only  # below the depth: keys of the catalog's kinds only
        if not below or kept_below(prefix, self.kinds):
            out.append(FlatField(prefix, type_name(schema), kind or "string", description, below))

    def _properties(
        self,
        node: Node,
        props: list[tuple[str, Any]],
        prefix: str,
        depth: int,
        active: tuple[str, ...],
        out: list[FlatField],
        where: Location,
    ) -> None:
        for name, sub in props:
            path = f"{prefix}.{name}" if prefix else str(name)
            if name == "id" and node.ref_name and self._own_id(node, sub, path, out, where):
                continue
            self._walk(Node(sub, node.file), path, depth - 1, active, out, where, "")

    def _nests(self, node: Node, where: Location) -> bool:
        """Whether a property holds more than one value (an object, a list, alternatives)."""
        target = self.follow(node, where) if isinstance(node.schema, dict) else None
        schema = target.schema if target is not None else None
        return not isinstance(schema, dict) or json_type(schema) not in PRIMITIVES or "items" in schema

    def _listed_items(
        self,
        schema: dict[str, Any],
        node: Node,
        prefix: str,
        depth: int,
        active: tuple[str, ...],
        out: list[FlatField],
        where: Location,
        description: str,
    ) -> None:
        """``items`` given as a list: on a declared array, the shapes of its positions (each walked as
        the array's item); on a schema declaring no array, the shapes it may take (``objs_conversation``:
        ``{"items": [{…public channel…}, {…im…}]}``; ``{"items": [{"$ref": …}, {"type": "null"}]}``), read
        as ``oneOf`` with the ``null`` alternative left out."""
        shapes = [
            Node(s, node.file) for s in schema["items"] if isinstance(s, dict) and s.get("type") != "null"
        ]
        at = f"{prefix}[]" if schema.get("type") == "array" else prefix
        if len(shapes) == 1 or at != prefix:
            for shape in shapes:
                self._walk(shape, at, depth, active, out, where, description)
            return
        self._composed(schema, node, [], shapes, prefix, depth, active, out, where, description)

    def _own_id(self, owner: Node, sub: Any, path: str, out: list[FlatField], where: Location) -> bool:
        """``id`` of a named schema: its domain type is the schema's name (``customer``)."""
        target = self.follow(Node(sub, owner.file), where)
        kind = json_type(target.schema) if target is not None else ""
        if kind not in PRIMITIVES:
            return False
        name = owner.ref_name or ""
        self.ref_types.setdefault(name, kind)
        description = short(target.schema.get("description")) if target is not None else ""
        out.append(FlatField(path, name, kind, description))
        return True

    def _composed(
        self,
        schema: dict[str, Any],
        node: Node,
        parts: list[Node],
        variants: list[Node],
        prefix: str,
        depth: int,
        active: tuple[str, ...],
        out: list[FlatField],
        where: Location,
        description: str,
    ) -> None:
        for part in parts:
            self._walk(part, prefix, depth, active, out, where, description)
        if "properties" in schema:
            bare = {k: v for k, v in schema.items() if k not in ("allOf", "oneOf", "anyOf")}
            self._walk(Node(bare, node.file), prefix, depth, active, out, where, description)
        if not variants:
            return
        resolved = [(v, self.follow(v, where)) for v in variants]
        primitive = [t for _, t in resolved if t is not None and json_type(t.schema) in PRIMITIVES]
        if primitive:  # an id or the object it names (an "expandable" field): one column
            ident = next((self.identifier_of(v, where) for v, t in resolved if t not in primitive), None)
            base = primitive[0].schema
            below = depth < -1 or self._refs_only
            if below and not kept_below(prefix, self.kinds):
                return
            out.append(FlatField(prefix, ident or type_name(base), json_type(base), description, below))
            return
        for variant, _ in resolved:
            self._walk(variant, prefix, depth, active, out, where, description)

    # -- inlining a parameter's schema -----------------------------------------------------------------
    def inline(self, node: Node, where: Location, depth: int = MAX_INLINE_DEPTH) -> dict[str, Any]:
        """A self-contained JSON Schema (no ``$ref``): nested levels beyond ``depth`` and cycles marked."""
        return self._inline_node(node, where, depth, ())

    def _inline_node(
        self, node: Node, where: Location, depth: int, active: tuple[str, ...]
    ) -> dict[str, Any]:
        if isinstance(node.schema, dict) and "$ref" in node.schema:
            target = self.follow(node, where)
            if target is None:
                return {"description": f"unresolved or cyclic $ref {node.schema['$ref']}"}
            assert target.ref is not None
            if target.ref in active:
                self.cycles_cut += 1
                return {
                    "type": json_type(target.schema) or "object",
                    "$comment": f"recursive: {target.ref_name}",
                }
            key = (target.ref, depth)
            if key not in self._inline:
                self._inline[key] = self._inline_node(target, where, depth, (*active, target.ref))
            return self._inline[key]
        schema = node.schema if isinstance(node.schema, dict) else {}
        out: dict[str, Any] = {k: schema[k] for k in KEPT_KEYWORDS if k in schema}
        if "description" in out:
            out["description"] = short(out["description"])
        if depth <= 0:
            if any(k in schema for k in ("properties", "items", "allOf", "oneOf", "anyOf")):
                out.setdefault("type", json_type(schema) or "object")
                out["$comment"] = "nested levels omitted"
            return out
        for keyword in ("allOf", "oneOf", "anyOf"):
            if isinstance(schema.get(keyword), list):
                out[keyword] = [
                    self._inline_node(Node(p, node.file), where, depth - 1, active) for p in schema[keyword]
                ]
        props = schema.get("properties")
        if isinstance(props, dict):
            out["properties"] = {
                name: self._inline_node(Node(sub, node.file), where, depth - 1, active)
                for name, sub in props.items()
            }
            if isinstance(schema.get("required"), list):
                out["required"] = list(schema["required"])
        extra = schema.get("additionalProperties")
        if isinstance(extra, bool):
            out["additionalProperties"] = extra
        elif isinstance(extra, dict):
            out["additionalProperties"] = self._inline_node(Node(extra, node.file), where, depth - 1, active)
        if isinstance(schema.get("items"), dict):
            out["items"] = self._inline_node(Node(schema["items"], node.file), where, depth - 1, active)
        if out.get("nullable") is True and isinstance(out.get("type"), str):  # 3.0 -> JSON Schema
            out["type"] = [out["type"], "null"]
            del out["nullable"]
        return out


def _prefixed(fields: list[FlatField], prefix: str, description: str) -> list[FlatField]:
    if not prefix:
        return fields
    result = []
    for f in fields:
        if not f.path:
            result.append(f._replace(path=prefix, description=f.description or description))
        elif f.path.startswith("[]"):
            result.append(f._replace(path=prefix + f.path))
        else:
            result.append(f._replace(path=f"{prefix}.{f.path}"))
    return result
