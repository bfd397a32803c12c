"""Builds one HTTP request (method, path, query, headers, cookies, body) from an API and its arguments."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any
from urllib.parse import quote

from apiatlas.catalog.model import Api, DomainType, Param
from apiatlas.errors import ReasonCode
from apiatlas.executors.base import ExecutionLimits
from apiatlas.executors.errors import ValidationError
from apiatlas.executors.validation import argument_value, check_executable, given_arguments, param_spec
from apiatlas.executors.value_types import CoercionError, coerce

METHODS = ("GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE")
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "PUT", "DELETE", "OPTIONS"})
LOCATIONS = ("path", "query", "header", "cookie", "body", "formData", "arg")
# Headers an agent may never set: the server owns credentials and framing.
RESERVED_HEADERS = frozenset(
    {"authorization", "proxy-authorization", "cookie", "host", "content-length", "transfer-encoding",
     "connection", "content-type"}
)  # fmt: skip
WHOLE_BODY_NAMES = frozenset({"body", "request_body", "requestbody", "payload"})
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


@dataclass
class HttpCall:
    """One request ready for the wire: everything already validated and encoded as text or JSON."""

    api_key: str
    method: str
    path: str  # with path parameters substituted and percent-encoded
    query: list[tuple[str, str]] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    cookies: dict[str, str] = field(default_factory=dict)
    json_body: Any = None
    form_body: list[tuple[str, str]] | None = None
    has_path_params: bool = False

    @property
    def idempotent(self) -> bool:
        return self.method in IDEMPOTENT_METHODS


def split_http_target(api: Api) -> tuple[str, str]:
    """(METHOD, /path) of an ``http`` binding like ``GET /person/{person_id}``; NOT_EXECUTABLE otherwise."""
    parts = api.executor.target.strip().split(None, 1)
    if api.executor.kind != "http" or len(parts) != 2 or parts[0].upper() not in METHODS:
        raise ValidationError(
            f"{api.key} is bound to {api.executor.kind!r} {api.executor.target!r}; "
            "the HTTP executor runs bindings of kind 'http' with a target like 'GET /path'",
            api_key=api.key,
            code=ReasonCode.NOT_EXECUTABLE,
        )
    method, path = parts[0].upper(), parts[1].strip()
    if not path.startswith("/"):
        raise ValidationError(
            f"{api.key}: the path {path!r} of its HTTP binding does not start with '/'",
            api_key=api.key,
            code=ReasonCode.NOT_EXECUTABLE,
        )
    return method, path


def wire_value(value: Any) -> Any:
    """A coerced Python value back as a JSON value (Decimal -> int/float, dates -> ISO text)."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() and abs(value) < 2**53 else float(value)
    if isinstance(value, datetime | date):
        return value.isoformat()
    return value


