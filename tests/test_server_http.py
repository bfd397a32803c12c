"""The server over Streamable HTTP (uvicorn on 127.0.0.1): the same tools and reason codes as over stdio."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from mcp.client import Client

from apiatlas.server.app import build_server
from apiatlas.server.config import HttpBinding, ServerConfig
from apiatlas.snapshot import Snapshot
from test_server_catalog import http_server, structured, write_server_snapshot


@pytest.fixture(scope="module")
def snap_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_server_snapshot(tmp_path_factory.mktemp("server_http") / "bank.atlas")


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_navigation_over_streamable_http(snap_path: Path, mode: str) -> None:
    config = ServerConfig(tool_prefix="atlas_", page_size=2, http=HttpBinding(path="/mcp-test"))

    async def main(url: str) -> None:
        async with Client(url, mode=mode) as client:
            tools = (await client.list_tools()).tools
            assert {t.name for t in tools} >= {"atlas_search", "atlas_describe_api", "atlas_fetch_evidence"}
            assert all(t.output_schema for t in tools)
            page = structured(await client.call_tool("atlas_list_business_objects", {}))
            assert page["paging"]["truncated"]
            rest = structured(
                await client.call_tool(
                    "atlas_list_business_objects", {"cursor": page["paging"]["next_cursor"]}
                )
            )
            assert [o["key"] for o in page["objects"] + rest["objects"]] == ["Acc", "DSec", "Prs"]
            unknown = structured(
                await client.call_tool("atlas_describe_api", {"api": "API_Prs_FindListByFI"})
            )
            assert unknown["reason"] == "UNKNOWN_API" and unknown["suggestions"][0] == "API_Prs_FindListByFIO"
            missing = structured(await client.call_tool("atlas_dependency_chain", {}))
            assert missing["reason"] == "MISSING_REQUIRED_INPUT"
            chain = structured(
                await client.call_tool("atlas_dependency_chain", {"api": "API_DealSecurity_FindListByID"})
            )
            assert chain["levels"][-1] == ["API_Prs_FindListByFIO"]
            no_db = structured(await client.call_tool("atlas_execute_api", {"api": "API_Prs_FindListByFIO"}))
            assert no_db["reason"] == "NOT_EXECUTABLE"

    with Snapshot.open(snap_path) as snap, http_server(build_server(snap, None, config), config) as url:
        assert url.endswith("/mcp-test")
        anyio.run(main, url)
