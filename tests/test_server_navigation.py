"""Navigation tools through the official MCP client: in-process, and `apiatlas serve` spawned over stdio."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client

from apiatlas.server.app import build_server
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot import Snapshot
from test_server_catalog import serve_command, structured, write_server_snapshot

P = "bank_"


@pytest.fixture(scope="module")
def snap_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_server_snapshot(tmp_path_factory.mktemp("server") / "bank.atlas")


def run_in_process(snap_path: Path, body: Callable[[Client], Awaitable[None]], **config: Any) -> None:
    """Open the snapshot, build the server (no database) and drive it with a real client session."""

    async def main() -> None:
        with Snapshot.open(snap_path) as snap:
            async with Client(build_server(snap, None, ServerConfig(**config))) as client:
                await body(client)

    anyio.run(main)


async def call(client: Client, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    return structured(await client.call_tool(P + tool, args))


def test_tools_list_has_descriptions_annotations_and_output_schemas(snap_path: Path) -> None:
    async def body(client: Client) -> None:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert sorted(tools) == sorted(
            P + n
            for n in (
                "list_business_objects",
                "list_apis",
                "describe_api",
                "search",
                "dependency_chain",
                "plan_chain",
                "execute_api",
                "execute_chain",
                "fetch_evidence",
                "get_playbook",
            )
        )
        for tool in tools.values():
            first, _, second = (tool.description or "").partition(". ")
            assert first.split()[0].endswith("s"), tool.description  # "Lists", "Returns", "Finds", ...
            assert second.startswith("Use when"), tool.description
            assert tool.output_schema and "status" in tool.output_schema["properties"]
            assert tool.input_schema.get("additionalProperties") is False
            notes = tool.annotations
            assert notes is not None and notes.open_world_hint is False and notes.destructive_hint is False
        for name in ("list_business_objects", "describe_api", "search", "dependency_chain", "fetch_evidence"):
            notes = tools[P + name].annotations
            assert notes is not None and notes.read_only_hint and notes.idempotent_hint
        assert "search" in (client.instructions or "") and "NOT_EXECUTABLE" in (client.instructions or "")

    run_in_process(snap_path, body)


def test_objects_and_apis_are_paged_with_cursors(snap_path: Path) -> None:
    async def body(client: Client) -> None:
        first = await call(client, "list_business_objects", {})
        assert [o["key"] for o in first["objects"]] == ["Acc", "DSec"]
        assert first["reason"] == "TRUNCATED" and first["paging"]["total"] == 3
        assert first["paging"]["truncated"] and "cursor" in first["paging"]["how_to_continue"]
        rest = await call(client, "list_business_objects", {"cursor": first["paging"]["next_cursor"]})
        assert [o["key"] for o in rest["objects"]] == ["Prs"]
        assert rest["paging"]["truncated"] is False and "next_cursor" not in rest["paging"]
        assert rest["objects"][0]["api_count"] == 1

        apis = await call(client, "list_apis", {"object_key": "acc"})  # keys match case-insensitively
        assert apis["object_key"] == "Acc" and apis["paging"]["total"] == 4  # the dropped API is not listed
        keys = [a["key"] for a in apis["apis"]]
        more = await call(client, "list_apis", {"object_key": "Acc", "cursor": apis["paging"]["next_cursor"]})
        keys += [a["key"] for a in more["apis"]]
        assert keys == [
            "API_Acc_FindByID",
            "API_Acc_FindListByListOwnerID",
            "API_Acc_GetRest",
            "API_Acc_SetPurpose",
        ]

        wrong = await call(
            client, "list_apis", {"object_key": "DSec", "cursor": first["paging"]["next_cursor"]}
        )
        assert wrong["status"] == "error" and wrong["reason"] == "BAD_CURSOR"
        junk = await call(client, "list_business_objects", {"cursor": "not-a-cursor"})
        assert junk["reason"] == "BAD_CURSOR"
        unknown = await call(client, "list_apis", {"object_key": "Accc"})
        assert unknown["reason"] == "UNKNOWN_OBJECT" and unknown["suggestions"] == ["Acc"]

    run_in_process(snap_path, body, page_size=2)


def test_describe_api_gives_the_full_contract(snap_path: Path) -> None:
    async def body(client: Client) -> None:
        owner = (await call(client, "describe_api", {"api": "API_Acc_FindListByListOwnerID"}))["api"]
        schema = owner["input_schema"]
        assert schema["required"] == ["pAPI_Account_OwnerID"]
        rows = schema["properties"]["pAPI_Account_OwnerID"]
        assert rows["type"] == "array" and rows["items"]["properties"]["OwnerID"]["type"] == "integer"
        assert schema["properties"]["OnlyOpenFlag"]["type"] == "integer"
        out = owner["output_tables"][0]
        assert out["name"] == "pAPI_Account_List"
        assert {"name": "AccountID", "domain_type": "DSIDENTIFIER", "type": "integer"} in out["columns"]
        assert owner["errors"] == [{"code": "50001", "description": "Не задан ни один владелец"}]
        [dep] = owner["depends_on"]
        assert (dep["producer_api"], dep["producer_field"], dep["consumer_field"], dep["confidence"]) == (
            "API_Prs_FindListByFIO",
            "PersonID",
            "OwnerID",
            "alias",
        )

        rest = await call(client, "describe_api", {"api": "api_acc_getrest"})
        assert rest["api"]["key"] == "API_Acc_GetRest"
        assert rest["api"]["when_to_use"] == ["Получение остатка по счёту"]
        assert rest["api"]["important"] and rest["api"]["executable"] is True

        dropped = await call(client, "describe_api", {"api": "API_Acc_Close"})
        assert dropped["status"] == "ok" and dropped["reason"] == "NOT_EXECUTABLE"
        assert dropped["api"]["executable"] is False and "funnel" in dropped["api"]["not_executable_reason"]
        write = await call(client, "describe_api", {"api": "API_Acc_SetPurpose"})
        assert "write" in write["api"]["not_executable_reason"]

        unknown = await call(client, "describe_api", {"api": "API_Acc_GetRst"})
        assert unknown["status"] == "error" and unknown["reason"] == "UNKNOWN_API"
        assert unknown["suggestions"][0] == "API_Acc_GetRest"
        assert "API_Acc_GetRest" in unknown["next_actions"][0]

    run_in_process(snap_path, body)


def test_search_exact_name_first_filters_and_empty_results(snap_path: Path) -> None:
    async def body(client: Client) -> None:
        found = await call(client, "search", {"query": "остаток по счёту"})
        assert found["hits"][0]["api_key"] == "API_Acc_GetRest"
        exact = await call(client, "search", {"query": "API_Acc_FindByID"})
        assert exact["hits"][0] == {**exact["hits"][0], "api_key": "API_Acc_FindByID", "exact": True}
        deals = await call(
            client, "search", {"query": "сделки ценные бумаги", "object_key": "DSec", "limit": 1}
        )
        assert [h["object_key"] for h in deals["hits"]] == ["DSec"]
        filtered = await call(client, "search", {"query": "счёт", "object_key": "Prs"})
        assert all(h["object_key"] == "Prs" for h in filtered["hits"])

        empty = await call(client, "search", {"query": "кофеварка"})
        assert empty["status"] == "error" and empty["reason"] == "NO_MATCH" and empty["hits"] == []
        assert empty["next_actions"]
        blank = await call(client, "search", {"query": "   "})
        assert blank["reason"] == "INVALID_ARGUMENT"
        bad_object = await call(client, "search", {"query": "счёт", "object_key": "Nope"})
        assert bad_object["reason"] == "UNKNOWN_OBJECT"

    run_in_process(snap_path, body)


def test_dependency_chain_upstream_and_downstream(snap_path: Path) -> None:
    async def body(client: Client) -> None:
        up = await call(client, "dependency_chain", {"api": "API_DealSecurity_FindListByID", "depth": 4})
        assert up["levels"] == [
            ["API_DealSecurity_FindListByID"],
            ["API_DSec_FindListIDByAccID"],
            ["API_Acc_FindListByListOwnerID"],
            ["API_Prs_FindListByFIO"],
        ]
        assert [(link["consumer_field"], link["confidence"]) for link in up["links"]] == [
            ("DealSecurityID", "name_type"),
            ("AccountID", "name_type"),
            ("OwnerID", "alias"),
        ]
        shallow = await call(client, "dependency_chain", {"api": "API_DealSecurity_FindListByID", "depth": 1})
        assert shallow["depth"] == 1 and len(shallow["links"]) == 1

        down = await call(
            client,
            "dependency_chain",
            {"api": "API_Prs_FindListByFIO", "direction": "downstream", "depth": 1},
        )
        assert down["levels"][1] == ["API_Acc_FindListByListOwnerID"]  # the type_only edge is below "alias"
        weak = await call(
            client,
            "dependency_chain",
            {
                "api": "API_Prs_FindListByFIO",
                "direction": "downstream",
                "depth": 1,
                "min_confidence": "type_only",
            },
        )
        assert sorted(weak["levels"][1]) == ["API_Acc_FindByID", "API_Acc_FindListByListOwnerID"]

        declared = await call(
            client, "dependency_chain", {"api": "API_DealSecurity_FindListByID", "min_confidence": "declared"}
        )
        assert declared["status"] == "ok" and declared["reason"] == "NO_MATCH" and declared["links"] == []
        unknown = await call(client, "dependency_chain", {"api": "API_Nope"})
        assert unknown["reason"] == "UNKNOWN_API"
        too_deep = await client.call_tool(
            P + "dependency_chain", {"api": "API_Prs_FindListByFIO", "depth": 9}
        )
        assert structured(too_deep)["reason"] == "INVALID_ARGUMENT"

    run_in_process(snap_path, body)


def test_bad_arguments_are_reason_coded_and_the_server_keeps_serving(snap_path: Path) -> None:
    async def body(client: Client) -> None:
        missing = await call(client, "describe_api", {})
        assert missing["reason"] == "MISSING_REQUIRED_INPUT" and "api" in missing["message"]
        wrong_type = await call(client, "search", {"query": ["a", "list"]})
        assert wrong_type["reason"] == "INVALID_ARGUMENT"
        extra = await call(client, "search", {"query": "счёт", "sql": "1; DROP TABLE x"})
        assert extra["reason"] == "INVALID_ARGUMENT" and "sql" in extra["message"]
        injection = await call(client, "search", {"query": "'; DROP TABLE apis; --"})
        assert injection["status"] in ("ok", "error")
        huge = await call(client, "describe_api", {"api": "A" * 100_000})
        assert huge["reason"] == "UNKNOWN_API"
        unknown_tool = await client.call_tool("bank_drop_everything", {})
        assert structured(unknown_tool)["reason"] == "INVALID_ARGUMENT"
        assert (await call(client, "describe_api", {"api": "API_Acc_GetRest"}))["status"] == "ok"

    run_in_process(snap_path, body)


def test_execution_without_a_database_is_not_executable(snap_path: Path) -> None:
    async def body(client: Client) -> None:
        one = await call(client, "execute_api", {"api": "API_Acc_GetRest", "args": {"AccountID": 1}})
        assert one["reason"] == "NOT_EXECUTABLE" and "--db" in one["message"]
        why = one["message"].partition(" is not executable: ")[2]
        assert why.startswith("no database is configured") and why in (client.instructions or "")
        chain = await call(client, "execute_chain", {"steps": [{"api": "API_Prs_FindListByFIO"}]})
        assert chain["reason"] == "NOT_EXECUTABLE" and chain["failed_step"] == 0
        unknown = await call(client, "execute_api", {"api": "API_Acc_GetRst"})
        assert unknown["reason"] == "UNKNOWN_API" and unknown["suggestions"][0] == "API_Acc_GetRest"
        evidence = await call(client, "fetch_evidence", {"evidence_id": "ev-1-deadbeef"})
        assert evidence["reason"] == "UNKNOWN_EVIDENCE"

    run_in_process(snap_path, body)


def test_stdio_subprocess_serves_the_protocol_only(snap_path: Path) -> None:
    async def main() -> None:
        async with Client(serve_command(snap_path)) as client:
            tools = (await client.list_tools()).tools
            assert len(tools) == 10 and all(t.name.startswith(P) for t in tools)
            bad = structured(await client.call_tool(P + "describe_api", {"api": "nope"}))
            assert bad["reason"] == "UNKNOWN_API"
            hits = structured(await client.call_tool(P + "search", {"query": "остаток"}))
            assert hits["hits"][0]["api_key"] == "API_Acc_GetRest"
            no_db = structured(await client.call_tool(P + "execute_api", {"api": "API_Acc_GetRest"}))
            assert no_db["reason"] == "NOT_EXECUTABLE"

    anyio.run(main)


def test_serve_refuses_a_missing_snapshot_and_a_bad_config(tmp_path: Path, snap_path: Path) -> None:
    from typer.testing import CliRunner

    from apiatlas.cli import app

    runner = CliRunner()
    missing = runner.invoke(app, ["serve", str(tmp_path / "none.atlas")])
    assert missing.exit_code == 2 and "SNAPSHOT_NOT_FOUND" in missing.output
    config = tmp_path / "server.yaml"
    config.write_text("page_size: 0\nunknown_key: 1\n", encoding="utf-8")
    bad = runner.invoke(app, ["serve", str(snap_path), "--config", str(config)])
    assert bad.exit_code == 2 and "BAD_CONFIG" in bad.output and "page_size" in bad.output
    transport = runner.invoke(app, ["serve", str(snap_path), "--transport", "smoke"])
    assert transport.exit_code == 2
