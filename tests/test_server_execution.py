"""Execution through the MCP server on the sample bank (embedded PostgreSQL): calls, chains, evidence."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import psycopg
import pytest
from mcp.client import Client

from apiatlas.catalog.model import Api, Catalog, ExecutorBinding, Param
from apiatlas.commands.serve import make_executor
from apiatlas.embedded_pg import EmbeddedPostgres
from apiatlas.executors.base import ExecutionLimits
from apiatlas.executors.postgres import PostgresExecutor
from apiatlas.passes import run_passes
from apiatlas.passes.config import BuildConfig
from apiatlas.passes.types import assign_schemas
from apiatlas.samples.bankdb import load_bank_database
from apiatlas.server.app import build_server
from apiatlas.server.config import EvidenceCaps, ServerConfig, ServerLimits
from apiatlas.snapshot import Snapshot, write_snapshot
from apiatlas.sources import load_source
from apiatlas.sources.overlay_files import read_overlays
from test_server_catalog import http_server, serve_command, structured


def bank_config(**changes: object) -> BuildConfig:
    """The sample bank's build defaults (its format's), with ``changes``."""
    return BuildConfig.for_source("bank_html").model_copy(update=changes)


pytestmark = pytest.mark.slow
BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"
P = "bank_"


def bank_catalog() -> Catalog:
    """The sample bank's docs and overlays through the real passes, plus the two test procedures."""
    catalog = load_source(BANK / "docs")
    overlays, _ = read_overlays(BANK / "overlays")
    run_passes(catalog, bank_config(), overlays=overlays)
    for key, params in {
        "API_Test_Sleep": [Param(name="Seconds", domain_type="DSMONEY", required=True)],
        "API_Test_Fail": [],
    }.items():
        catalog.apis[key] = Api(
            key=key,
            object_key="Prs",
            title=key,
            params=params,
            executor=ExecutorBinding(target=f'api."{key}"'),
        )
    assign_schemas(catalog, catalog.types)
    return catalog


@pytest.fixture(scope="module")
def own_pg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedPostgres]:
    """A server of our own for the stop/restart test (the shared ``bank_db`` must stay up for others)."""
    pg = EmbeddedPostgres(tmp_path_factory.mktemp("server_pg") / "data")
    load_bank_database(pg.start(), with_test_procedures=True)
    yield pg
    pg.stop()


