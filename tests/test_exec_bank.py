"""The executors against the sample bank: APIs compiled from its documentation, run on its real database."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from apiatlas.build import compile_docs
from apiatlas.catalog.model import Api, DomainType
from apiatlas.embedded_pg import EmbeddedPostgres
from apiatlas.errors import ReasonCode
from apiatlas.executors import (
    CallRequest,
    CallResult,
    ChainResult,
    ChainStep,
    ExecutionLimits,
    FieldRef,
    TableMapping,
    executor_for_url,
    run_chain,
)
from apiatlas.samples.bank_catalog import sample_bank
from apiatlas.samples.bankdb import load_bank_database
from apiatlas.samples.docs_writer import write_docs
from apiatlas.snapshot import Snapshot


class Bank:
    """The compiled core APIs of the sample bank and a database implementing them."""

    def __init__(self, snapshot: Snapshot, uri: str) -> None:
        self.snapshot = snapshot
        self.uri = uri
        self.types: dict[str, DomainType] = {}
        for key in snapshot.all_api_keys():
            api = self.api(key)
            for table in [*api.input_tables, *api.output_tables]:
                for name in [p.domain_type for p in api.params] + [c.domain_type for c in table.columns]:
                    if name and (found := snapshot.get_type(name)) is not None:
                        self.types[name] = found

    def api(self, key: str) -> Api:
        found = self.snapshot.get_api(key)
        assert found is not None, key
        return found

    def call(self, key: str, args: dict[str, Any], tables: dict[str, Any] | None = None) -> CallResult:
        async def go() -> CallResult:
            async with executor_for_url(self.uri, ExecutionLimits(), types=self.types) as executor:
                return await executor.call(
                    CallRequest(api=self.api(key), args=args, input_tables=tables or {})
                )

        return asyncio.run(go())

    def chain(self, steps: list[ChainStep]) -> ChainResult:
        async def go() -> ChainResult:
            async with executor_for_url(self.uri, ExecutionLimits(), types=self.types) as executor:
                return await run_chain(executor, steps, self.snapshot.get_api)

        return asyncio.run(go())


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Bank]:
    folder: Path = tmp_path_factory.mktemp("exec_bank")
    write_docs(sample_bank(core_only=True), folder / "docs")
    compiled = compile_docs(
        folder / "docs", overlays_dir=None, config_path=None, out=folder / "bank.atlas", write_report=False
    )
    server = EmbeddedPostgres.temporary()
    uri = server.start()
    try:
        load_bank_database(uri)
        with Snapshot.open(compiled.snapshot) as snapshot:
            yield Bank(snapshot, uri)
    finally:
        server.stop()


def test_every_documented_api_runs_with_its_example_values(bank: Bank) -> None:
    """Contract check docs <-> database: each call either answers or raises one of its documented codes."""
    keys = bank.snapshot.all_api_keys()
    assert len(keys) >= 16
    for key in keys:
        api = bank.api(key)
        args = {p.name: p.json_schema.get("example") for p in api.params if p.required}
        tables = {
            t.name: [{c.name: c.json_schema.get("example") for c in t.columns}] for t in api.input_tables
        }
        result = bank.call(key, args, tables)
        if result.status == "error":
            assert result.reason is ReasonCode.TOOL_EXECUTION_ERROR, (key, result.message)
            assert result.error_code in {e.code for e in api.errors}, (key, result.message)
        else:
            assert result.reason in (ReasonCode.OK, ReasonCode.NO_MATCH), (key, result.reason)


def test_securities_deals_of_a_client_in_one_chain(bank: Bank) -> None:
    def mapping(step: int, table: str, columns: dict[str, str]) -> TableMapping:
        return TableMapping(source_step=step, source_table=table, column_mapping=columns)

    steps = [
        ChainStep(api="API_Prs_FindListByFIO", args={"SurName": "Михалов"}),
        ChainStep(
            api="API_Acc_FindListByListOwnerID",
            input_table_mapping={
                "pAPI_Account_OwnerID": mapping(0, "pAPI_Person_FindList", {"OwnerID": "PersonID"})
            },
        ),
        ChainStep(
            api="API_DSec_FindListIDByAccID",
            input_table_mapping={
                "pAPI_DSec_AccID": mapping(1, "pAPI_Account_List", {"AccountID": "AccountID"})
            },
        ),
        ChainStep(
            api="API_DealSecurity_FindListByID",
            input_table_mapping={
                "pAPI_DealSecurity_ID": mapping(2, "pAPI_DSec_IDList", {"DealSecurityID": "DealSecurityID"})
            },
        ),
    ]
    result = bank.chain(steps)
    assert (result.status, result.reason) == ("ok", ReasonCode.OK), result.message
    person, accounts, ids, deals = (s.result.tables[0].rows for s in result.steps)
    assert len(person) == 1 and len(accounts) == 2
    assert {a["OwnerID"] for a in accounts} == {person[0]["PersonID"]}
    assert deals and {d["DealSecurityID"] for d in deals} == {i["DealSecurityID"] for i in ids}
    assert {d["AccountID"] for d in deals} <= {a["AccountID"] for a in accounts}


def test_ambiguous_client_stops_the_chain(bank: Bank) -> None:
    steps = [
        ChainStep(api="API_Prs_FindListByFIO", args={"SurName": "Иванов"}),
        ChainStep(
            api="API_Prs_FindByID",
            param_mapping={
                "PersonID": FieldRef(source_step=0, source_table="pAPI_Person_FindList", column="PersonID")
            },
            on_many="stop",
        ),
    ]
    result = bank.chain(steps)
    assert (result.status, result.reason, result.failed_step) == ("partial", ReasonCode.AMBIGUOUS_ENTITY, 1)
    assert result.steps[0].result.rows_returned == 15


def test_injection_attempt_finds_nothing_and_the_data_survives(bank: Bank) -> None:
    result = bank.call("API_Prs_FindListByFIO", {"SurName": "Иванов'; DROP TABLE bank.person; --"})
    assert (result.status, result.reason) == ("ok", ReasonCode.NO_MATCH)
    with psycopg.connect(bank.uri) as conn:
        row = conn.execute("SELECT count(*) FROM bank.person WHERE sur_name = 'Иванов'").fetchone()
    assert row == (15,)


def test_procedure_error_names_its_code_description_and_field(bank: Bank) -> None:
    result = bank.call("API_Prs_FindListByINN", {"INN": "7707083893"})  # 10 digits: a company's INN
    assert (result.status, result.reason, result.error_code) == (
        "error",
        ReasonCode.TOOL_EXECUTION_ERROR,
        "50103",
    )
    documented = {e.code: e.description for e in bank.api("API_Prs_FindListByINN").errors}["50103"]
    assert documented in (result.message or "") and "concerns INN" in (result.message or "")
