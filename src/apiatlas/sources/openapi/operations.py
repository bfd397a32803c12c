"""Read the operations of an OpenAPI 3.x or Swagger 2.0 spec into one common form (``OperationSpec``)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from apiatlas.errors import Location
from apiatlas.sources.openapi.markup import plain_text
from apiatlas.sources.openapi.schemas import Node, SchemaWalker

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
_PARAM_KEYWORDS = (
    "type", "format", "items", "enum", "default", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems",
    "multipleOf",
)  # fmt: skip


@dataclass
class ParamSpec:
    """A path, query, header or cookie parameter, or one field of a form or JSON body."""

    name: str
    location: str  # path | query | header | cookie | body
    required: bool
    description: str
    schema: Node
    deprecated: bool = False
    example: Any = None


@dataclass
class BodySpec:
    content_type: str
    schema: Node
    required: bool
    description: str = ""


@dataclass
class ResponseSpec:
    status: str
    description: str
    content_type: str | None
    schema: Node | None


@dataclass
class OperationSpec:
    """One operation, whatever the spec version: parameters, request body, responses, security."""

    method: str  # upper case
    path: str
    operation_id: str
    summary: str
    description: str
    tags: list[str]
    params: list[ParamSpec]
    body: BodySpec | None
    responses: list[ResponseSpec]
    security: list[dict[str, list[str]]] | None
    deprecated: bool
    settings: dict[str, Any] = field(default_factory=dict)  # the operation's ``x-apiatlas`` mapping
    servers: list[str] = field(default_factory=list)

    @property
    def key(self) -> str:
        return f"{self.method} {self.path}"


def count_operations(root: dict[str, Any]) -> int:
    """Operations written in the spec (path items that are ``$ref`` count by their target)."""
    paths = root.get("paths")
    if not isinstance(paths, dict):
        return 0
    return sum(1 for item in paths.values() if isinstance(item, dict) for m in item if m in METHODS)


def _pick_media(content: Any) -> tuple[str | None, Any]:
    if not isinstance(content, dict) or not content:
        return None, None
    for media, value in content.items():
        if "json" in media:
            return media, value
    media = next(iter(content))
    return media, content[media]


@dataclass
class OperationReader:
    """Walks ``paths`` of a parsed spec; references are followed through the ``SchemaWalker``."""

    walker: SchemaWalker
    swagger2: bool

    @property
    def root(self) -> dict[str, Any]:
        root: dict[str, Any] = self.walker.docs.root
        return root

    def servers(self) -> list[str]:
        if self.swagger2:
            host = self.root.get("host")
            schemes = self.root.get("schemes") or ["https"]
            base = self.root.get("basePath") or ""
            return [f"{schemes[0]}://{host}{base}"] if host else ([base] if base else [])
        return [s["url"] for s in self.root.get("servers") or [] if isinstance(s, dict) and "url" in s]

    def operations(self) -> Iterator[tuple[OperationSpec | None, Location]]:
        """Each operation in spec order, or None with its location when its path item is unusable."""
        paths = self.root.get("paths") or {}
        file = self.walker.docs.root_file
        for path, raw_item in paths.items():
            where = Location(file=self.walker.docs.root_file.name, anchor=str(path))
            item_node = self.walker.follow(Node(raw_item, file), where)
            if item_node is None or not isinstance(item_node.schema, dict):
                yield None, where
                continue
            item = item_node.schema
            shared = item.get("parameters") or []
            for method in METHODS:
                op = item.get(method)
                if not isinstance(op, dict):
                    continue
                op_where = where.model_copy(update={"anchor": f"{method.upper()} {path}"})
                yield self._operation(str(path), method, op, shared, item_node, op_where), op_where

    def _operation(
        self, path: str, method: str, op: dict[str, Any], shared: list[Any], item: Node, where: Location
    ) -> OperationSpec:
        params, body = self._params([*shared, *(op.get("parameters") or [])], op, item, where)
        if not self.swagger2 and op.get("requestBody") is not None:
            body = self._request_body(Node(op["requestBody"], item.file), where)
        security = op.get("security", self.root.get("security"))
        listed = op.get("servers") or item.schema.get("servers") or []
        servers = [str(s["url"]) for s in listed if isinstance(s, dict) and "url" in s]
        settings = op.get("x-apiatlas")
        return OperationSpec(
            method=method.upper(),
            path=path,
            operation_id=str(op.get("operationId") or ""),
            summary=plain_text(str(op.get("summary") or "")),
            description=plain_text(str(op.get("description") or "")),
            tags=[str(t) for t in op.get("tags") or []],
            params=params,
            body=body,
            responses=self._responses(op.get("responses") or {}, item, op, where),
            security=security if isinstance(security, list) else None,
            deprecated=bool(op.get("deprecated")),
            settings=settings if isinstance(settings, dict) else {},
            servers=servers if not self.swagger2 else [],
        )

    def _params(
        self, raw: list[Any], op: dict[str, Any], item: Node, where: Location
    ) -> tuple[list[ParamSpec], BodySpec | None]:
        by_key: dict[tuple[str, str], tuple[dict[str, Any], Node]] = {}
        for entry in raw:
            node = self.walker.follow(Node(entry, item.file), where)
            if node is None or not isinstance(node.schema, dict) or "name" not in node.schema:
                continue
            by_key[(str(node.schema["name"]), str(node.schema.get("in", "query")))] = (node.schema, node)
        params: list[ParamSpec] = []
        body: BodySpec | None = None
        form: dict[str, Any] = {}
        form_required: list[str] = []
        for (name, location), (p, node) in by_key.items():
            if location == "body":  # Swagger 2.0: the request body is a parameter
                consumes = op.get("consumes") or self.root.get("consumes") or ["application/json"]
                body = BodySpec(
                    content_type=str(consumes[0]),
                    schema=Node(p.get("schema") or {}, node.file),
                    required=bool(p.get("required")),
                    description=str(p.get("description") or ""),
                )
                continue
            if self.swagger2:
                schema: Any = {k: p[k] for k in _PARAM_KEYWORDS if k in p}
            elif "schema" in p:
                schema = p["schema"]
            else:
                schema = _pick_media(p.get("content"))[1] or {}
                schema = schema.get("schema", {}) if isinstance(schema, dict) else {}
            if location == "formData":
                form[name] = {**schema, "description": p.get("description", "")}
                if p.get("required"):
                    form_required.append(name)
                continue
            params.append(
                ParamSpec(
                    name=name,
                    location=location,
                    required=bool(p.get("required")) or location == "path",
                    description=str(p.get("description") or ""),
                    schema=Node(schema, node.file),
                    deprecated=bool(p.get("deprecated")),
                    example=p.get("example", p.get("x-example")),
                )
            )
        if form and body is None:
            consumes = op.get("consumes") or self.root.get("consumes") or []
            media = next((c for c in consumes if "form" in c), "application/x-www-form-urlencoded")
            schema = {"type": "object", "properties": form, "required": form_required}
            body = BodySpec(content_type=media, schema=Node(schema, item.file), required=bool(form_required))
        return params, body

    def _request_body(self, node: Node, where: Location) -> BodySpec | None:
        target = self.walker.follow(node, where)
        if target is None or not isinstance(target.schema, dict):
            return None
        media, value = _pick_media(target.schema.get("content"))
        if media is None or not isinstance(value, dict):
            return None
        return BodySpec(
            content_type=media,
            schema=Node(value.get("schema") or {}, target.file),
            required=bool(target.schema.get("required")),
            description=str(target.schema.get("description") or ""),
        )

    def _responses(
        self, raw: dict[str, Any], item: Node, op: dict[str, Any], where: Location
    ) -> list[ResponseSpec]:
        found: list[ResponseSpec] = []
        for status in sorted(raw, key=str):
            target = self.walker.follow(Node(raw[status], item.file), where)
            if target is None or not isinstance(target.schema, dict):
                continue
            response = target.schema
            if self.swagger2:
                produces = op.get("produces") or self.root.get("produces") or ["application/json"]
                schema = response.get("schema")
                media: str | None = str(produces[0]) if schema is not None else None
            else:
                media, value = _pick_media(response.get("content"))
                schema = value.get("schema") if isinstance(value, dict) else None
            found.append(
                ResponseSpec(
                    status=str(status),
                    description=str(response.get("description") or ""),
                    content_type=media,
                    schema=Node(schema, target.file) if schema is not None else None,
                )
            )
        return found
