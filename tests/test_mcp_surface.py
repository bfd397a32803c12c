"""The MCP surface beside the tools, through the official client: stateless Streamable HTTP (no session),
resources (contracts, playbooks, evidence) and resource links, icons, GET / and /tools.json."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import ResourceLink, TextResourceContents

from apiatlas.executors.base import ExecutionLimits
from apiatlas.executors.registry import executor_for_url
from apiatlas.server.app import build_server
from apiatlas.server.config import HttpBinding, ServerConfig
from apiatlas.snapshot import Snapshot, write_snapshot
from apiatlas.sources.playbooks.loader import check_playbooks, parse_playbook
from test_server_catalog import http_server, server_catalog, structured

P = "bank_"
PLAYBOOK = """---
name: client-deals
trigger: A client's securities deals are asked for.
apis: [API_Prs_FindListByFIO, API_Acc_FindListByListOwnerID]
sections:
  client:
    PersonID: API_Prs_FindListByFIO.PersonID
---
Find the client, then the accounts.
"""


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Snapshot]:
    folder = tmp_path_factory.mktemp("surface")
    (folder / "client-deals.md").write_text(PLAYBOOK, encoding="utf-8")
    catalog = server_catalog()
    catalog.playbooks = [parse_playbook(PLAYBOOK, "client-deals.md")]
    check_playbooks(catalog.playbooks, catalog, folder)
    write_snapshot(catalog, folder / "bank.atlas", options={})
    with Snapshot.open(folder / "bank.atlas") as snapshot:
        yield snapshot


@asynccontextmanager
async def connection(url: str, seen: list[httpx.Response]) -> AsyncIterator[Client]:
    """A new HTTP connection and MCP client, recording every response. The client speaks the 2025
    handshake (``mode="legacy"``), whose HTTP transport keeps sessions unless the server is stateless (the
    2026-07-28 revision the client speaks by default has none at all)."""

    async def record(response: httpx.Response) -> None:
        seen.append(response)

    async with (
        httpx.AsyncClient(event_hooks={"response": [record]}, timeout=30) as http,
        Client(streamable_http_client(url, http_client=http), mode="legacy") as client,
    ):
        yield client


def test_stateless_http_answers_two_connections_without_a_session(snap: Snapshot) -> None:
    config = ServerConfig(tool_prefix=P, http=HttpBinding(stateless=True))
    seen: list[httpx.Response] = []

    async def main(url: str) -> None:
        for query in ("API_Acc_GetRest", "API_Prs_FindListByFIO"):  # two requests, two connections
            async with connection(url, seen) as client:
                found = structured(await client.call_tool(P + "search", {"query": query}))
                assert found["status"] == "ok" and found["hits"], found

    with http_server(build_server(snap, None, config), config) as url:
        anyio.run(main, url)
    posts = [r for r in seen if r.request.method == "POST"]
    assert len(posts) >= 4 and all(r.status_code in (200, 202) for r in posts)
    assert not any("mcp-session-id" in r.headers for r in seen)


def test_the_stateful_server_gives_sessions_and_lists_tools_in_registry_order(snap: Snapshot) -> None:
    config = ServerConfig(tool_prefix=P)
    seen: list[httpx.Response] = []

    async def main(url: str) -> list[str]:
        async with connection(url, seen) as client:
            tools = (await client.list_tools()).tools
            assert all(t.icons and t.icons[0].mime_type == "image/svg+xml" for t in tools)
            return [t.name for t in tools]

    with http_server(build_server(snap, None, config), config) as url:
        first, second = anyio.run(main, url), anyio.run(main, url)
        page = httpx.get(url.removesuffix("/mcp") + "/", timeout=10)
        listed = httpx.get(url.removesuffix("/mcp") + "/tools.json", timeout=10).json()
    assert first == second and first[0] == P + "list_business_objects" and first[-1] == P + "get_playbook"
    assert any("mcp-session-id" in r.headers for r in seen)
    assert [t["name"] for t in listed["tools"]] == first
    assert listed["playbooks"] == [
        {"name": "client-deals", "trigger": "A client's securities deals are asked for."}
    ]
    assert page.status_code == 200 and "client-deals" in page.text and f"{P}execute_chain" in page.text


def test_resources_serve_contracts_playbooks_and_the_sessions_evidence(snap: Snapshot, bank_db: str) -> None:
    executor = executor_for_url(bank_db, ExecutionLimits())
    config = ServerConfig(tool_prefix=P, preview_rows=2)

    async def main() -> None:
        async with Client(build_server(snap, executor, config)) as client:
            listed = (await client.list_resources()).resources
            assert [str(r.uri) for r in listed] == ["apiatlas://playbook/client-deals"]
            templates = {t.uri_template for t in (await client.list_resource_templates()).resource_templates}
            assert templates == {"apiatlas://api/{key}", "apiatlas://evidence/{evidence_id}"}
            body = await client.read_resource("apiatlas://playbook/client-deals")
            assert _text(body.contents[0]).startswith("Find the client")
            contract = json.loads(
                _text((await client.read_resource("apiatlas://api/API_Acc_GetRest")).contents[0])
            )
            assert (
                contract["api"]["key"] == "API_Acc_GetRest" and contract["api"]["input_schema"]["properties"]
            )
            result = await client.call_tool(
                P + "execute_api", {"api": "API_Prs_FindListByFIO", "args": {"SurName": "Иванов"}}
            )
            data = structured(result)
            assert data["truncated"] and len(data["tables"][0]["rows"]) == 2
            (link,) = [c for c in result.content if isinstance(c, ResourceLink)]
            assert str(link.uri) == f"apiatlas://evidence/{data['evidence_id']}"
            rows: dict[str, Any] = json.loads(_text((await client.read_resource(str(link.uri))).contents[0]))
            assert len(rows["tables"][0]["rows"]) == data["tables"][0]["rows_returned"] > 2

    try:
        anyio.run(main)
    finally:
        anyio.run(executor.close)


def _text(content: Any) -> str:
    assert isinstance(content, TextResourceContents), content
    return content.text


def test_a_playbook_path_is_written_to_the_snapshot(snap: Snapshot, tmp_path: Path) -> None:
    (playbook,) = snap.playbooks()
    assert playbook.source == "client-deals.md" and playbook.apis[:2] == [
        "API_Prs_FindListByFIO",
        "API_Acc_FindListByListOwnerID",
    ]


def test_tools_json_behind_security_lists_what_the_callers_role_sees(snap: Snapshot, tmp_path: Path) -> None:
    from apiatlas.security.config import RoleSettings
    from local_server import free_port
    from test_security_http import gateway, security_config, write_keys

    keys, plain = write_keys(tmp_path, {"ann": ["retail"], "olga": ["operator"]})
    port = free_port()
    roles = {
        "retail": RoleSettings(objects=["Prs"], tools=["search", "describe_api"]),
        "operator": RoleSettings(),
    }
    with gateway(snap, security_config(tmp_path, port, keys, roles=roles), port):
        base = f"http://127.0.0.1:{port}"
        anonymous = httpx.get(f"{base}/tools.json", timeout=10)
        seen = {
            who: httpx.get(
                f"{base}/tools.json", headers={"Authorization": f"Bearer {plain[who]}"}, timeout=10
            ).json()
            for who in ("ann", "olga")
        }
        page = httpx.get(f"{base}/", headers={"Authorization": f"Bearer {plain['olga']}"}, timeout=10)
    assert anonymous.status_code == 401 and "Bearer" in anonymous.headers["www-authenticate"]
    assert [t["name"] for t in seen["ann"]["tools"]] == [P + "describe_api", P + "search"]
    assert seen["ann"]["playbooks"] == []  # its accounts API is not the retail role's
    assert [p["name"] for p in seen["olga"]["playbooks"]] == ["client-deals"] and len(
        seen["olga"]["tools"]
    ) == 10
    assert page.status_code == 200 and "client-deals" in page.text
