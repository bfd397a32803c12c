"""The server over Streamable HTTP (uvicorn on 127.0.0.1): the same tools and reason codes as over stdio."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest
from mcp.client import Client

from apiatlas.server.app import build_server
from apiatlas.server.config import HttpBinding, ServerConfig
from apiatlas.snapshot import Snapshot
from local_server import free_port
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


def test_serve_command_over_http_with_a_config_file(snap_path: Path, tmp_path: Path) -> None:
    port = free_port()
    config = tmp_path / "server.yaml"
    config.write_text(f"tool_prefix: fa_\nhttp: {{port: {port}, path: /atlas}}\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "APIATLAS_DB_URL"}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "apiatlas.cli",
            "serve",
            str(snap_path),
            "--transport",
            "http",
            "--config",
            str(config),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            with socket.socket() as attempt:
                if attempt.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            assert time.monotonic() < deadline, "apiatlas serve --transport http did not listen"
            time.sleep(0.1)

        async def main() -> None:
            async with Client(f"http://127.0.0.1:{port}/atlas") as client:
                names = {t.name for t in (await client.list_tools()).tools}
                assert "fa_search" in names and "fa_execute_chain" in names
                found = structured(await client.call_tool("fa_search", {"query": "API_Acc_GetRest"}))
                assert found["hits"][0] == {**found["hits"][0], "api_key": "API_Acc_GetRest", "exact": True}

        anyio.run(main)
    finally:
        process.terminate()
        out, _ = process.communicate(timeout=20)
    assert out == b""  # logs go to stderr; stdout stays clean on every transport


def test_settling_the_heap_freezes_what_the_warm_up_left() -> None:
    import gc

    from apiatlas.gc_phases import settle_heap

    kept = [[n] for n in range(1000)]  # long-lived objects, like a snapshot's indexes
    assert all(gc.is_tracked(item) for item in kept)
    try:
        settle_heap()
        assert gc.get_freeze_count() >= len(kept)  # out of the collector's full passes
    finally:
        gc.unfreeze()
    assert gc.get_freeze_count() == 0
