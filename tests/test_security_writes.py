"""Write APIs: absent for a reader; for an operator, each call runs only after the user confirms it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import psycopg
from mcp_types import ElicitRequestParams, ElicitResult

from apiatlas.catalog.model import Api, BusinessObject, Catalog, ExecutorBinding, Param, SideEffect
from apiatlas.embedded_pg import EmbeddedPostgres
from apiatlas.executors.base import ExecutionLimits
from apiatlas.executors.registry import executor_for_url
from apiatlas.passes.config import BuildConfig
from apiatlas.passes.types import assign_schemas, merge_types
from apiatlas.security.config import RoleSettings
from apiatlas.snapshot import Snapshot, write_snapshot
from apiatlas.sources.bank_html.domain_types import BANK_TYPES
from local_server import free_port
from test_security_http import PREFIX, gateway, mcp_client, security_config, write_keys
from test_server_catalog import structured

DATABASE = "apiatlas_security_writes"
SCHEMA = """
DROP SCHEMA IF EXISTS api CASCADE;
DROP SCHEMA IF EXISTS bank CASCADE;
CREATE SCHEMA bank;
CREATE SCHEMA api;
CREATE TABLE bank.write_probe (id serial PRIMARY KEY, note varchar(100) NOT NULL);
CREATE PROCEDURE api."API_Test_Write"(p_note varchar DEFAULT 'probe')
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO bank.write_probe (note) VALUES (coalesce(p_note, 'probe'));
END $$;
"""


def write_catalog_snapshot(path: Path) -> Path:
    cat = Catalog(source_kind="bank_html")
    cat.objects = {"Test": BusinessObject(key="Test", title="Проверки", api_keys=["API_Test_Write"])}
    cat.apis = {
        "API_Test_Write": Api(
            key="API_Test_Write",
            object_key="Test",
            title="Запись пробной строки",
            side_effect=SideEffect.WRITE,
            params=[Param(name="Note", domain_type="DSCOMMENT")],
            executor=ExecutorBinding(kind="sql_procedure", target='api."API_Test_Write"'),
            entry_point=True,
        )
    }
    cat.types = merge_types({}, BuildConfig.for_source("bank_html"), BANK_TYPES)
    assign_schemas(cat, cat.types)
    write_snapshot(cat, path, options={"source": "tests/test_security_writes.py"})
    return path


def notes(url: str) -> list[str]:
    with psycopg.connect(url) as conn:
        return [r[0] for r in conn.execute("SELECT note FROM bank.write_probe ORDER BY id").fetchall()]


def test_a_write_runs_for_an_operator_only_after_confirmation(
    embedded_pg: EmbeddedPostgres, tmp_path: Path
) -> None:
    url = embedded_pg.create_database(DATABASE)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(SCHEMA)
    keys, plain = write_keys(tmp_path, {"rita": ["reader"], "oleg": ["operator"]})
    port = free_port()
    mcp_url = f"http://127.0.0.1:{port}/mcp"
    roles = {"reader": RoleSettings(), "operator": RoleSettings(write_apis=["API_Test_Write"])}
    security = security_config(tmp_path, port, keys, roles=roles)
    reads = executor_for_url(url, ExecutionLimits())
    writes = executor_for_url(url, ExecutionLimits(read_only=False))
    call = {"api": "API_Test_Write", "args": {"Note": "confirmed by oleg"}}
    seen: dict[str, Any] = {}

    def answering(action: str) -> Any:
        async def callback(context: Any, params: ElicitRequestParams) -> ElicitResult:
            return ElicitResult(action=action, content={"confirm": True} if action == "accept" else None)

        return callback

    async def main() -> None:
        async with mcp_client(mcp_url, plain["rita"]) as reader:
            tools = {t.name: t for t in (await reader.list_tools()).tools}
            assert tools[f"{PREFIX}execute_api"].annotations.read_only_hint is True
            seen["reader"] = structured(await reader.call_tool(f"{PREFIX}execute_api", call))["reason"]
        async with mcp_client(mcp_url, plain["oleg"], elicitation_callback=answering("decline")) as operator:
            tools = {t.name: t for t in (await operator.list_tools()).tools}
            assert tools[f"{PREFIX}execute_api"].annotations.read_only_hint is False  # truthful per role
            contract = structured(
                await operator.call_tool(f"{PREFIX}describe_api", {"api": "API_Test_Write"})
            )
            assert contract["api"]["executable"] and contract["api"]["side_effect"] == "write"
            seen["declined"] = structured(await operator.call_tool(f"{PREFIX}execute_api", call))["reason"]
            seen["after_decline"] = notes(url)
        async with mcp_client(mcp_url, plain["oleg"], elicitation_callback=answering("accept")) as operator:
            seen["accepted"] = structured(await operator.call_tool(f"{PREFIX}execute_api", call))

    with Snapshot.open(write_catalog_snapshot(tmp_path / "writes.atlas")) as snapshot:
        with gateway(snapshot, security, port, reads, writes):
            anyio.run(main)
        for executor in (reads, writes):
            anyio.run(executor.close)
    assert seen["reader"] == "UNKNOWN_API"
    assert seen["declined"] == "NOT_CONFIRMED" and seen["after_decline"] == []
    assert seen["accepted"]["status"] == "ok", seen["accepted"]
    assert notes(url) == ["confirmed by oleg"]
