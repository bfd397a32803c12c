"""Chains against a real embedded PostgreSQL: one transaction, mappings between steps, early stops."""

from __future__ import annotations

import asyncio
from typing import Any

import psycopg
import pytest

from apiatlas.errors import ReasonCode
from apiatlas.executors import (
    CallRequest,
    ChainResult,
    ChainStep,
    ChainValidationError,
    ExecutionLimits,
    FieldRef,
    TableMapping,
    executor_for_url,
    run_chain,
    validate_chain,
)
from test_exec_pgdb import APIS, resolve_api, shared_database_uri


@pytest.fixture(scope="module")
def exec_pg_uri() -> str:
    return shared_database_uri()


def chain(uri: str, steps: list[ChainStep], limits: ExecutionLimits | None = None) -> ChainResult:
    async def go() -> ChainResult:
        async with executor_for_url(uri, limits or ExecutionLimits()) as executor:
            return await run_chain(executor, steps, resolve_api)

    return asyncio.run(go())


def deals_of(surname: str, **first_step: Any) -> list[ChainStep]:
    """Persons by surname -> their accounts (OwnerID <- PersonID) -> securities deals of those accounts."""
    return [
        ChainStep(api="API_Prs_FindListByFIO", args={"SurName": surname, **first_step}),
        ChainStep(
            api="API_Acc_FindListByListOwnerID",
            input_table_mapping={
                "pAPI_Account_OwnerID": TableMapping(
                    source_step=0, source_table="pAPI_Person_FindList", column_mapping={"OwnerID": "PersonID"}
                )
            },
        ),
        ChainStep(
            api="API_DSec_FindListByAccID",
            input_table_mapping={
                "pAPI_DSec_AccID": TableMapping(
                    source_step=1, source_table="pAPI_Account_List", column_mapping={"AccountID": "AccountID"}
                )
            },
        ),
    ]


def test_chain_maps_outputs_into_input_tables(exec_pg_uri: str) -> None:
    result = chain(exec_pg_uri, deals_of("Михалов"))
    assert (result.status, result.reason, result.failed_step) == ("ok", ReasonCode.OK, None)
    assert [s.api_key for s in result.steps] == [
        "API_Prs_FindListByFIO",
        "API_Acc_FindListByListOwnerID",
        "API_DSec_FindListByAccID",
    ]
    assert result.steps[1].input_rows == {"pAPI_Account_OwnerID": 1}
    assert result.steps[2].input_rows == {"pAPI_DSec_AccID": 2}
    deals = result.steps[2].result.tables[0].rows
    assert [(d["DealSecurityID"], d["AccountID"], d["Amount"]) for d in deals] == [
        (9001, 501, 1500.25),
        (9002, 501, 30),
        (9003, 502, 7.5),
    ]


def test_chain_runs_in_one_transaction(exec_pg_uri: str) -> None:
    steps = [
        ChainStep(api="API_Test_Txid"),
        ChainStep(
            api="API_Test_Txid",
            param_mapping={"Expected": FieldRef(source_step=0, source_table="pAPI_Test_Txid", column="TxID")},
        ),
    ]
    result = chain(exec_pg_uri, steps)
    assert result.status == "ok"
    first, second = (s.result.tables[0].rows[0] for s in result.steps)
    assert first["TxID"] == second["TxID"]
    assert second["Same"] == 1
    assert result.steps[1].args == {"Expected": first["TxID"]}

    async def two_single_calls() -> list[Any]:
        async with executor_for_url(exec_pg_uri, ExecutionLimits()) as executor:
            results = [await executor.call(CallRequest(api=APIS["API_Test_Txid"])) for _ in range(2)]
        return [r.tables[0].rows[0]["TxID"] for r in results]

    separate = asyncio.run(two_single_calls())
    assert separate[0] != separate[1]


def test_step_without_rows_stops_with_no_match_and_keeps_results(exec_pg_uri: str) -> None:
    # Иванов 1003 has no account; filter the first step down to him.
    result = chain(exec_pg_uri, deals_of("Иванов", BirthDate="1990-09-10"))
    assert (result.status, result.reason, result.failed_step) == ("partial", ReasonCode.NO_MATCH, 1)
    assert [s.result.rows_returned for s in result.steps] == [1, 0]
    nobody = chain(exec_pg_uri, deals_of("Никтоев"))
    assert (nobody.status, nobody.reason, nobody.failed_step, len(nobody.steps)) == (
        "partial",
        ReasonCode.NO_MATCH,
        0,
        1,
    )


def test_failing_step_returns_partial_results(exec_pg_uri: str) -> None:
    steps = [
        ChainStep(api="API_Prs_FindListByFIO", args={"SurName": "Михалов"}),
        ChainStep(api="API_Test_Fail"),
    ]
    result = chain(exec_pg_uri, steps)
    assert (result.status, result.reason, result.failed_step) == ("error", ReasonCode.TOOL_EXECUTION_ERROR, 1)
    assert result.steps[0].result.rows_returned == 1
    assert result.steps[1].result.error_code == "59999"
    assert "step 1" in (result.message or "")


