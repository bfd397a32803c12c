"""A plan is handed to execute_chain: a server that runs reads only offers no chain through a write API."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp.client import Client

from apiatlas.catalog.model import SideEffect
from apiatlas.errors import ReasonCode
from apiatlas.planning.planner import Planner, reads_only
from apiatlas.snapshot import Snapshot, write_snapshot
from plan_catalogs import catalog_of, http_get
from test_server_catalog import structured
from test_server_navigation import run_in_process

REQUEST = "post a message to the channel general"
WRITE = "POST /messages/post"


@pytest.fixture(scope="module")
def chat(tmp_path_factory: pytest.TempPathFactory) -> Path:
    post = http_get(WRITE, "channel", "out", "message_id", title="Post a message to a channel")
    post.side_effect = SideEffect.WRITE
    apis = [
        post,
        http_get("GET /channels/{channel_id}/messages", "channel_id", "out", "messages[].text",
                 title="Messages of a channel"),
        http_get("GET /channels", "name", "out", "channels[].id", "channels[].name", title="Find channels"),
    ]  # fmt: skip
    path = tmp_path_factory.mktemp("chat") / "chat.atlas"
    write_snapshot(catalog_of(apis), path, options={"source": "test"})
    return path


def test_a_read_only_planner_plans_around_the_write_api(chat: Path) -> None:
    with Snapshot.open(chat) as snap:
        every = Planner(snap).plan(REQUEST)
        assert every.chains[0].api_keys == [WRITE]  # the words fit the write API best
        reads = Planner(snap, allow=reads_only).plan(REQUEST)
        assert reads.chains and all(WRITE not in c.api_keys for c in reads.chains)
        named = Planner(snap, allow=reads_only).plan(REQUEST, target=WRITE)
        assert (named.status, named.reason, named.chains) == ("error", ReasonCode.NOT_EXECUTABLE, [])
        assert WRITE in (named.message or "") and "write" in (named.message or "")


def test_the_plan_tool_offers_only_chains_its_caller_can_run(chat: Path) -> None:
    async def body(client: Client) -> None:
        plan = structured(await client.call_tool("atlas_plan_chain", {"request": REQUEST}))
        assert plan["chains"] and all(WRITE not in c["apis"] for c in plan["chains"])
        named = structured(await client.call_tool("atlas_plan_chain", {"request": REQUEST, "target": WRITE}))
        assert named["status"] == "error" and named["reason"] == "NOT_EXECUTABLE"
        assert any("search" in a for a in named["next_actions"])

    run_in_process(chat, body)
