"""Playbooks: the source (front matter, located errors), the bank's five, the instructions' index,
get_playbook, prompts, per-role visibility, and progress computed from a session's evidence, resumed in a
new session."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from apiatlas.catalog.model import Catalog, Playbook
from apiatlas.errors import SourceError
from apiatlas.executors.base import ExecutionLimits
from apiatlas.executors.registry import executor_for_url
from apiatlas.security.config import RoleSettings
from apiatlas.security.roles import RolePolicy, RoleView
from apiatlas.server.app import build_server
from apiatlas.server.config import EvidenceCaps, ServerConfig
from apiatlas.server.evidence import Evidence, EvidenceRegistry, EvidenceTable
from apiatlas.server.evidence_journal import EvidenceJournal
from apiatlas.server.playbooks import progress
from apiatlas.server.tools import instructions
from apiatlas.server.tools.common import CONVERSATION_HEADER
from apiatlas.snapshot import Snapshot, write_snapshot
from apiatlas.sources.playbooks import check_playbooks, load_playbooks
from test_server_catalog import http_server, structured
from test_server_execution import bank_catalog, mikhalov_chain

BANK_PLAYBOOKS = Path(__file__).resolve().parents[1] / "examples" / "bank" / "playbooks"
P = "bank_"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return bank_catalog()


@pytest.fixture(scope="module")
def snapshot(catalog: Catalog, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Snapshot]:
    catalog.playbooks = load_playbooks(BANK_PLAYBOOKS)
    check_playbooks(catalog.playbooks, catalog, BANK_PLAYBOOKS)
    path = tmp_path_factory.mktemp("playbooks") / "bank.atlas"
    write_snapshot(catalog, path, options={})
    with Snapshot.open(path) as snap:
        yield snap


def _write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder


GOOD = """---
name: deals
trigger: Deals of a client are asked for.
apis: [API_Prs_FindListByFIO]
sections:
  client:
    PersonID: API_Prs_FindListByFIO.PersonID