def test_several_values_for_a_parameter_follow_on_many(exec_pg_uri: str) -> None:
    def steps(on_many: Any) -> list[ChainStep]:
        return [
            ChainStep(api="API_Prs_FindListByFIO", args={"SurName": "Иванов"}),
            ChainStep(
                api="API_Acc_ListByOwner",
                param_mapping={
                    "OwnerID": FieldRef(source_step=0, source_table="pAPI_Person_FindList", column="PersonID")
                },
                on_many=on_many,
            ),
        ]

    refused = chain(exec_pg_uri, steps("all"))
    assert (refused.status, refused.reason, refused.failed_step) == ("error", ReasonCode.AMBIGUOUS_ENTITY, 1)
    assert "3 candidate values" in (refused.message or "")
    stopped = chain(exec_pg_uri, steps("stop"))
    assert (stopped.status, stopped.reason, len(stopped.steps)) == ("partial", ReasonCode.AMBIGUOUS_ENTITY, 1)
    first = chain(exec_pg_uri, steps("first"))
    assert first.status == "ok" and first.steps[1].args == {"OwnerID": 1001}
    assert [r["accountid"] for r in first.steps[1].result.tables[0].rows] == [503]


def test_validation_checks_every_step_before_running() -> None:
    steps = [
        ChainStep(api="API_Prs_FindListByFIO", args={"SurName": "Иванов", "Town": "Москва"}),
        ChainStep(api="API_Nowhere"),
        ChainStep(
            api="API_Acc_FindListByListOwnerID",
            input_table_mapping={
                "pAPI_Account_Owner": TableMapping(
                    source_step=0, source_table="pAPI_Person_FindList", column_mapping={"OwnerID": "PersonId"}
                )
            },
        ),
        ChainStep(
            api="API_Acc_FindListByListOwnerID",
            args={"OnlyOpenFlag": "abc"},
            input_table_mapping={
                "pAPI_Account_OwnerID": TableMapping(
                    source_step=3, source_table="pAPI_Account_List", column_mapping={"Owner": "OwnerID"}
                )
            },
        ),
        ChainStep(
            api="API_Acc_ListByOwner",
            param_mapping={
                "OwnerID": FieldRef(source_step=0, source_table="pAPI_Person_FindList", column="INN")
            },
        ),
        ChainStep(api="API_Prs_FindListByFIO"),
    ]
    with pytest.raises(ChainValidationError) as caught:
        validate_chain(steps, resolve_api)
    found = [(p.step, p.code) for p in caught.value.problems]
    assert found == [
        (0, ReasonCode.INVALID_ARGUMENT),  # unknown argument Town
        (1, ReasonCode.UNKNOWN_API),
        (2, ReasonCode.INVALID_ARGUMENT),  # no input table pAPI_Account_Owner
        (2, ReasonCode.MISSING_REQUIRED_INPUT),  # so pAPI_Account_OwnerID is not covered
        (3, ReasonCode.INVALID_ARGUMENT),  # OnlyOpenFlag "abc"
        (3, ReasonCode.INVALID_ARGUMENT),  # source_step 3 is not earlier
        (3, ReasonCode.INVALID_ARGUMENT),  # target column Owner
        (4, ReasonCode.INVALID_ARGUMENT),  # source column INN not in the output table
        (5, ReasonCode.MISSING_REQUIRED_INPUT),  # SurName
    ]
    text = str(caught.value)
    assert "'Town'" in text and "'API_Nowhere'" in text and "source_step 3" in text and "'INN'" in text


def test_invalid_chain_runs_nothing(exec_pg_uri: str) -> None:
    steps = [ChainStep(api="API_Test_Write", args={"Note": "never"}), ChainStep(api="API_Nowhere")]
    result = chain(exec_pg_uri, steps, ExecutionLimits(read_only=False))
    assert (result.status, result.reason, result.failed_step, result.steps) == (
        "error",
        ReasonCode.UNKNOWN_API,
        1,
        [],
    )
    with psycopg.connect(exec_pg_uri) as conn:
        assert conn.execute("SELECT count(*) FROM xb.write_probe WHERE note = 'never'").fetchone() == (0,)
    assert chain(exec_pg_uri, []).reason is ReasonCode.INVALID_ARGUMENT


def test_chain_with_writes_enabled_commits_only_when_every_step_succeeds(exec_pg_uri: str) -> None:
    writes = ExecutionLimits(read_only=False)
    failed = chain(
        exec_pg_uri,
        [ChainStep(api="API_Test_Write", args={"Note": "chain-a"}), ChainStep(api="API_Test_Fail")],
        writes,
    )
    assert (failed.status, failed.failed_step) == ("error", 1)
    assert failed.steps[0].result.reason is ReasonCode.OK  # no output table: nothing to match
    done = chain(exec_pg_uri, [ChainStep(api="API_Test_Write", args={"Note": "chain-b"})], writes)
    assert (done.status, done.reason) == ("ok", ReasonCode.OK)
    with psycopg.connect(exec_pg_uri, autocommit=True) as conn:
        notes = [r[0] for r in conn.execute("SELECT note FROM xb.write_probe WHERE note LIKE 'chain-%'")]
        conn.execute("DELETE FROM xb.write_probe")
    assert notes == ["chain-b"]