def text_value(value: Any) -> str:
    """A scalar as it is written in a URL or a header (booleans lower-case, like JSON)."""
    value = wire_value(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return str(value)


def _schema_type(schema: Mapping[str, Any]) -> str:
    raw = schema.get("type")
    if isinstance(raw, list):
        raw = next((t for t in raw if t != "null"), "")
    if isinstance(raw, str) and raw:
        return raw
    if "properties" in schema:
        return "object"
    if "items" in schema:
        return "array"
    return ""


def _check_structured(value: Any, schema: Mapping[str, Any], where: str, api_key: str, name: str) -> Any:
    """An object or array argument: the JSON type and the required properties are checked, values kept."""
    kind = _schema_type(schema)
    if kind == "object" and not isinstance(value, dict):
        raise ValidationError(f"{where}: expected a JSON object, got {type(value).__name__}", api_key=api_key,
                              field=name)  # fmt: skip
    if kind == "array" and not isinstance(value, list):
        raise ValidationError(f"{where}: expected a JSON array, got {type(value).__name__}", api_key=api_key,
                              field=name)  # fmt: skip
    if isinstance(value, dict):
        required = schema.get("required")
        missing = [r for r in required if r not in value] if isinstance(required, list) else []
        if missing:
            raise ValidationError(
                f"{where}: missing required properties {', '.join(map(str, missing))}",
                api_key=api_key,
                field=name,
                code=ReasonCode.MISSING_REQUIRED_INPUT,
            )
    return value


def _bind(
    param: Param, value: Any, api: Api, limits: ExecutionLimits, types: Mapping[str, DomainType]
) -> Any:
    where = f"argument {param.name!r} of {api.key}"
    schema = param.json_schema or {}
    if _schema_type(schema) in ("object", "array") or isinstance(value, dict | list):
        if not _schema_type(schema) and isinstance(value, dict | list):
            raise ValidationError(
                f"{where}: expected a single value, got a JSON {type(value).__name__}",
                api_key=api.key,
                field=param.name,
            )
        checked = _check_structured(value, schema, where, api.key, param.name)
        size = len(json.dumps(checked, ensure_ascii=False, default=str).encode("utf-8"))
        if size > limits.max_value_bytes * 16:
            raise ValidationError(
                f"{where}: {size} bytes of JSON exceed the limit of {limits.max_value_bytes * 16}",
                api_key=api.key,
                field=param.name,
            )
        return checked
    try:
        return wire_value(coerce(value, param_spec(param, types), limits.max_value_bytes))
    except CoercionError as exc:
        raise ValidationError(f"{where}: {exc}", api_key=api.key, field=param.name) from None


def bound_arguments(
    api: Api, args: Mapping[str, Any], limits: ExecutionLimits, types: Mapping[str, DomainType]
) -> dict[str, Any]:
    """Every given or defaulted argument by parameter name, checked against its JSON Schema."""
    check_executable(api)
    given = given_arguments(api, args)
    bound: dict[str, Any] = {}
    for param in api.params:
        value = argument_value(api, param, given, param.location)
        if value is None:
            continue
        bound[param.name] = _bind(param, value, api, limits, types)
    return bound


def _query_pairs(name: str, value: Any) -> list[tuple[str, str]]:
    """Form style, exploded: lists repeat the name, objects become ``name[key]`` (deepObject)."""
    if isinstance(value, list):
        return [(name, text_value(v)) for v in value]
    if isinstance(value, dict):
        pairs: list[tuple[str, str]] = []
        for key, sub in value.items():
            pairs.extend(_query_pairs(f"{name}[{key}]", sub))
        return pairs
    return [(name, text_value(value))]


def _path_segment(api: Api, name: str, value: Any) -> str:
    text = text_value(value)
    if text in ("", ".", ".."):
        raise ValidationError(
            f"path parameter {name!r} of {api.key} cannot be {text!r}", api_key=api.key, field=name
        )
    return quote(text, safe="")


def _header_value(api: Api, name: str, value: Any) -> str:
    text = text_value(value)
    if any(c in text for c in "\r\n\0"):
        raise ValidationError(
            f"header parameter {name!r} of {api.key} contains a line break", api_key=api.key, field=name
        )
    return text


def _content_type(api: Api) -> str:
    """The request body's media type: ``extra.request_body.content_type`` (the OpenAPI source), else JSON."""
    body = api.extra.get("request_body")
    if isinstance(body, dict) and isinstance(body.get("content_type"), str):
        return str(body["content_type"]).split(";")[0].strip().lower()
    for key in ("request_content_type", "content_type", "consumes"):
        value = api.extra.get(key)
        if isinstance(value, list) and value:
            value = value[0]
        if isinstance(value, str) and value:
            return value.split(";")[0].strip().lower()
    return "application/json"


def build_call(
    api: Api, args: Mapping[str, Any], limits: ExecutionLimits, types: Mapping[str, DomainType] | None = None
) -> HttpCall:
    """The request for ``api`` with ``args``; ValidationError (nothing sent) when they do not fit."""
    method, template = split_http_target(api)
    bound = bound_arguments(api, args, limits, types or {})
    call = HttpCall(api_key=api.key, method=method, path=template)
    body_params = [p for p in api.params if p.location in ("body", "formData")]
    body: dict[str, Any] = {}
    whole_body: Any = None
    for param in api.params:
        if param.name not in bound:
            continue
        value = bound[param.name]
        location = param.location if param.location in LOCATIONS else "query"
        if location == "path":
            token = "{" + param.name + "}"
            if token not in call.path:
                raise ValidationError(
                    f"{api.key}: path parameter {param.name!r} has no {token} in {template!r}",
                    api_key=api.key,
                    field=param.name,
                    code=ReasonCode.NOT_EXECUTABLE,
                )
            call.path = call.path.replace(token, _path_segment(api, param.name, value))
            call.has_path_params = True
        elif location in ("query", "arg"):
            call.query.extend(_query_pairs(param.name, value))
        elif location == "header":
            if param.name.lower() in RESERVED_HEADERS:
                raise ValidationError(
                    f"{api.key}: header {param.name!r} is set by the server (credentials and framing come "
                    "from its configuration), not by an argument",
                    api_key=api.key,
                    field=param.name,
                )
            call.headers[param.name] = _header_value(api, param.name, value)
        elif location == "cookie":
            call.cookies[param.name] = text_value(value)
        elif len(body_params) == 1 and param.name.lower() in WHOLE_BODY_NAMES:
            whole_body = value
        else:  # a body property; ``body.x`` names one that clashed with a path or query parameter
            body[param.name[5:] if param.name.startswith("body.") else param.name] = value
    unfilled = [seg for seg in call.path.split("/") if seg.startswith("{") and seg.endswith("}")]
    if unfilled:
        raise ValidationError(
            f"{api.key} requires path parameter {unfilled[0][1:-1]!r}",
            api_key=api.key,
            field=unfilled[0][1:-1],
            code=ReasonCode.MISSING_REQUIRED_INPUT,
        )
    payload = whole_body if whole_body is not None else (body or None)
    if payload is not None:
        if _content_type(api) in FORM_TYPES or any(p.location == "formData" for p in body_params):
            pairs: list[tuple[str, str]] = []
            for name, value in payload.items() if isinstance(payload, dict) else []:
                pairs.extend(_query_pairs(name, value))
            call.form_body = pairs
        else:
            call.json_body = payload
    return call