@pytest.fixture(scope="module")
def bank_snap(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("server_bank") / "bank.atlas"
    write_snapshot(bank_catalog(), path, options={"source": "examples/bank/docs"})
    return path


def query(uri: str, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(uri) as conn:
        return conn.execute(sql, params).fetchall()


def run_with_db(
    snap_path: Path, uri: str, body: Callable[[Client], Awaitable[None]], config: ServerConfig | None = None
) -> None:
    config = config or ServerConfig()

    async def main() -> None:
        with Snapshot.open(snap_path) as snap:
            executor = make_executor(uri, snap, config)
            assert executor is not None
            try:
                async with Client(build_server(snap, executor, config)) as client:
                    await body(client)
            finally:
                await executor.close()

    anyio.run(main)


async def call(client: Client, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    return structured(await client.call_tool(P + tool, args))


def mikhalov_chain() -> list[dict[str, Any]]:
    """Securities deals of client Михалов: Prs → Acc → DSec → DealSecurity, mapped field by field."""

    def mapped(step: int, table: str, columns: dict[str, str]) -> dict[str, Any]:
        return {"source_step": step, "source_table": table, "column_mapping": columns}

    return [
        {"api": "API_Prs_FindListByFIO", "args": {"SurName": "Михалов"}},
        {
            "api": "API_Acc_FindListByListOwnerID",
            "input_table_mapping": {
                "pAPI_Account_OwnerID": mapped(0, "pAPI_Person_FindList", {"OwnerID": "PersonID"})
            },
        },
        {
            "api": "API_DSec_FindListIDByAccID",
            "input_table_mapping": {
                "pAPI_DSec_AccID": mapped(1, "pAPI_Account_List", {"AccountID": "AccountID"})
            },
        },
        {
            "api": "API_DealSecurity_FindListByID",
            "input_table_mapping": {
                "pAPI_DealSecurity_ID": mapped(2, "pAPI_DSec_IDList", {"DealSecurityID": "DealSecurityID"})
            },
        },
    ]


def mikhalov_deals(uri: str) -> set[int]:
    rows = query(
        uri,
        "SELECT d.deal_security_id FROM bank.deal_security d JOIN bank.account a USING (account_id) "
        "JOIN bank.person p ON p.person_id = a.owner_id WHERE p.sur_name = 'Михалов'",
    )
    return {int(r[0]) for r in rows}


def test_execute_api_previews_rows_and_pages_the_evidence(bank_db: str, bank_snap: Path) -> None:
    ivanovs = {
        int(r[0]) for r in query(bank_db, "SELECT person_id FROM bank.person WHERE sur_name = 'Иванов'")
    }
    assert len(ivanovs) > 5

    async def body(client: Client) -> None:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        notes = tools[P + "execute_api"].annotations
        assert notes is not None and notes.read_only_hint is True and notes.destructive_hint is False
        found = await call(
            client, "execute_api", {"api": "API_Prs_FindListByFIO", "args": {"SurName": "Иванов"}}
        )
        assert found["status"] == "ok" and found["reason"] == "TRUNCATED"
        [table] = found["tables"]
        assert table["name"] == "pAPI_Person_FindList" and "PersonID" in table["columns"]
        assert len(table["rows"]) == 5 and table["rows_returned"] == len(ivanovs) and table["truncated"]
        assert found["rows_returned"] == len(ivanovs) and found["evidence_id"].startswith("ev-")
        assert any("fetch_evidence" in a for a in found["next_actions"])

        seen: list[list[Any]] = []
        cursor = None
        while True:
            page = await call(
                client,
                "fetch_evidence",
                {"evidence_id": found["evidence_id"], **({"cursor": cursor} if cursor else {})},
            )
            assert page["table"] == "pAPI_Person_FindList" and page["columns"] == table["columns"]
            seen += page["rows"]
            cursor = page["paging"].get("next_cursor")
            if cursor is None:
                break
            assert page["reason"] == "TRUNCATED" and len(page["rows"]) == 4
        index = table["columns"].index("PersonID")
        assert {int(r[index]) for r in seen} == ivanovs and len(seen) == len(ivanovs)

        by_table = await call(
            client, "fetch_evidence", {"evidence_id": found["evidence_id"], "table": "papi_person_findlist"}
        )
        assert by_table["rows"] == seen[:4]
        other = await call(client, "fetch_evidence", {"evidence_id": found["evidence_id"], "table": "pAPI_X"})
        assert other["reason"] == "INVALID_ARGUMENT" and other["tables"] == ["pAPI_Person_FindList"]
        foreign = await call(
            client, "fetch_evidence", {"evidence_id": found["evidence_id"], "cursor": encode_other_cursor()}
        )
        assert foreign["reason"] == "BAD_CURSOR"

        nobody = await call(
            client, "execute_api", {"api": "API_Prs_FindListByFIO", "args": {"SurName": "Несуществов"}}
        )
        assert nobody["status"] == "ok" and nobody["reason"] == "NO_MATCH" and nobody["rows_returned"] == 0
        in_args = await call(
            client,
            "execute_api",
            {
                "api": "API_Acc_FindListByListOwnerID",
                "args": {"pAPI_Account_OwnerID": [{"OwnerID": min(ivanovs)}]},
            },
        )
        assert in_args["status"] == "ok" and in_args["rows_returned"] >= 1

    run_with_db(bank_snap, bank_db, body, ServerConfig(preview_rows=5, evidence_page_rows=4))


def encode_other_cursor() -> str:
    from apiatlas.server.cursors import encode_cursor

    return encode_cursor("objects", 1)


def test_bad_calls_get_specific_reason_codes_and_the_server_keeps_serving(
    bank_db: str, bank_snap: Path
) -> None:
    persons_before = query(bank_db, "SELECT count(*) FROM bank.person")[0][0]
    with Snapshot.open(bank_snap) as snap:
        dropped = next(
            a.key
            for o in snap.list_objects(0, 100)[0]
            for a in snap.list_apis(o.key, 0, 100, include_dropped=True)[0]
            if not a.funnel.kept
        )

    async def body(client: Client) -> None:
        async def reason(api: str, args: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
            return await call(
                client, "execute_api", {"api": api, **({"args": args} if args is not None else {}), **extra}
            )

        missing = await reason("API_Prs_FindListByFIO", {})
        assert missing["reason"] == "MISSING_REQUIRED_INPUT" and "SurName" in missing["message"]
        wrong = await reason("API_Prs_FindByID", {"PersonID": "abc"})
        assert wrong["reason"] == "INVALID_ARGUMENT" and "PersonID" in wrong["message"]
        extra = await reason("API_Prs_FindByID", {"PersonID": 1, "DropTable": 1})
        assert extra["reason"] == "INVALID_ARGUMENT" and "DropTable" in extra["message"]
        injection = await reason("API_Prs_FindListByFIO", {"SurName": "'; DROP TABLE bank.person; --"})
        assert injection["status"] == "ok" and injection["reason"] == "NO_MATCH"
        huge = await reason("API_Prs_FindListByFIO", {"SurName": "Ж" * 100_000})
        assert huge["reason"] == "INVALID_ARGUMENT" and huge["status"] == "error"
        raised = await reason("API_Prs_FindByID", {"PersonID": 999_999_999})
        assert (
            raised["reason"] == "TOOL_EXECUTION_ERROR"
            and raised["error_code"]
            and "evidence_id" not in raised
        )
        failing = await reason("API_Test_Fail", {})
        assert failing["reason"] == "TOOL_EXECUTION_ERROR" and failing["error_code"] == "59999"
        slow = await reason("API_Test_Sleep", {"Seconds": 5})
        assert slow["reason"] == "TIMEOUT" and slow["status"] == "error"
        not_kept = await reason(dropped, {})
        assert not_kept["reason"] == "NOT_EXECUTABLE" and "funnel" in not_kept["message"]
        unknown = await reason("API_Prs_FindListByFI0", {"SurName": "Иванов"})
        assert unknown["reason"] == "UNKNOWN_API" and "API_Prs_FindListByFIO" in unknown["suggestions"]
        bad_shape = await call(client, "execute_api", {"api": "API_Prs_FindByID", "args": "PersonID=1"})
        assert bad_shape["reason"] == "INVALID_ARGUMENT"
        again = await reason("API_Prs_FindListByFIO", {"SurName": "Михалов"})
        assert again["status"] == "ok" and again["rows_returned"] >= 1

    run_with_db(bank_snap, bank_db, body, ServerConfig(limits=ServerLimits(statement_timeout_ms=300)))
    assert query(bank_db, "SELECT count(*) FROM bank.person")[0][0] == persons_before


def test_execute_chain_finds_mikhalovs_securities_deals_in_one_call(bank_db: str, bank_snap: Path) -> None:
    expected = mikhalov_deals(bank_db)
    assert expected

    async def body(client: Client) -> None:
        done = await call(client, "execute_chain", {"steps": mikhalov_chain()})
        assert done["status"] == "ok", done
        assert [s["api"] for s in done["steps"]] == [s["api"] for s in mikhalov_chain()]
        assert all(s["status"] == "ok" and s["evidence_id"] for s in done["steps"])
        assert len(done["evidence_ids"]) == 4
        last = done["steps"][-1]
        assert last["rows_returned"] == len(expected)
        rows = await call(client, "fetch_evidence", {"evidence_id": last["evidence_id"]})
        index = rows["columns"].index("DealSecurityID")
        assert {int(r[index]) for r in rows["rows"]} == expected

        invalid = mikhalov_chain()
        invalid[2]["input_table_mapping"]["pAPI_DSec_AccID"]["column_mapping"] = {"AccountID": "NoSuchColumn"}
        refused = await call(client, "execute_chain", {"steps": invalid})
        assert refused["status"] == "error" and refused["failed_step"] == 2 and refused["evidence_ids"] == []
        assert "NoSuchColumn" in refused["message"]

        nobody = mikhalov_chain()
        nobody[0]["args"] = {"SurName": "Несуществов"}
        partial = await call(client, "execute_chain", {"steps": nobody})
        assert (
            partial["status"] == "partial" and partial["failed_step"] == 0 and partial["reason"] == "NO_MATCH"
        )
        assert [s["status"] for s in partial["steps"]][1:] == ["skipped"] * 3

        unknown = mikhalov_chain()
        unknown[1]["api"] = "API_Acc_FindListByOwner"
        refused_api = await call(client, "execute_chain", {"steps": unknown})
        assert refused_api["reason"] == "UNKNOWN_API" and refused_api["failed_step"] == 1

    run_with_db(bank_snap, bank_db, body)


def test_database_stopped_mid_session_then_restarted(own_pg: EmbeddedPostgres, bank_snap: Path) -> None:
    async def body(client: Client) -> None:
        before = await call(
            client, "execute_api", {"api": "API_Prs_FindListByFIO", "args": {"SurName": "Михалов"}}
        )
        assert before["status"] == "ok"
        own_pg.stop()
        try:
            down = await call(
                client, "execute_api", {"api": "API_Prs_FindListByFIO", "args": {"SurName": "Михалов"}}
            )
            assert down["status"] == "error" and down["reason"] == "UPSTREAM_UNAVAILABLE"
            kept = await call(client, "fetch_evidence", {"evidence_id": before["evidence_id"]})
            assert kept["status"] == "ok" and kept["rows"]
            assert (await call(client, "search", {"query": "остаток по счёту"}))["status"] == "ok"
        finally:
            own_pg.start()
        after = await call(
            client, "execute_api", {"api": "API_Prs_FindListByFIO", "args": {"SurName": "Михалов"}}
        )
        assert after["status"] == "ok" and after["rows_returned"] == before["rows_returned"]

    run_with_db(bank_snap, own_pg.uri, body)


def test_chain_over_stdio_with_the_db_url_from_the_environment(bank_db: str, bank_snap: Path) -> None:
    expected = mikhalov_deals(bank_db)
    params = serve_command(bank_snap)
    params.env = {**(params.env or {}), "APIATLAS_DB_URL": bank_db}

    async def main() -> None:
        async with Client(params) as client:
            done = structured(await client.call_tool(P + "execute_chain", {"steps": mikhalov_chain()}))
            assert done["status"] == "ok" and done["steps"][-1]["rows_returned"] == len(expected)
            raised = structured(
                await client.call_tool(P + "execute_api", {"api": "API_Test_Fail", "args": {}})
            )
            assert raised["reason"] == "TOOL_EXECUTION_ERROR"
            rows = structured(
                await client.call_tool(P + "fetch_evidence", {"evidence_id": done["evidence_ids"][-1]})
            )
            assert rows["paging"]["total"] == len(expected)

    anyio.run(main)


def test_evidence_is_per_http_session(bank_db: str, bank_snap: Path) -> None:
    config = ServerConfig(evidence=EvidenceCaps(max_entries=2))

    async def main(url: str) -> None:
        async with Client(url, mode="legacy") as alice, Client(url, mode="legacy") as bob:
            ran = structured(
                await alice.call_tool(
                    P + "execute_api", {"api": "API_Prs_FindListByFIO", "args": {"SurName": "Иванов"}}
                )
            )
            evidence = {"evidence_id": ran["evidence_id"]}
            assert structured(await alice.call_tool(P + "fetch_evidence", evidence))["status"] == "ok"
            assert (
                structured(await bob.call_tool(P + "fetch_evidence", evidence))["reason"]
                == "UNKNOWN_EVIDENCE"
            )
            for name in ("Михалов", "Иванов"):  # two more calls push the first out of a 2-entry store
                args = {"api": "API_Prs_FindListByFIO", "args": {"SurName": name}}
                assert structured(await alice.call_tool(P + "execute_api", args))["status"] == "ok"
            assert (
                structured(await alice.call_tool(P + "fetch_evidence", evidence))["reason"]
                == "UNKNOWN_EVIDENCE"
            )

    with Snapshot.open(bank_snap) as snap:
        executor = PostgresExecutor(bank_db, ExecutionLimits())
        try:
            with http_server(build_server(snap, executor, config), config) as url:
                anyio.run(main, url)
        finally:
            anyio.run(executor.close)


def test_bench_server_reports_execute_overhead(bank_db: str, bank_snap: Path) -> None:
    from apiatlas.server.benchmark import measure

    async def main() -> None:
        executor = PostgresExecutor(bank_db, ExecutionLimits())
        try:
            report = await measure(
                bank_snap,
                executor,
                bank_db,
                repeat=3,
                cold_runs=1,
                call=("API_Prs_FindListByFIO", {"SurName": "Михалов"}),
            )
        finally:
            await executor.close()
        assert report.execute is not None and report.execute.bare_psycopg.n == 3
        assert report.per_api_manifest_tokens > report.meta_manifest_tokens

    anyio.run(main)


def test_dependency_answers_stay_small_on_the_compiled_sample(bank_snap: Path) -> None:
    with Snapshot.open(bank_snap) as snap:
        busiest = max(snap.all_api_keys(), key=lambda k: (len(snap.edges_into(k)), k))
        all_edges = len(snap.edges_into(busiest))

        async def main() -> None:
            async with Client(build_server(snap, None, ServerConfig())) as client:
                chain = await call(
                    client, "dependency_chain", {"api": busiest, "depth": 4, "min_confidence": "type_only"}
                )
                described = await call(client, "describe_api", {"api": busiest})
            assert 0 < len(chain["links"]) <= 40
            per_field: dict[tuple[str, str], int] = {}
            for link in chain["links"]:
                field = (link["consumer_api"], link["consumer_field"])
                per_field[field] = per_field.get(field, 0) + 1
            assert max(per_field.values()) <= 3
            direct = described["api"]["depends_on"]
            assert direct and len(direct) <= all_edges
            if len(direct) < all_edges:
                assert chain["status"] == "partial" and chain["reason"] == "TRUNCATED"
                assert "not shown" in described["message"]

        anyio.run(main)
