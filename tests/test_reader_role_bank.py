"""The reader role on the sample bank: procedures that exchange session tables run under the login, and
the database itself refuses that login a write procedure and a direct table read."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import psycopg
import pytest
from mcp.client import Client
from typer.testing import CliRunner

from apiatlas.build import compile_docs
from apiatlas.catalog.model import DomainType, SideEffect
from apiatlas.cli import app
from apiatlas.commands.serve import make_executor
from apiatlas.embedded_pg import EmbeddedPostgres
from apiatlas.errors import ReasonCode
from apiatlas.executors import (
    CallRequest,
    CallResult,
    ChainResult,
    ChainStep,
    ExecutionLimits,
    TableMapping,
    executor_for_url,
    run_chain,
)
from apiatlas.reader_role import login_url
from apiatlas.samples.bank_catalog import sample_bank
from apiatlas.samples.bankdb import load_bank_database
from apiatlas.samples.docs_writer import write_docs
from apiatlas.server.app import build_server
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot import Snapshot
from apiatlas.sources import load_source
from test_server_catalog import structured

ROLE = "atlas_bank_reader_test"


def as_login(uri: str, role: str) -> str:
    """The same database as ``role`` (the embedded server trusts local logins: no password)."""
    login = login_url(uri, role)
    assert login.startswith(f"postgresql://{role}@") and login.split("@", 1)[1] == uri.split("@", 1)[1]
    return login


@pytest.fixture(scope="module")
def bank(
    embedded_pg: EmbeddedPostgres, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Path]]:
    """The sample bank (with its test procedures) in a database of its own, whose routines the reader
    role alters, and the snapshot of its core documentation."""
    uri = embedded_pg.create_database("apiatlas_reader_bank")
    load_bank_database(uri, with_test_procedures=True)
    folder = tmp_path_factory.mktemp("reader_bank")
    write_docs(sample_bank(core_only=True), folder / "docs")
    snap = folder / "bank.atlas"
    compile_docs(folder / "docs", overlays_dir=None, config_path=None, out=snap, write_report=False)
    applied = CliRunner().invoke(
        app, ["db", "reader-role", str(snap), "--db", uri, "--role", ROLE, "--apply"]
    )
    assert applied.exit_code == 0, applied.output
    assert "exchange session tables" in applied.output  # the bank's procedures are granted, not left out
    yield uri, snap


def test_the_sql_grants_temporary_tables_and_the_session_table_procedures(bank: tuple[str, Path]) -> None:
    uri, snap = bank
    printed = CliRunner().invoke(app, ["db", "reader-role", str(snap), "--db", uri, "--role", ROLE])
    assert printed.exit_code == 0, printed.output
    assert f'GRANT TEMPORARY ON DATABASE "apiatlas_reader_bank" TO "{ROLE}"' in printed.stdout
    assert 'GRANT EXECUTE ON ROUTINE "api"."API_Prs_FindListByFIO"' in printed.stdout
    assert "API_Test_Write" not in printed.stdout  # not a documented read API: never granted


def test_the_database_refuses_the_login_a_write_and_a_table_read(bank: tuple[str, Path]) -> None:
    uri, _ = bank
    with psycopg.connect(as_login(uri, ROLE), autocommit=True) as conn:
        assert conn.execute("SHOW default_transaction_read_only").fetchone() == ("on",)
        for refused in ("SELECT * FROM bank.person", "CALL api.\"API_Test_Write\"('reader')"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(refused)
        # a read-write transaction (which any login may ask for) widens nothing: privileges decide
        with conn.transaction():
            conn.execute("SET TRANSACTION READ WRITE")
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute("CALL api.\"API_Test_Write\"('reader')")
        with conn.transaction():
            conn.execute("SET TRANSACTION READ WRITE")
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute("INSERT INTO bank.write_probe (note) VALUES ('reader')")
    with psycopg.connect(uri, autocommit=True) as admin:
        assert admin.execute("SELECT count(*) FROM bank.write_probe").fetchone() == (0,)


def test_a_write_api_enabled_in_apiatlas_is_still_refused_by_the_database(bank: tuple[str, Path]) -> None:
    """Writes enabled in apiatlas (read_only=False), the write procedure read from the live catalog: the
    database refuses the login, so nothing is written whatever apiatlas allows."""
    uri, _ = bank
    catalog = load_source(Path(uri + "#include=api"))
    write = catalog.apis["api.API_Test_Write"]
    assert write.side_effect is SideEffect.WRITE

    async def main() -> CallResult:
        async with executor_for_url(as_login(uri, ROLE), ExecutionLimits(read_only=False)) as executor:
            return await executor.call(CallRequest(api=write, args={"p_note": "reader"}))

    result = anyio.run(main)
    assert (result.status, result.reason) == ("error", ReasonCode.NOT_EXECUTABLE), result
    assert "permission denied" in result.message
    with psycopg.connect(uri, autocommit=True) as admin:
        assert admin.execute("SELECT count(*) FROM bank.write_probe").fetchone() == (0,)


def _types(snap: Snapshot) -> dict[str, DomainType]:
    names = {
        name
        for key in snap.all_api_keys()
        if (api := snap.get_api(key)) is not None
        for name in [p.domain_type for p in api.params]
        + [c.domain_type for t in [*api.input_tables, *api.output_tables] for c in t.columns]
        if name
    }
    return {name: found for name in names if (found := snap.get_type(name)) is not None}


def test_session_table_procedures_run_under_the_login(bank: tuple[str, Path]) -> None:
    uri, snap_path = bank

    def mapping(step: int, table: str, columns: dict[str, str]) -> TableMapping:
        return TableMapping(source_step=step, source_table=table, column_mapping=columns)

    steps = [  # output tables filled by the definer bodies, then fed as input tables to the next step
        ChainStep(api="API_Prs_FindListByFIO", args={"SurName": "Михалов"}),
        ChainStep(
            api="API_Acc_FindListByListOwnerID",
            input_table_mapping={
                "pAPI_Account_OwnerID": mapping(0, "pAPI_Person_FindList", {"OwnerID": "PersonID"})
            },
        ),
    ]

    async def main() -> tuple[ChainResult, Any]:
        with Snapshot.open(snap_path) as snap:
            limits, types = ExecutionLimits(), _types(snap)
            async with executor_for_url(as_login(uri, ROLE), limits, types=types) as executor:
                chained = await run_chain(executor, steps, snap.get_api)
                api = snap.get_api("API_Prs_FindListByINN")
                assert api is not None
                refused = await executor.call(CallRequest(api=api, args={"INN": "1234567890"}))
            return chained, refused

    chained, refused = anyio.run(main)
    assert (chained.status, chained.reason) == ("ok", ReasonCode.OK), chained.message
    person, accounts = (s.result.tables[0].rows for s in chained.steps)
    assert len(person) == 1 and len(accounts) == 2
    # the procedure's own documented error still comes back as such (it ran as the owner)
    assert refused.reason is ReasonCode.TOOL_EXECUTION_ERROR and refused.error_code == "50103", refused


def test_the_server_executes_bank_read_apis_under_the_login(bank: tuple[str, Path]) -> None:
    uri, snap_path = bank

    async def main() -> list[dict[str, Any]]:
        with Snapshot.open(snap_path) as snap:
            config = ServerConfig()
            executor = make_executor(as_login(uri, ROLE), snap, config)
            assert executor is not None
            try:
                async with Client(build_server(snap, executor, config)) as client:
                    tools = [t.name for t in (await client.list_tools()).tools]
                    execute = next(name for name in tools if name.endswith("execute_api"))
                    answers = []
                    for _ in range(3):  # pooled connections are reused: every call prepares its tables
                        answers.append(
                            structured(
                                await client.call_tool(
                                    execute, {"api": "API_Prs_FindListByFIO", "args": {"SurName": "Иванов"}}
                                )
                            )
                        )
                    return answers
            finally:
                await executor.close()

    for answer in anyio.run(main):
        assert answer["status"] == "ok", answer
        assert answer["rows_returned"] > 1
