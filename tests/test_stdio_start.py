"""The stdio start (``server/stdio_start.py``): the installed script's ``apiatlas serve`` answers the first
requests of a client from its previous start while the rest loads, hands every line to the server once it
runs, and corrects a stale answer (told to the client as ``list_changed``). Real processes, the official
MCP client and raw JSON-RPC lines over pipes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from apiatlas.server.stdio_start import _serves_stdio
from spec_snapshots import compile_spec
from test_result_text import _spec


@pytest.fixture(scope="module")
def snap_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_spec(tmp_path_factory.mktemp("stdio-start"), _spec(), "pets")


def _env(cache: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "APIATLAS_CACHE": str(cache), **extra}


def _session(snap: Path, env: dict[str, str]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "apiatlas.entry", "serve", str(snap)], env=env
    )

    async def main() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        async with Client(params) as client:
            tools = [t.model_dump(mode="json", by_alias=True) for t in (await client.list_tools()).tools]
            found = await client.call_tool("api_search", {"query": "show one pet"})
            return tools, found.structured_content or {}

    return anyio.run(main)


def _answers(cache: Path) -> dict[str, Any]:
    (held,) = list((cache / "stdio-start").glob("*.json"))
    return dict(json.loads(held.read_text(encoding="utf-8"))["answers"])


def test_a_second_start_answers_from_the_first_and_hands_over_every_call(
    snap_path: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    first_tools, first_hits = _session(snap_path, _env(cache))
    answers = _answers(cache)
    methods = {json.loads(k)[0] for k in answers}
    assert "tools/list" in methods and methods & {"initialize", "server/discover"}  # the revision's handshake
    second_tools, second_hits = _session(snap_path, _env(cache))  # the prelude answers, the server takes over
    assert second_tools == first_tools and second_hits == first_hits
    assert second_hits["hits"][0]["api_key"] == "GET /pets/{id}"
    assert _answers(cache) == answers  # nothing was stale


def _raw(snap: Path, env: dict[str, str], lines: list[dict[str, Any]], wanted: int) -> list[dict[str, Any]]:
    """Raw JSON-RPC lines to ``apiatlas serve`` (the installed script's entry); the first ``wanted`` back."""
    process = subprocess.Popen(
        [sys.executable, "-m", "apiatlas.entry", "serve", str(snap)],
        env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert process.stdin is not None and process.stdout is not None
    for line in lines:
        process.stdin.write(json.dumps(line) + "\n")
    process.stdin.flush()
    got = []
    deadline = time.monotonic() + 120
    while len(got) < wanted and time.monotonic() < deadline:
        text = process.stdout.readline()
        if not text:
            break
        got.append(json.loads(text))
    process.stdin.close()
    process.wait(60)
    return got


HELLO = [
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"},
        },
    },
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    {
        "jsonrpc": "2.0",
        "id": 3,
        "method": "tools/call",
        "params": {"name": "api_list_business_objects", "arguments": {}},
    },
]


def test_a_stale_answer_is_corrected_and_the_client_told_the_list_changed(
    snap_path: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    fresh = _raw(snap_path, _env(cache), HELLO, 3)
    assert [m.get("id") for m in fresh] == [1, 2, 3] and "result" in fresh[2]
    (held,) = list((cache / "stdio-start").glob("*.json"))
    data = json.loads(held.read_text(encoding="utf-8"))
    key = next(k for k in data["answers"] if k.startswith('["tools/list"'))
    right = data["answers"][key]
    data["answers"][key] = {"tools": right["tools"][:1]}  # as if the tools had changed since
    held.write_text(json.dumps(data), encoding="utf-8")
    stale = _raw(snap_path, _env(cache), HELLO, 4)
    assert (
        stale[0]["id"] == 1 and stale[1]["id"] == 2 and len(stale[1]["result"]["tools"]) == 1
    )  # the prelude's
    assert {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"} in stale[2:]
    assert [m.get("id") for m in stale if "id" in m] == [1, 2, 3]  # the server's own answers to 1, 2 dropped
    assert _answers(cache)[key] == right  # corrected for the next start


def test_off_by_env_and_never_for_http(snap_path: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    answers = _raw(snap_path, _env(cache, APIATLAS_STDIO_START="off"), HELLO, 3)
    assert [m.get("id") for m in answers] == [1, 2, 3] and not (cache / "stdio-start").exists()
    assert _serves_stdio(["serve", "x.atlas"]) and _serves_stdio(["serve", "x.atlas", "--transport", "stdio"])
    assert not _serves_stdio(["serve", "x.atlas", "--transport", "http"])
    assert not _serves_stdio(["serve", "x.atlas", "--transport=http"]) and not _serves_stdio(
        ["serve", "--help"]
    )