---
Find the client with `API_Prs_FindListByFIO`, then `API_Acc_FindListByListOwnerID`.
"""


@pytest.mark.parametrize(
    ("text", "line", "needle"),
    [
        (GOOD.replace("apis: [API_Prs_FindListByFIO]", "apis: [API_Nope_Find]"), 4, "API_Nope_Find"),
        (
            GOOD.replace("PersonID: API_Prs_FindListByFIO.PersonID", "X: API_Prs_FindListByFIO.Nope"),
            7,
            "Nope",
        ),
        (GOOD.replace("trigger:", "triger:"), 3, "triger"),
        (GOOD.replace("apis: [API_Prs_FindListByFIO]", "apis: [API_Prs_FindListByFIO"), 5, "YAML"),
        (GOOD.replace("Find the client", "Then `API_Prs_BrowsByBranch`. Find"), 9, "dropped"),
        ("no front matter\n", 1, "---"),
    ],
)
def test_a_bad_playbook_is_a_located_error(
    catalog: Catalog, tmp_path: Path, text: str, line: int, needle: str
) -> None:
    folder = _write(tmp_path / "pb", "deals.md", text)
    with pytest.raises(SourceError) as err:
        check_playbooks(load_playbooks(folder), catalog, folder)
    assert err.value.location.file == "deals.md" and err.value.location.line == line, str(err.value)
    assert needle in str(err.value)


def test_a_playbook_reads_its_front_matter_and_the_apis_its_body_names(
    catalog: Catalog, tmp_path: Path
) -> None:
    folder = _write(tmp_path / "pb", "deals.md", GOOD)
    (playbook,) = load_playbooks(folder)
    check_playbooks([playbook], catalog, folder)
    assert (playbook.name, playbook.trigger, playbook.source) == (
        "deals",
        "Deals of a client are asked for.",
        "deals.md",
    )
    assert playbook.apis == ["API_Prs_FindListByFIO", "API_Acc_FindListByListOwnerID"]
    assert playbook.sections[0].facts == {"PersonID": ["API_Prs_FindListByFIO.PersonID"]}
    _write(folder, "again.md", GOOD)
    with pytest.raises(SourceError, match="also the name of"):
        load_playbooks(folder)


def test_the_bank_ships_five_playbooks_with_sections(snapshot: Snapshot) -> None:
    playbooks = {p.name: p for p in snapshot.playbooks()}
    assert set(playbooks) == {
        "client-kyc-check",
        "client-securities-portfolio",
        "deposits-maturing",
        "dormant-accounts",
        "regulator-client-selection",
    }
    for playbook in playbooks.values():
        assert playbook.trigger and playbook.body.startswith("# ") and playbook.sections
        assert all(snapshot.get_api(a) is not None for a in playbook.apis)
    assert [i.marker for i in playbooks["regulator-client-selection"].invariants] == ["turnoverMismatch"]


def test_roles_see_the_playbooks_granted_to_them_whose_apis_they_see(snapshot: Snapshot) -> None:
    def seen(role: str, settings: RoleSettings) -> list[str]:
        return [p.name for p in RoleView(snapshot, RolePolicy(role, settings)).playbooks()]

    # retail: granted deposits-maturing by name, but its deposits are not in the role's objects
    assert seen("retail", RoleSettings(objects=["Prs", "Acc", "Card"])) == []
    assert seen("retail", RoleSettings()) == ["client-securities-portfolio", "deposits-maturing"]
    assert len(seen("operator", RoleSettings())) == 5
    assert seen("compliance", RoleSettings(hide_apis=["API_Aml_FindListByPersonID"])) == [
        "client-securities-portfolio",
        "dormant-accounts",
    ]


def test_instructions_put_the_index_after_the_static_prefix_and_playbooks_are_prompts(
    snapshot: Snapshot,
) -> None:
    async def main() -> None:
        server = build_server(snapshot, None, ServerConfig(tool_prefix=P))
        text = server.instructions or ""
        static = instructions(P, "x").split("\nAPIs are not executable")[0]
        assert text.startswith(static)
        index = text[text.index("\nPlaybooks (") :]
        assert index.count("\n- ") == 5 and "- client-kyc-check: A client's identity" in index
        async with Client(server) as client:
            prompts = (await client.list_prompts()).prompts
            assert [p.name for p in prompts][:2] == ["client-kyc-check", "client-securities-portfolio"]
            prompt = await client.get_prompt("dormant-accounts")
            assert "API_Acc_BrowsByBranch" in str(prompt.messages[0].content)
            missing = structured(await client.call_tool(P + "get_playbook", {"name": "nope"}))
            assert missing["reason"] == "NO_MATCH" and len(missing["playbooks"]) == 5

    anyio.run(main)


def _evidence(api: str, columns: list[str], rows: list[list[Any]], n: int = 1) -> Evidence:
    return Evidence(f"ev-{n}", api, {"n": n}, [EvidenceTable("t", columns, rows)], 0)


def test_progress_comes_from_evidence_and_an_invariant_adds_its_marker(snapshot: Snapshot) -> None:
    playbook: Playbook = next(p for p in snapshot.playbooks() if p.name == "regulator-client-selection")
    turn = ["AccountID", "RestIn", "DebetTurn", "CreditTurn", "RestOut"]
    before = progress(playbook, [])
    assert not before["turnovers"].complete and before["turnovers"].missing == ["turnover"]
    balanced = progress(
        playbook, [_evidence("API_Acc_GetRestTurn", turn, [[1, "100.00", "30", "50", "120"]])]
    )
    assert balanced["turnovers"].complete and balanced["candidates"].missing == [
        "accounts of the branch",
        "owners",
    ]
    two = [
        _evidence("API_Acc_GetRestTurn", turn, [[1, "100.00", "30", "50", "120"]]),
        _evidence("API_Acc_GetRestTurn", turn, [[2, "10", "0", "0", "11"]], 2),
    ]
    assert progress(playbook, two)["turnovers"].missing == ["turnoverMismatch"]
    assert progress(playbook, [_evidence("API_Brn_FindByNumber", ["BranchCode"], [])])["criteria"].complete


@asynccontextmanager
async def conversation(url: str, conversation_id: str | None) -> AsyncIterator[Client]:
    """A new MCP session on a new connection, sending the conversation id when given."""
    headers = {CONVERSATION_HEADER: conversation_id} if conversation_id else {}
    async with (
        create_mcp_http_client(headers=headers) as http,
        Client(streamable_http_client(url, http_client=http)) as client,
    ):
        yield client


def test_a_flow_is_resumed_in_a_new_session_with_the_same_conversation(
    snapshot: Snapshot, bank_db: str
) -> None:
    executor = executor_for_url(bank_db, ExecutionLimits())
    config = ServerConfig(tool_prefix=P)
    chain = mikhalov_chain()

    async def main(url: str) -> None:
        async with conversation(url, "conv-1") as first:
            await first.call_tool(P + "get_playbook", {"name": "client-securities-portfolio"})
            result = await first.call_tool(P + "execute_api", chain[0])
            found = structured(result)
            assert found["progress"]["client"] == {"complete": True, "missing": []}
            assert found["progress"]["accounts"] == {"complete": False, "missing": ["AccountID"]}
            text = "".join(getattr(block, "text", "") for block in result.content)
            assert (
                "progress of client-securities-portfolio — client: done; accounts: missing AccountID" in text
            )
        async with conversation(url, "conv-1") as resumed:  # another session, another connection
            listed = structured(await resumed.call_tool(P + "list_business_objects", {}))
            assert listed["progress"]["client"]["complete"] and not listed["progress"]["accounts"]["complete"]
            ran = structured(await resumed.call_tool(P + "execute_chain", {"steps": chain}))
            assert ran["status"] == "ok", ran
            assert [s for s, p in ran["progress"].items() if not p["complete"]] == ["securities"]
        async with conversation(url, None) as other:
            assert "progress" not in structured(await other.call_tool(P + "list_business_objects", {}))

    try:
        with http_server(build_server(snapshot, executor, config), config) as url:
            anyio.run(main, url)
    finally:
        anyio.run(executor.close)


def test_a_flow_outlives_a_server_restart_with_an_evidence_journal(
    snapshot: Snapshot, bank_db: str, tmp_path: Path
) -> None:
    executor = executor_for_url(bank_db, ExecutionLimits())
    journal = tmp_path / "evidence.sqlite"
    config = ServerConfig(tool_prefix=P)
    config.evidence.journal = journal
    chain = mikhalov_chain()
    kept: dict[str, Any] = {}

    async def before(url: str) -> None:
        async with conversation(url, "conv-restart") as first:
            await first.call_tool(P + "get_playbook", {"name": "client-securities-portfolio"})
            kept.update(structured(await first.call_tool(P + "execute_api", chain[0])))

    async def after(url: str) -> None:
        async with conversation(url, "conv-restart") as resumed:
            listed = structured(await resumed.call_tool(P + "list_business_objects", {}))
            assert listed["progress"] == kept["progress"]  # the followed playbook and its evidence came back
            page = structured(
                await resumed.call_tool(P + "fetch_evidence", {"evidence_id": kept["evidence_id"]})
            )
            assert page["status"] == "ok" and page["rows"], page
            ran = structured(await resumed.call_tool(P + "execute_api", chain[0]))
            assert int(ran["evidence_id"].split("-")[1]) > int(kept["evidence_id"].split("-")[1])

    try:
        with http_server(build_server(snapshot, executor, config), config) as url:
            anyio.run(before, url)
        assert journal.stat().st_mode & 0o077 == 0  # result rows: readable by the owner only
        with http_server(build_server(snapshot, executor, config), config) as url:  # a new process's server
            anyio.run(after, url)
    finally:
        anyio.run(executor.close)

    with sqlite3.connect(journal) as db:
        sessions = [row[0] for row in db.execute("SELECT session FROM sessions")]
    assert sessions == ["conversation::conv-restart"], sessions


def test_only_resumable_sessions_are_written_and_the_oldest_go_past_the_cap(tmp_path: Path) -> None:
    journal = EvidenceJournal(tmp_path / "evidence.sqlite", max_sessions=2)
    registry = EvidenceRegistry(EvidenceCaps(max_entries=2), journal=journal)
    table = EvidenceTable("result", ["PersonID"], [[1]])
    registry.for_session("7f3a-http-session-id").add("API_A", {}, [table])  # dies with the process
    for conversation_id in ("one", "two", "three"):
        store = registry.for_session(f"conversation::{conversation_id}")
        for n in range(3):
            store.add("API_A", {"n": n}, [table])
    store.following = "deals"
    again = EvidenceRegistry(EvidenceCaps(max_entries=2), journal=journal)
    assert len(again.for_session("7f3a-http-session-id")) == 0
    assert len(again.for_session("conversation::one")) == 0  # dropped: the least recently used past 2
    restored = again.for_session("conversation::three")
    assert [e.args["n"] for e in restored.all()] == [1, 2]  # the store's own cap held in the file too
    assert restored.following == "deals"
    assert restored.add("API_A", {}, [table]).evidence_id.startswith("ev-4-")  # the counter went on
