"""A source format registered from outside ``src/``: compiled, served over MCP and searched with no change to
apiatlas; an unknown kind gets the neutral defaults; serving reads the manifest, not the source's code."""

from __future__ import annotations

import ast
import json
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client

from apiatlas.build import compile_docs
from apiatlas.catalog.model import (
    Api,
    BusinessObject,
    Catalog,
    Column,
    Direction,
    EdgeLevel,
    Param,
    SessionTable,
)
from apiatlas.errors import Location
from apiatlas.executors.base import ExecutionLimits, Executor
from apiatlas.executors.http import HttpExecutor
from apiatlas.executors.registry import EXECUTORS, ExecutorOptions, executor_for_url, register_executor
from apiatlas.passes import BuildConfig, run_passes
from apiatlas.server.app import build_server
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot import Snapshot, write_snapshot
from apiatlas.sources import NEUTRAL, SOURCES, SourceFormat, detect_source, register_source, source_format
from apiatlas.sources.format import Progress
from test_server_catalog import structured

FUNCTIONS = [
    {
        "name": "lookup_weather",
        "description": "Returns the current weather forecast for a city: temperature, wind and rain.",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "city name"},
                "units": {"type": "string", "enum": ["metric", "imperial"]},
            },
            "required": ["city"],
        },
    },
    {
        "name": "convert_currency",
        "description": "Converts an amount of money from one currency to another at today's exchange rate.",
        "parameters": {
            "type": "object",
            "properties": {
                "amount": {"type": "number"},
                "source": {"type": "string"},
                "target": {"type": "string"},
            },
            "required": ["amount", "source", "target"],
        },
    },
    {
        "name": "translate_text",
        "description": "Translates a sentence into another language.",
        "parameters": {
            "type": "object",
            "properties": {"text": {"type": "string"}, "language": {"type": "string"}},
        },
    },
]


class FunctionListFormat(SourceFormat):
    """A JSON list of function definitions (``*.functions.json``), as LLM tool-calling APIs describe them."""

    kind = "function_list"
    description = "a JSON list of function definitions: name, description, parameters (JSON Schema)"
    display_name = "function definitions"
    tool_prefix = "fn_"
    source_schemas_win = True

    def detects(self, path: Path) -> bool:
        if not (path.is_file() and path.name.endswith(".functions.json")):
            return False
        data = json.loads(path.read_text(encoding="utf-8"))
        return isinstance(data, list) and all(isinstance(f, dict) and "name" in f for f in data)

    def load(self, path: Path, *, progress: Progress | None = None) -> Catalog:
        functions: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
        group = path.name.removesuffix(".functions.json")
        catalog = Catalog(source_kind=self.kind, source_files={path.name: "0" * 64})
        for number, function in enumerate(functions, start=1):
            schema = function.get("parameters") or {}
            required = set(schema.get("required", []))
            params = [
                Param(name=name, json_schema=dict(prop), description=str(prop.get("description", "")),
                      required=name in required)
                for name, prop in schema.get("properties", {}).items()
            ]  # fmt: skip
            text = str(function.get("description", ""))
            catalog.apis[function["name"]] = Api(
                key=function["name"], object_key=group, title=text.split(": ")[0], description=text,
                params=params, source=Location(file=path.name, line=number),
            )  # fmt: skip
        catalog.objects[group] = BusinessObject(
            key=group, name=group, title=group, api_keys=sorted(catalog.apis)
        )
        if progress is not None:
            progress(1, 1)
        return catalog


@pytest.fixture
def function_format() -> Iterator[FunctionListFormat]:
    """The format registered for one test, then removed again."""
    fmt = FunctionListFormat()
    register_source(fmt)
    try:
        yield fmt
    finally:
        SOURCES.pop(fmt.kind, None)


def _spec(tmp_path: Path) -> Path:
    path = tmp_path / "assistant.functions.json"
    path.write_text(json.dumps(FUNCTIONS), encoding="utf-8")
    return path


def _serve(snap_path: Path, body: Callable[[Client, str], Awaitable[None]], config: ServerConfig) -> None:
    async def main() -> None:
        with Snapshot.open(snap_path) as snap:
            prefix = config.prefix_for(snap.manifest())
            async with Client(build_server(snap, None, config)) as client:
                await body(client, prefix)

    anyio.run(main)


def test_a_format_registered_from_a_test_compiles_serves_and_searches(
    tmp_path: Path, function_format: FunctionListFormat
) -> None:
    spec = _spec(tmp_path)
    assert detect_source(spec) == "function_list"
    result = compile_docs(
        spec, overlays_dir=None, config_path=None, out=tmp_path / "fn.atlas", embeddings="none"
    )
    manifest = result.manifest
    assert manifest.source_kind == "function_list" and manifest.counts["kept_apis"] == len(FUNCTIONS)
    assert manifest.serving is not None and manifest.serving.tool_prefix == "fn_"
    assert manifest.serving.executor is None and manifest.serving.display_name == "function definitions"
    SOURCES.pop(function_format.kind)  # run time needs no source code: the manifest says how to serve it

    async def body(client: Client, prefix: str) -> None:
        assert prefix == "fn_"
        names = {t.name for t in (await client.list_tools()).tools}
        assert {"fn_search", "fn_describe_api", "fn_list_apis"} <= names
        found = structured(await client.call_tool("fn_search", {"query": "weather forecast for a city"}))
        assert found["hits"] and found["hits"][0]["api_key"] == "lookup_weather", found
        money = structured(await client.call_tool("fn_search", {"query": "exchange rate of a currency"}))
        assert money["hits"][0]["api_key"] == "convert_currency", money
        contract = structured(await client.call_tool("fn_describe_api", {"api": "lookup_weather"}))
        assert "metric" in json.dumps(contract, ensure_ascii=False)  # the source's own enum is kept
        refused = structured(await client.call_tool("fn_execute_api", {"api": "lookup_weather", "args": {}}))
        assert refused["status"] == "error" and "no executor" in refused["message"], refused

    _serve(result.snapshot, body, ServerConfig())
    _serve(
        result.snapshot,
        lambda client, prefix: _expect_prefix(prefix, "mine_"),
        ServerConfig(tool_prefix="mine_"),
    )


