"""The tool registry through the official MCP client: tools/list is the registry in order, a tool added
to it is served, and tool schemas carry examples from the snapshot being served (the bank's own on the
bank, none of its names on an OpenAPI catalog)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated, Any

import anyio
import pytest
from mcp.client import Client
from mcp_types import CallToolResult

from apiatlas.build import compile_docs
from apiatlas.server import tools as tools_package
from apiatlas.server.app import build_server
from apiatlas.server.config import ServerConfig
from apiatlas.server.results import ToolResult
from apiatlas.server.tools import TOOL_NAMES
from apiatlas.server.tools.common import AtlasTools, GuideLine, Handler, ToolSpec, answer
from apiatlas.server.tools.examples import CatalogExamples
from apiatlas.snapshot import Snapshot
from test_openapi_source import PETSTORE, write

ROOT = Path(__file__).resolve().parents[1]
# the examples the tool schemas held before they were read from the snapshot
OLD_BANK_EXAMPLES = (
    "API_Prs_FindListByFIO",
    "API_Acc_FindListByListOwnerID",
    "pAPI_Person_FindList",
    "PersonID",
    "OwnerID",
    "SurName",
    "Михалов",
    "DSec",
)


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("examples") / "bank.atlas"
    docs, overlays = ROOT / "examples" / "bank" / "docs", ROOT / "examples" / "bank" / "overlays"
    compile_docs(docs, overlays_dir=overlays, config_path=None, out=out, write_report=False)
    return out


@pytest.fixture(scope="module")
def pets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("examples")
    out = folder / "pets.atlas"
    compile_docs(write(folder / "pets.json", PETSTORE), overlays_dir=None, config_path=None, out=out)
    return out


def tools_list(path: Path) -> dict[str, dict[str, Any]]:
    """tools/list as the client receives it, by tool name."""
    out: dict[str, dict[str, Any]] = {}

    async def main() -> None:
        with Snapshot.open(path) as snap:
            async with Client(build_server(snap, None, ServerConfig())) as client:
                for tool in (await client.list_tools()).tools:
                    out[tool.name] = tool.model_dump(mode="json", by_alias=True, exclude_none=True)

    anyio.run(main)
    return out


def by_suffix(tools: dict[str, dict[str, Any]], name: str) -> dict[str, Any]:
    """The tool ``name`` under whatever prefix the snapshot's source kind gives it."""
    return next(t for k, t in tools.items() if k.endswith(name))


def bank_names(path: Path) -> set[str]:
    """Every API key, object key, input, table and column name of the bank snapshot (4+ characters)."""
    names: set[str] = set(OLD_BANK_EXAMPLES)
    with Snapshot.open(path) as snap:
        objects, _ = snap.list_objects(0, 10_000)
        names |= {o.key for o in objects}
        for key in snap.all_api_keys():
            api = snap.get_api(key)
            assert api is not None
            names.add(api.key)
            names |= {p.name for p in api.params}
            for table in [*api.input_tables, *api.output_tables]:
                names |= {table.name, *(c.name for c in table.columns)}
    return {n for n in names if len(n) >= 4 and not n.isdigit()}


def example(description: str) -> str:
    match = re.search(r"e\.g\. (.+)$", description)
    assert match, description
    return match.group(1)


def test_on_an_openapi_catalog_no_tool_schema_names_the_bank(bank: Path, pets: Path) -> None:
    text = json.dumps(tools_list(pets), ensure_ascii=False)
    pets_names = {"status", "name", "pets", "id", "limit", "tag", "pet_id"}
    leaked = sorted(
        n
        for n in bank_names(bank) - pets_names
        if re.search(rf"(?<![A-Za-z0-9_]){re.escape(n)}(?![A-Za-z0-9_])", text)
    )
    assert leaked == []


def test_on_the_bank_the_examples_are_the_banks_own(bank: Path) -> None:
    tools = tools_list(bank)
    with Snapshot.open(bank) as snap:
        keys = set(snap.all_api_keys())
        objects = {o.key for o in snap.list_objects(0, 10_000)[0]}
        inputs = {p.name for k in keys if (a := snap.get_api(k)) is not None for p in a.params}
    for name in ("describe_api", "dependency_chain", "execute_api"):
        assert example(by_suffix(tools, name)["inputSchema"]["properties"]["api"]["description"]) in keys
    listing = by_suffix(tools, "list_apis")
    assert example(listing["inputSchema"]["properties"]["object_key"]["description"]) in objects
    assert re.search(r"\(e\.g\. (\w+)\)", listing["description"]).group(1) in objects  # type: ignore[union-attr]
    known = json.loads(
        example(by_suffix(tools, "plan_chain")["inputSchema"]["properties"]["known"]["description"])
    )
    assert set(known) <= inputs and len(known) == 1


def test_tools_list_is_the_registry_in_order(pets: Path) -> None:
    names = list(tools_list(pets))
    prefix = names[0].removesuffix(TOOL_NAMES[0])
    assert names == [prefix + n for n in TOOL_NAMES]


class CountResult(ToolResult):
    kept_apis: int = 0


def count_handler(core: AtlasTools, examples: CatalogExamples) -> Handler:
    async def count_apis() -> Annotated[CallToolResult, CountResult]:
        return await answer(
            CountResult, lambda: CountResult(kept_apis=len(core.navigator.snapshot.all_api_keys()))
        )

    return count_apis


def test_a_tool_added_to_the_registry_is_served_with_its_guide_line(
    pets: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One ToolSpec and one registry entry: listed, callable, in the instructions (nothing else touched)."""
    spec = ToolSpec(
        name="count_apis",
        description="Counts the callable APIs. Use when you need the size of the catalog.",
        handler=count_handler,
        guide=GuideLine(99, "{p}count_apis to know how large the catalog is."),
    )
    monkeypatch.setattr(tools_package, "TOOLS", (*tools_package.TOOLS, spec))

    async def main() -> None:
        with Snapshot.open(pets) as snap:
            server = build_server(snap, None, ServerConfig())
            async with Client(server) as client:
                listed = {t.name: t for t in (await client.list_tools()).tools}
                name = next(n for n in listed if n.endswith("count_apis"))
                assert listed[name].annotations is not None and listed[name].annotations.read_only_hint
                result = await client.call_tool(name, {})
                assert result.structured_content == {
                    "status": "ok", "message": "", "next_actions": [], "kept_apis": len(snap.all_api_keys())
                }  # fmt: skip
                assert f"{name} to know how large the catalog is." in (server.instructions or "")

    anyio.run(main)
