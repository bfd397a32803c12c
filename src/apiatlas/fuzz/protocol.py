"""Protocol-level garbage sent straight to the HTTP endpoint: bad JSON-RPC, content types, sizes."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import httpx2

ACCEPT = "application/json, text/event-stream"
JSON_HEADERS = {"content-type": "application/json", "accept": ACCEPT}


@dataclass(frozen=True)
class RawRequest:
    """One raw HTTP request: what it tries, and its method, headers and body."""

    name: str
    method: str
    headers: dict[str, str]
    body: bytes


def _post(name: str, body: bytes, content_type: str = "application/json", accept: str = ACCEPT) -> RawRequest:
    return RawRequest(name, "POST", {"content-type": content_type, "accept": accept}, body)


def _call(arguments_json: str, tool: str) -> bytes:
    return (
        '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"' + tool + '","arguments":'
        + arguments_json + "}}"
    ).encode()  # fmt: skip


def raw_call(tool: str, arguments: dict[str, object]) -> bytes:
    """A ``tools/call`` request as bytes, any lone surrogate written as a ``\\ud800`` escape."""
    return _call(json.dumps(arguments, ensure_ascii=True), tool)


def garbage(rng: random.Random, prefix: str) -> RawRequest:
    """One malformed or hostile request for the MCP endpoint."""
    search = f"{prefix}search"
    choices = [
        _post("truncated JSON", b'{"jsonrpc": "2.0", "id": 1, "method": '),
        _post("not JSON", b"\xff\xfe\x00garbage"),
        _post("empty body", b""),
        _post("empty batch", b"[]"),
        _post("batch of garbage", b"[1, 2, {}]"),
        _post("wrong jsonrpc version", b'{"jsonrpc": "1.0", "id": 1, "method": "tools/list"}'),
        _post("no method", b'{"jsonrpc": "2.0", "id": 1}'),
        _post("unknown method", b'{"jsonrpc": "2.0", "id": 1, "method": "admin/shutdown"}'),
        _post("id is an object", b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}'),
        _post("params not an object", b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": 5}'),
        _post("lone surrogate", _call('{"query": "\\ud800x"}', search)),
        _post("NUL", _call('{"query": "a\\u0000b"}', search)),
        _post("huge number", _call('{"query": "x", "limit": 1' + "0" * 5000 + "}", search)),
        _post(
            "deep nesting",
            b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": '
            + b"[" * 50_000
            + b"]" * 50_000
            + b"}",
        ),
        _post("oversized body", _call(json.dumps({"query": "x" * 8_000_000}), search)),
        _post("text/plain", b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}', "text/plain"),
        _post("xml", b"<?xml version='1.0'?><methodCall/>", "application/xml"),
        _post("form", b"a=1&b=2", "application/x-www-form-urlencoded"),
        _post("no accept", b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}', accept="text/html"),
        RawRequest("GET without session", "GET", {"accept": "text/event-stream"}, b""),
        RawRequest("DELETE unknown session", "DELETE", {"mcp-session-id": "nope' OR 1=1"}, b""),
        RawRequest("PUT", "PUT", {"content-type": "application/json"}, b"{}"),
        RawRequest(
            "bad session id",
            "POST",
            {"content-type": "application/json", "accept": ACCEPT, "mcp-session-id": "../../etc/passwd"},
            b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        ),
        RawRequest(
            "huge header",
            "POST",
            {"content-type": "application/json", "accept": ACCEPT, "x-junk": "y" * 60_000},
            b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        ),
    ]
    return rng.choice(choices)


async def send(http: httpx2.AsyncClient, url: str, request: RawRequest, timeout_s: float) -> int:
    """The HTTP status the server answered ``request`` with (0: the connection failed)."""
    try:
        answer = await http.request(
            request.method, url, headers=request.headers, content=request.body, timeout=timeout_s
        )
    except httpx2.TimeoutException:
        return -1
    except httpx2.HTTPError:
        return 0
    return int(answer.status_code)
