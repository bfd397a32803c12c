"""The MCP surface in tokens: apiatlas bench tokens, the outline output schemas, describe_api bounded with
pointers back to every part it cut."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from typer.testing import CliRunner

from apiatlas.cli import app
from apiatlas.server.app import build_server
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot import Snapshot
from spec_snapshots import compile_spec
from test_server_catalog import structured

DEPTH = 6
WIDE = 120


def nested(level: int) -> dict[str, Any]:
    """An object schema ``level`` levels deep, each level with a described leaf and the next level."""
    leaf = {"type": "string", "description": f"a value at level {level} " + "that says much " * 8}
    if level == DEPTH:
        return {"type": "object", "properties": {f"leaf{level}": leaf}}
    return {"type": "object", "properties": {f"leaf{level}": leaf, f"level{level + 1}": nested(level + 1)}}


def spec() -> dict[str, Any]:
    wide = {f"field{i:03}": {"type": "string", "description": "a wide field " * 6} for i in range(WIDE)}
    body = {"type": "object", "properties": {"level1": nested(1), **wide}}
    return {
        "openapi": "3.0.3",
        "info": {"title": "Depth", "version": "1"},
        "paths": {
            "/things": {
                "post": {
                    "operationId": "createThing",
                    "summary": "Create a thing",
                    "requestBody": {"content": {"application/json": {"schema": body}}},
                    "responses": {
                        "200": {"description": "the thing", "content": {"application/json": {"schema": body}}}
                    },
                },
                "get": {
                    "operationId": "listThings",
                    "summary": "List things",
                    "responses": {"200": {"description": "things"}},
                },
            }
        },
    }


@pytest.fixture(scope="module")
def snap_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_spec(tmp_path_factory.mktemp("tokens"), spec(), "depth")


def _bytes(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def test_describe_api_cuts_a_deep_wide_contract_and_answers_each_part(snap_path: Path) -> None:
    config = ServerConfig()

    async def main() -> None:
        with Snapshot.open(snap_path) as snap:
            async with Client(build_server(snap, None, config)) as client:
                tools = {t.name: t for t in (await client.list_tools()).tools}
                key = "POST /things"
                cut = structured(await client.call_tool("api_describe_api", {"api": key}))
                assert cut["cut_depth"] and "cut at depth" in cut["message"], cut["message"]
                assert _bytes(cut["api"]) <= config.describe_budget_bytes
                schema = json.dumps(cut["api"]["input_schema"])
                assert f"{key}#/input_schema" in schema and "x-more" in schema
                table = cut["api"]["output_tables"][0]
                assert table["total_columns"] > len(table["columns"]) and table["more_columns"].startswith(
                    key
                )
                again = structured(await client.call_tool("api_describe_api", {"api": key}))
                assert again == cut  # the same answer each time: the cut is deterministic
                pointers = [p for p in _pointers(cut["api"]) if "level" in p]
                assert pointers, schema
                part = structured(await client.call_tool("api_describe_api", {"api": pointers[0]}))
                assert part["pointer"] == pointers[0].split("#", 1)[1] and part["part"], part
                columns = structured(
                    await client.call_tool("api_describe_api", {"api": table["more_columns"]})
                )
                assert isinstance(columns["part"], list) and columns["part"][0]["name"]
                bad = structured(await client.call_tool("api_describe_api", {"api": f"{key}#/nope/1"}))
                assert bad["reason"] == "INVALID_ARGUMENT"
                small = structured(await client.call_tool("api_describe_api", {"api": "GET /things"}))
                assert "cut_depth" not in small
                outline = tools["api_describe_api"].output_schema
                assert outline is not None and outline["properties"]["status"] == {
                    "enum": ["ok", "error", "partial"]
                }

    anyio.run(main)


def _pointers(value: Any) -> list[str]:
    if isinstance(value, dict):
        found = [value["x-more"]] if isinstance(value.get("x-more"), str) else []
        return found + [p for v in value.values() for p in _pointers(v)]
    if isinstance(value, list):
        return [p for v in value for p in _pointers(v)]
    return []


def test_bench_tokens_prints_every_figure_beside_one_tool_per_api(snap_path: Path) -> None:
    result = CliRunner().invoke(app, ["bench", "tokens", str(snap_path), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    figures = {f["name"]: f for f in report["figures"]}
    assert set(figures) >= {
        "tools_description_input",
        "tools_list",
        "output_schemas",
        "instructions_static",
        "instructions_playbook_index",
        "describe_api_largest",
        "describe_api_text_plus_structured",
    }
    for name in ("tools_description_input", "tools_list", "instructions_static", "describe_api_largest"):
        assert figures[name]["tokens"] <= figures[name]["budget"], figures[name]
    assert figures["describe_api_largest"]["per_api_tokens"] > figures["describe_api_largest"]["tokens"]
    assert report["describe_api"] == "POST /things" and report["tools"] == 10
    text = CliRunner().invoke(app, ["bench", "tokens", str(snap_path)])
    assert text.exit_code == 0 and "one tool per API" in text.output
    missing = CliRunner().invoke(app, ["bench", "tokens", str(snap_path.with_name("nope.atlas"))])
    assert missing.exit_code == 2