async def _expect_prefix(prefix: str, expected: str) -> None:
    assert prefix == expected


def _owner_catalog(kind: str) -> Catalog:
    """A producer of ``PersonID`` and an unapproved consumer of ``OwnerID`` that names it."""
    out = SessionTable(
        name="People", direction=Direction.OUT, columns=[Column(name="PersonID", domain_type="DSIDENTIFIER")]
    )
    producer = Api(key="Read_People", object_key="o", output_tables=[out], approved=True, implemented=True)
    owner = Param(
        name="OwnerID", domain_type="DSIDENTIFIER", required=True, description="the owner (PersonID)"
    )
    consumer = Api(key="Write_Thing", object_key="o", approved=False, implemented=False, params=[owner])
    return Catalog(source_kind=kind, apis={a.key: a for a in (producer, consumer)})


def test_an_unknown_kind_gets_neutral_defaults() -> None:
    kind = "never_registered_kind"
    assert source_format(kind) is NEUTRAL
    assert (NEUTRAL.tool_prefix, NEUTRAL.executor, NEUTRAL.rest_passes) == ("atlas_", None, False)
    config = BuildConfig.for_source(kind)
    assert config.funnel == [] and config.aliases == [] and not config.description_aliases
    catalog = run_passes(_owner_catalog(kind), config)
    assert all(a.funnel.kept for a in catalog.apis.values())  # unapproved, unimplemented: still kept
    assert not [e for e in catalog.edges if e.level is EdgeLevel.ALIAS]
    # the control: the bank's defaults drop both (name rule) and alias OwnerID to PersonID
    bank = BuildConfig.for_source("bank_html")
    assert bank.aliases and bank.description_aliases
    dropped = run_passes(_owner_catalog("bank_html"), bank)
    assert not any(a.funnel.kept for a in dropped.apis.values())
    kept_anyway = run_passes(_owner_catalog("bank_html"), bank.model_copy(update={"funnel": []}))
    assert [e.consumer_field for e in kept_anyway.edges if e.level is EdgeLevel.ALIAS] == ["OwnerID"]


def test_older_snapshots_fall_back_to_the_registry_then_neutral() -> None:
    config = ServerConfig()
    assert config.prefix_for({"source_kind": "openapi"}) == "api_"  # written before the serving section
    assert config.prefix_for({"source_kind": "bank_html"}) == "bank_"
    assert config.prefix_for({"source_kind": "something_else"}) == "atlas_"
    assert config.prefix_for({"source_kind": "openapi", "serving": {"tool_prefix": "zz_"}}) == "zz_"
    assert ServerConfig(tool_prefix="p_").prefix_for({"source_kind": "openapi"}) == "p_"


def test_an_http_snapshot_without_upstream_says_to_start_it_with_upstream(tmp_path: Path) -> None:
    api = Api(
        key="GET /things/{thing_id}", object_key="things", params=[Param(name="thing_id", required=True)]
    )
    catalog = Catalog(
        source_kind="openapi", apis={api.key: api}, objects={"things": BusinessObject(key="things")}
    )
    run_passes(catalog, BuildConfig.for_source("openapi"))
    path = write_snapshot(catalog, tmp_path / "rest.atlas", options={"source": "test"}).source_root
    assert path == "test"

    async def body(client: Client, prefix: str) -> None:
        assert prefix == "api_"
        args = {"api": "GET /things/{thing_id}", "args": {"thing_id": "1"}}
        refused = structured(await client.call_tool("api_execute_api", args))
        assert "--upstream" in refused["message"] and "--db" not in refused["message"], refused

    _serve(tmp_path / "rest.atlas", body, ServerConfig())


def test_an_executor_registered_for_a_scheme_serves_its_urls() -> None:
    made: list[str] = []

    def factory(url: str, limits: ExecutionLimits, options: ExecutorOptions) -> Executor:
        made.append(url)
        return HttpExecutor("http://127.0.0.1:9", limits, types=options.types)

    register_executor("Proxy", factory)
    try:
        executor = executor_for_url("proxy://gateway/api", ExecutionLimits())
        assert isinstance(executor, HttpExecutor) and made == ["proxy://gateway/api"]
    finally:
        EXECUTORS.pop("proxy", None)
    with pytest.raises(Exception, match="no executor for URL scheme 'proxy'"):
        executor_for_url("proxy://gateway/api")


def test_the_executor_interface_imports_no_backend() -> None:
    """``executors/base.py`` names no backend, not even in a function: the registry maps schemes to them."""
    base = Path(__file__).resolve().parents[1] / "src" / "apiatlas" / "executors" / "base.py"
    imported = {
        node.module or ""
        for node in ast.walk(ast.parse(base.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom)
    }
    backends = {f"apiatlas.executors.{m}" for m in ("postgres", "sqlserver", "http", "registry")}
    assert not imported & backends, imported & backends
