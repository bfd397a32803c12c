"""The text beside a tool answer's structured content, in the three forms of ``--result-text``: lines and
tables holding every value, the summary alone, compact JSON; measured by ``apiatlas bench tokens``."""

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
from apiatlas.server.result_text import STRUCTURED_NOTE, ResultText, body_text
from apiatlas.snapshot import Snapshot
from spec_snapshots import compile_spec


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]


def test_lines_hold_every_value_with_records_as_one_table() -> None:
    body = {
        "query": "list pets",
        "hits": [
            {"api_key": "GET /pets", "score": 0.9, "matched": ["pet", "list"]},
            {"api_key": "GET /pets/{id}", "score": 0.5, "why": "a | b"},
        ],
        "paging": {"total": 2, "truncated": False, "how_to_continue": None},
        "note": "two\nlines",
        "tags": ["a", "b"],
    }
    text = body_text(body, "lines")
    lines = text.splitlines()
    assert lines[0] == "query: list pets"
    assert lines[1] == "hits (2): api_key | score | matched | why"  # the columns once, in order of appearance
    assert lines[2] == '  GET /pets | 0.9 | ["pet","list"] | '  # a missing value is an empty cell
    assert lines[3] == "  GET /pets/{id} | 0.5 |  | a \\| b"  # a separator inside a value is escaped
    assert "paging:" in lines and "  total: 2" in lines and "  how_to_continue: null" in lines
    assert 'note: "two\\nlines"' in lines and 'tags: ["a","b"]' in lines
    for leaf in _leaves(body):
        shown = leaf if isinstance(leaf, str) and "\n" not in leaf else json.dumps(leaf)
        assert str(shown).replace("|", "\\|") in text, leaf
    assert json.loads(body_text(body, "json")) == body
    assert body_text(body, "summary") == STRUCTURED_NOTE
    assert body_text({}, "lines") == body_text({}, "summary") == ""


def _spec() -> dict[str, Any]:
    def op(op_id: str, summary: str) -> dict[str, Any]:
        return {"operationId": op_id, "summary": summary, "responses": {"200": {"description": "ok"}}}

    return {
        "openapi": "3.0.3",
        "info": {"title": "Pets", "version": "1"},
        "paths": {
            "/pets": {"get": op("listPets", "List all pets"), "post": op("createPet", "Create a pet")},
            "/pets/{id}": {
                "get": {
                    **op("getPet", "Show one pet by its id"),
                    "parameters": [
                        {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
                    ],
                }
            },
        },
    }


@pytest.fixture(scope="module")
def snap_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_spec(tmp_path_factory.mktemp("result-text"), _spec(), "pets")


def _answers(snap_path: Path, form: ResultText) -> tuple[str, dict[str, Any]]:
    async def main() -> tuple[str, dict[str, Any]]:
        with Snapshot.open(snap_path) as snap:
            async with Client(build_server(snap, None, ServerConfig(result_text=form))) as client:
                result = await client.call_tool("api_search", {"query": "show one pet"})
                text = "".join(getattr(block, "text", "") for block in result.content)
                return text, result.structured_content or {}

    return anyio.run(main)


def test_each_form_through_the_official_client(snap_path: Path) -> None:
    lines, structured = _answers(snap_path, "lines")
    summary, same = _answers(snap_path, "summary")
    as_json, also = _answers(snap_path, "json")
    assert structured == same == also  # the structured content does not depend on the text's form
    keys = [hit["api_key"] for hit in structured["hits"]]
    assert keys[0] == "GET /pets/{id}"
    first, _, rest = as_json.partition("\n{")
    assert json.loads("{" + rest)["hits"] == structured["hits"] and first.startswith("OK")
    assert all(key in lines for key in keys) and f"hits ({len(keys)}): api_key" in lines
    assert summary.splitlines()[-1] == STRUCTURED_NOTE and not any(key in summary for key in keys)
    assert summary.splitlines()[0] == lines.splitlines()[0] == first.splitlines()[0]


def test_bench_tokens_prices_each_form_alone_and_beside_the_structured_content(snap_path: Path) -> None:
    result = CliRunner().invoke(app, ["bench", "tokens", str(snap_path), "--json"])
    assert result.exit_code == 0, result.output
    figures = {f["name"]: f["tokens"] for f in json.loads(result.output)["figures"]}
    structured = figures["answers_structured"]
    assert figures["answers_text_summary"] < figures["answers_text_lines"] <= figures["answers_text_json"]
    assert 0 < figures["answers_text_summary"] < structured / 2


def test_serve_refuses_an_unknown_form(snap_path: Path) -> None:
    result = CliRunner().invoke(app, ["serve", str(snap_path), "--result-text", "yaml"])
    assert result.exit_code == 2 and "--result-text must be one of lines, summary, json" in result.output
