"""Turn one ``OperationSpec`` into an ``Api``: params with location and schema, response fields, binding."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from apiatlas.catalog.model import Api, Column, Direction, ErrorCode, ExecutorBinding, Param, SessionTable
from apiatlas.errors import Diagnostic, Location, ReasonCode, Severity
from apiatlas.sources.openapi.operations import BodySpec, OperationSpec, ParamSpec, ResponseSpec
from apiatlas.sources.openapi.schemas import Node, SchemaWalker, json_type, leaf_name, short, type_name
from apiatlas.sources.openapi.side_effects import IDEMPOTENT_METHODS, side_effect_of

RESPONSE_TABLE = "response"
_VERSION_SEGMENT = re.compile(r"^(v\d+(\.\d+)*|api|apis|rest)$", re.IGNORECASE)
_INLINE_OVERVIEW_DEPTH = 2  # request body and response schemas kept in Api.extra


def looks_like_id(name: str) -> bool:
    """``id``, ``person_id``, ``customerId``, ``userID``: a field that names an entity."""
    return name.casefold() == "id" or name.endswith(("_id", "Id", "ID", "-id"))


def identifier_type(name: str, domain_type: str) -> str:
    """``integer`` -> ``integer:id`` for an identifier field; schema names and other types unchanged."""
    if looks_like_id(name) and domain_type in ("string", "integer", "number", "string:uuid"):
        return f"{domain_type.split(':')[0]}:id"
    return domain_type


def path_params(path: str) -> list[str]:
    return re.findall(r"\{([^}]+)\}", path)


def first_segment(path: str) -> str:
    """The business object of an untagged operation: the first literal path segment past ``/v1``, ``/api``."""
    literal = [s for s in path.strip("/").split("/") if s and not s.startswith("{")]
    meaningful = [s for s in literal if not _VERSION_SEGMENT.match(s)]
    return (meaningful or literal or ["root"])[0]


def success_response(responses: list[ResponseSpec]) -> ResponseSpec | None:
    """The first 2xx response (200 first), else ``default``."""
    ok = sorted((r for r in responses if r.status.startswith("2")), key=lambda r: r.status)
    if ok:
        return next((r for r in ok if r.schema is not None), ok[0])
    return next((r for r in responses if r.status == "default"), None)


@dataclass
class ApiAssembler:
    """Builds APIs for one spec; collects the domain types it named and the diagnostics it found."""

    walker: SchemaWalker
    source_file: str
    # '/v1/customers/{customer}' -> 'customer': the schema GET on that path returns (an identifier's type)
    resource_types: dict[str, str] = field(default_factory=dict)
    used_types: dict[str, str] = field(default_factory=dict)  # domain type name -> JSON base type
    diagnostics: list[Diagnostic] = field(default_factory=list)
    _references: set[str] = field(default_factory=set)  # the last response's fields kept as references

    def learn_resource(self, op: OperationSpec, where: Location) -> None:
        """Remember the schema of the item a ``GET /things/{thing}`` returns, for its path parameter."""
        if op.method != "GET" or not op.path.endswith("}"):
            return
        ok = success_response(op.responses)
        if ok is None or ok.schema is None:
            return
        schema = ok.schema.schema
        variants = schema.get("anyOf") or schema.get("oneOf") if isinstance(schema, dict) else None
        candidates = (
            [Node(v, ok.schema.file) for v in variants] if isinstance(variants, list) else [ok.schema]
        )
        for node in candidates:
            name = self.walker.identifier_of(node, where)
            if name:
                self.resource_types[op.path] = name
                return

    def api(self, op: OperationSpec) -> Api:
        where = Location(file=self.source_file, anchor=op.key)
        effect, rejected = side_effect_of(op.method, op.settings)
        if rejected is not None:
            self.diagnostics.append(
                Diagnostic(
                    severity=Severity.WARNING,
                    code=ReasonCode.BAD_CONFIG,
                    message=f"x-apiatlas side_effect {rejected!r} is not read, write or destructive; "
                    f"{effect.value} from the method is used",
                    location=where,
                )
            )
        params = [self._param(p, op, where) for p in op.params if not p.deprecated or p.required]
        taken = {p.name for p in params}
        params += self._body_params(op.body, taken, where) if op.body is not None else []
        ok = success_response(op.responses)
        table = self._response_table(ok, where) if ok is not None and ok.schema is not None else None
        extra = self._extra(op, ok, where)
        if table is not None and (refs := [c.name for c in table.columns if c.name in self._references]):
            extra["reference_fields"] = refs  # kept for the graph only, below the flattened depth
        return Api(
            key=op.key,
            object_key=op.tags[0] if op.tags else first_segment(op.path),
            title=short(op.summary or _first_sentence(op.description) or op.operation_id or op.key),
            description=op.description.strip(),
            params=params,
            output_tables=[table] if table is not None else [],
            errors=[
                ErrorCode(code=r.status, description=short(r.description))
                for r in op.responses
                if not r.status.startswith("2") and r is not ok
            ],
            approved=not op.deprecated,
            implemented=True,
            side_effect=effect,
            executor=ExecutorBinding(kind="http", target=op.key),
            source=where,
            extra=extra,
        )

    def _domain_type(self, schema: Any, name: str, path: str) -> str:
        prefix = path.split("{" + name + "}", 1)[0] + "{" + name + "}"
        if "{" + name + "}" in path and prefix in self.resource_types:
            ref_name = self.resource_types[prefix]
            self.used_types[ref_name] = self.walker.ref_types.get(ref_name, json_type(schema) or "string")
            return ref_name
        found = identifier_type(name, type_name(schema))
        self.used_types.setdefault(found, json_type(schema) or "string")
        return found

    def _param(self, p: ParamSpec, op: OperationSpec, where: Location) -> Param:
        target = self.walker.follow(p.schema, where) or Node({}, p.schema.file)
        schema = self.walker.inline(p.schema, where)
        if p.description and "description" not in schema:
            schema = {**schema, "description": short(p.description)}
        domain = self._domain_type(target.schema, p.name, op.path) if p.location == "path" else ""
        return Param(
            name=p.name,
            domain_type=domain or self._domain_type(target.schema, p.name, ""),
            required=p.required,
            description=short(p.description or schema.get("description", "")),
            default=schema.get("default"),
            example=p.example if p.example is not None else schema.get("example"),
            json_schema=schema,
            location=p.location,
        )

    def _body_params(self, body: BodySpec, taken: set[str], where: Location) -> list[Param]:
        target = self.walker.follow(body.schema, where)
        schema = target.schema if target is not None and isinstance(target.schema, dict) else {}
        props = schema.get("properties")
        if json_type(schema) != "object" or not isinstance(props, dict) or not props:
            inlined = self.walker.inline(body.schema, where)
            return [
                Param(
                    name="body" if "body" not in taken else "request_body",
                    domain_type=self._domain_type(schema, "body", ""),
                    required=body.required,
                    description=short(body.description or inlined.get("description", "")),
                    json_schema=inlined,
                    location="body",
                )
            ]
        assert target is not None
        required = set(schema.get("required") or [])
        params = []
        for name, sub in props.items():
            node = Node(sub, target.file)
            sub_target = self.walker.follow(node, where) or Node({}, target.file)
            inlined = self.walker.inline(node, where)
            params.append(
                Param(
                    name=name if name not in taken else f"body.{name}",
                    domain_type=self._domain_type(sub_target.schema, name, ""),
                    required=name in required,
                    description=short(inlined.get("description", "")),
                    default=inlined.get("default"),
                    example=inlined.get("example"),
                    json_schema=inlined,
                    location="body",
                )
            )
        return params

    def _response_table(self, ok: ResponseSpec, where: Location) -> SessionTable:
        assert ok.schema is not None
        columns = []
        self._references = set()
        for f in self.walker.flatten(ok.schema, where):
            if f.reference:
                self._references.add(f.path)
            domain = identifier_type(leaf_name(f.path), f.domain_type)
            self.used_types.setdefault(domain, f.json_type or "string")
            columns.append(Column(name=f.path, domain_type=domain, description=f.description))
        return SessionTable(
            name=RESPONSE_TABLE,
            direction=Direction.OUT,
            description=short(f"{ok.status} {ok.content_type or ''}: {ok.description}"),
            columns=columns,
            source=where,
        )

    def _extra(self, op: OperationSpec, ok: ResponseSpec | None, where: Location) -> dict[str, Any]:
        extra: dict[str, Any] = {
            "operation_id": op.operation_id,
            "method": op.method,
            "path": op.path,
            "tags": op.tags,
            "deprecated": op.deprecated,
            "idempotent": op.method in IDEMPOTENT_METHODS,
            "security": op.security,
            "responses": {
                r.status: {
                    "description": short(r.description),
                    "content_type": r.content_type,
                    "schema": self._schema_name(r.schema, where),
                }
                for r in op.responses
            },
        }
        if op.servers:
            extra["servers"] = op.servers
        if op.settings:
            extra["x-apiatlas"] = op.settings
        if op.body is not None:
            extra["request_body"] = {
                "content_type": op.body.content_type,
                "required": op.body.required,
                "schema": self.walker.inline(op.body.schema, where, _INLINE_OVERVIEW_DEPTH),
            }
        if ok is not None and ok.schema is not None:
            extra["response_schema"] = self.walker.inline(ok.schema, where, _INLINE_OVERVIEW_DEPTH)
        return extra

    def _schema_name(self, node: Node | None, where: Location) -> str | None:
        if node is None:
            return None
        if isinstance(node.schema, dict) and "$ref" in node.schema:
            target = self.walker.follow(node, where)
            return target.ref_name if target is not None else None
        return type_name(node.schema)


def _first_sentence(text: str) -> str:
    line = text.strip().split("\n", 1)[0]
    return line.split(". ", 1)[0]
