"""Curated mode: suggest-curated proposes direct tools; serve registers them beside navigation, runs them."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
import yaml
from mcp.client import Client

from apiatlas.commands.serve import make_executor
from apiatlas.curation import curated_yaml, default_description, default_tool_name, suggest_curated
from apiatlas.errors import ConfigError
from apiatlas.server.app import build_server
from apiatlas.server.config import ServerConfig
from apiatlas.server.curated import CuratedConfig, portable_schema
from apiatlas.snapshot import Snapshot
from apiatlas.sources import SOURCES
from shared_data import shared
from test_http_upstream import Upstream, rest_catalog, serve_upstream, write_rest_snapshot
from test_server_catalog import structured

NAVIGATION = 10  # navigation, execution and evidence tools every server has


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_rest_snapshot(tmp_path_factory.mktemp("curated") / "rest.atlas")


@pytest.fixture(scope="module")
def upstream_url() -> Iterator[str]:
    with serve_upstream(Upstream()) as url:
        yield url


def test_suggestions_are_read_only_ranked_and_explained(snap: Path) -> None:
    catalog = rest_catalog()
    with Snapshot.open(snap) as snapshot:
        everything = suggest_curated(snapshot, 50)
        top3 = suggest_curated(snapshot, 3)
    reads = [a.key for a in catalog.apis.values() if a.side_effect.value == "read"]
    assert sorted(s.api for s in everything) == sorted(reads)  # the DELETE is never proposed
    assert len(top3) == 3 and top3[0] == everything[0] and {s.api for s in top3} <= set(reads)
    assert len({catalog.apis[s.api].object_key for s in top3}) == 3  # a short list spreads over objects
    assert [s.score for s in everything] == sorted((s.score for s in everything), reverse=True)
    best = everything[0]
    assert best.api == "GET /search/person"  # entry point, list of records, feeds two APIs
    assert any(r.startswith("central in the graph: feeds 2 APIs") for r in best.reasons)
    assert "returns a list of records" in best.reasons
    assert all(s.reasons[0].startswith("read-only") and s.annotations["readOnlyHint"] for s in everything)
    assert all(s.annotations["openWorldHint"] for s in everything)  # HTTP operations reach another system
    names = [s.name for s in everything]
    assert len(set(names)) == len(names) and all(re.fullmatch(r"[a-z0-9_]{1,64}", n) for n in names)
    for s in everything:
        first, second = s.description.split(". ", 1)
        assert first and second.startswith("Use when") and s.description.endswith(".")


def test_default_names_and_descriptions_come_from_the_operation() -> None:
    apis = rest_catalog().apis
    person = apis["GET /person/{person_id}"]
    assert default_tool_name(person) == "get_person_by_person_id"
    named = person.model_copy(update={"extra": {"operation_id": "listCoreV1NamespacedPod"}})
    assert default_tool_name(named) == "list_core_v1_namespaced_pod"
    assert default_description(person) == (
        "Get the primary person details by id. Use when you need person data and know person_id."
    )


def test_suggest_curated_cli_writes_a_file_that_serve_runs(
    snap: Path, upstream_url: str, tmp_path: Path
) -> None:
    out = tmp_path / "curated.yaml"
    done = subprocess.run(
        [sys.executable, "-m", "apiatlas.cli", "suggest-curated", str(snap), "--max", "4", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and "wrote 4 curated tools" in done.stderr
    entries = yaml.safe_load(out.read_text(encoding="utf-8"))["tools"]
    assert len(entries) == 4 and all(e["reasons"] for e in entries)
    config = ServerConfig(curated=out)

    async def main() -> None:
        with Snapshot.open(snap) as snapshot:
            executor = make_executor(None, snapshot, config, upstream=upstream_url)
            assert executor is not None
            server = build_server(snapshot, executor, config)
            try:
                async with Client(server) as client:
                    await check_curated_tools(client, entries)
            finally:
                await executor.close()
        assert "Direct tools call one API each" in (server.instructions or "")

    anyio.run(main)


async def check_curated_tools(client: Client, entries: list[dict[str, Any]]) -> None:
    tools = {t.name: t for t in (await client.list_tools()).tools}
    assert len(tools) == NAVIGATION + len(entries)
    api_of = {e["name"]: e["api"] for e in entries}
    search = next(name for name, api in api_of.items() if api == "GET /search/person")
    tool = tools[search]
    assert tool.annotations is not None
    assert (tool.annotations.read_only_hint, tool.annotations.open_world_hint) == (True, True)
    assert tool.input_schema["required"] == ["query"]
    assert set(tool.input_schema["properties"]) == {"query", "page"}
    assert tool.output_schema == tools["api_execute_api"].output_schema
    found = structured(await client.call_tool(search, {"query": "hanks"}))
    assert found["status"] == "ok" and found["rows_returned"] == 1 and found["evidence_id"]
    page = structured(await client.call_tool("api_fetch_evidence", {"evidence_id": found["evidence_id"]}))
    assert page["rows"] == found["tables"][0]["rows"]  # same evidence store as execute_api
    missing = structured(await client.call_tool(search, {}))
    assert missing["reason"] == "MISSING_REQUIRED_INPUT"
    unknown = structured(await client.call_tool(search, {"query": "x", "color": "red"}))
    assert unknown["reason"] == "INVALID_ARGUMENT" and "color" in unknown["message"]


def write(path: Path, tools: list[dict[str, Any]]) -> Path:
    path.write_text(curated_yaml([]) if not tools else yaml.safe_dump({"tools": tools}), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("tools", "problem"),
    [
        ([{"api": "GET /search/persons"}], r"no API 'GET /search/persons'.*did you mean GET /search/person"),
        ([{"api": "DELETE /person/{person_id}"}], "cannot be a direct tool: side effect 'destructive'"),
        ([{"api": "GET /boom", "name": "api_search"}], "used twice"),
        ([{"api": "GET /boom", "name": "x"}, {"api": "GET /slow", "name": "x"}], "used twice"),
        ([{"api": "GET /boom", "name": "bad name!"}], "must be 1-64 letters"),
        ([{"api": "GET /boom", "annotations": {"readOnly": True}}], "unknown annotation readOnly"),
        ([{"api": "GET /boom", "colour": "red"}], "colour"),
    ],
)
def test_curated_file_problems_are_located_config_errors(
    snap: Path, tmp_path: Path, tools: list[dict[str, Any]], problem: str
) -> None:
    config = ServerConfig(curated=write(tmp_path / "curated.yaml", tools))
    with Snapshot.open(snap) as snapshot, pytest.raises(ConfigError, match=problem) as caught:
        build_server(snapshot, None, config)
    assert caught.value.location.file == str(tmp_path / "curated.yaml")
    assert caught.value.location.anchor and caught.value.location.anchor.startswith("tools")


def test_unreadable_curated_files_are_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not found"):
        CuratedConfig.load(tmp_path / "missing.yaml")
    (tmp_path / "latin1.yaml").write_bytes("tools: [caf\xe9]\n".encode("latin-1"))
    with pytest.raises(ConfigError, match="cannot read"):
        CuratedConfig.load(tmp_path / "latin1.yaml")
    (tmp_path / "bad.yaml").write_text("tools: [\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="invalid YAML"):
        CuratedConfig.load(tmp_path / "bad.yaml")
    (tmp_path / "list.yaml").write_text("- api: x\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="mapping with a 'tools' list"):
        CuratedConfig.load(tmp_path / "list.yaml")


def test_portable_schema_removes_what_strict_clients_reject() -> None:
    schema = {
        "type": "object",
        "properties": {
            "any": True,
            "never": False,
            "maybe": {"type": ["string", "null"], "nullable": True},
            "list": {"type": "array", "items": True},
        },
        "additionalProperties": False,
    }
    assert portable_schema(schema) == {
        "type": "object",
        "properties": {
            "any": {},
            "never": {"not": {}},
            "maybe": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "list": {"type": "array", "items": {}},
        },
        "additionalProperties": False,
    }


# --- a real spec: 40 Stripe operations through the MCP Inspector's strict schema check -------------------

STRIPE = shared("openapi", "stripe-2023-09.spec3.yaml")


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "apiatlas.cli", *args], capture_output=True, text=True, timeout=300
    )


@pytest.mark.slow
@pytest.mark.shared
def test_forty_stripe_operations_served_as_direct_tools_pass_the_inspector_strict_check(
    tmp_path: Path,
) -> None:
    inspector = os.environ.get("APIATLAS_INSPECTOR")
    if "openapi" not in SOURCES:
        pytest.skip("this build has no OpenAPI source (apiatlas.sources.SOURCES)")
    if not STRIPE.exists():
        pytest.skip(f"the Stripe spec is not at {STRIPE} (../shared/data/openapi)")
    if not inspector:
        pytest.skip("APIATLAS_INSPECTOR is not set (./run test installs the MCP Inspector and sets it)")
    snap, curated = tmp_path / "stripe.atlas", tmp_path / "curated.yaml"
    compiled = cli("compile", str(STRIPE), "--out", str(snap))
    assert compiled.returncode == 0, compiled.stderr + compiled.stdout
    suggested = cli("suggest-curated", str(snap), "--max", "40", "--out", str(curated))
    assert suggested.returncode == 0, suggested.stderr
    entries = yaml.safe_load(curated.read_text(encoding="utf-8"))["tools"]
    assert len(entries) == 40
    with Snapshot.open(snap) as snapshot:
        apis = [snapshot.get_api(e["api"]) for e in entries]
    assert all(a is not None and a.side_effect.value == "read" for a in apis)
    listed = subprocess.run(
        [inspector, "--cli", "--connect-timeout", "120000", "--method", "tools/list", "--strict",
         "--format", "json",
         sys.executable, "-m", "apiatlas.cli", "serve", str(snap), "--curated", str(curated)],
        capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert listed.returncode == 0, listed.stderr[-3000:]
    assert "0 errors" in listed.stderr or "error" not in listed.stderr.lower()
    envelope = yaml.safe_load(listed.stdout)  # JSON is YAML
    tools = {t["name"]: t for t in envelope["result"]["tools"]}
    assert len(tools) == NAVIGATION + 40
    for entry in entries:
        tool = tools[entry["name"]]
        assert tool["description"] == entry["description"]
        assert tool["annotations"] == entry["annotations"] and tool["annotations"]["readOnlyHint"] is True
        assert tool["inputSchema"]["type"] == "object" and "outputSchema" in tool
    findings = envelope.get("schemaFindings", [])
    assert all(f["severity"] != "error" for item in findings for f in item["findings"])


class HidingView:
    """A role's view of a snapshot (as apiatlas.security builds one): some APIs are not visible."""

    def __init__(self, snapshot: Snapshot, hidden: set[str]) -> None:
        self.snapshot, self.hidden = snapshot, hidden

    def visible(self, key: str) -> bool:
        return key not in self.hidden

    def get_api(self, key: str) -> Any:
        return None if key in self.hidden else self.snapshot.get_api(key)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.snapshot, name)


def test_a_role_view_leaves_out_curated_tools_of_apis_it_hides(snap: Path, tmp_path: Path) -> None:
    tools = [{"api": "GET /search/person", "name": "find_people"}, {"api": "GET /boom", "name": "boom"}]
    config = ServerConfig(curated=write(tmp_path / "curated.yaml", tools))

    async def names(server: Any) -> set[str]:
        async with Client(server) as client:
            return {t.name for t in (await client.list_tools()).tools}

    with Snapshot.open(snap) as snapshot:
        view: Any = HidingView(snapshot, {"GET /boom"})
        listed = anyio.run(names, build_server(view, None, config))
    assert "find_people" in listed and "boom" not in listed
