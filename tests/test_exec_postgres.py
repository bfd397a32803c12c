"""The PostgreSQL executor against a real embedded PostgreSQL: session tables, limits, errors, recovery."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

import psycopg
import pytest

from apiatlas.catalog.model import Api, Column, Direction, ExecutorBinding, SessionTable
from apiatlas.errors import ConfigError, ReasonCode
from apiatlas.executors import CallRequest, CallResult, ExecutionLimits, executor_for_url
from apiatlas.executors.postgres import PostgresExecutor
from test_exec_pgdb import APIS, shared_database_uri, start_server

T = TypeVar("T")


@pytest.fixture(scope="module")
def exec_pg_uri() -> str:
    return shared_database_uri()


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def call(uri: str, api: str | Api, limits: ExecutionLimits | None = None, **request: Any) -> CallResult:
    async def go() -> CallResult:
        async with executor_for_url(uri, limits or ExecutionLimits()) as executor:
            chosen = APIS[api] if isinstance(api, str) else api
            return await executor.call(CallRequest(api=chosen, **request))

    return run(go())


def test_procedure_fills_output_session_table(exec_pg_uri: str) -> None:
    result = call(exec_pg_uri, "API_Prs_FindListByFIO", args={"SurName": "Иванов"})
    assert (result.status, result.reason) == ("ok", ReasonCode.OK)
    [table] = result.tables
    assert table.name == "pAPI_Person_FindList"
    assert table.columns == ["PersonID", "SurName", "FirstName", "BirthDate"]
    assert [r["PersonID"] for r in table.rows] == [1001, 1002, 1003]
    first = {"PersonID": 1001, "SurName": "Иванов", "FirstName": "Иван", "BirthDate": "1980-01-02"}
    assert table.rows[0] == first
    assert result.rows_returned == 3 and not result.truncated


def test_date_argument_is_coerced_and_bound(exec_pg_uri: str) -> None:
    args = {"surname": "Иванов", "@BirthDate": "06.05.1975"}
    result = call(exec_pg_uri, "API_Prs_FindListByFIO", args=args)
    assert [r["FirstName"] for r in result.tables[0].rows] == ["Пётр"]


def test_input_session_table_rows_reach_the_procedure(exec_pg_uri: str) -> None:
    result = call(
        exec_pg_uri,
        "API_Acc_FindListByListOwnerID",
        args={"OnlyOpenFlag": 1},
        input_tables={"pAPI_Account_OwnerID": [{"OwnerID": 2001}, {"OwnerID": "1001"}]},
    )
    assert result.status == "ok"
    assert [(r["AccountID"], r["OwnerID"]) for r in result.tables[0].rows] == [(501, 2001), (502, 2001)]
    everything = call(
        exec_pg_uri,
        "API_Acc_FindListByListOwnerID",
        input_tables={"pAPI_Account_OwnerID": [{"OwnerID": 2001}, {"OwnerID": 1001}]},
    )
    assert [r["AccountID"] for r in everything.tables[0].rows] == [501, 502, 503]


def test_function_binding_returns_rows(exec_pg_uri: str) -> None:
    result = call(exec_pg_uri, "API_Acc_ListByOwner", args={"OwnerID": 2001})
    assert result.status == "ok"
    [table] = result.tables
    assert table.columns == ["accountid", "accnumber", "opendate"]
    assert [r["accnumber"] for r in table.rows] == ["40817810000000000501", "40817810000000000502"]
    documented = SessionTable(
        name="pAPI_Account_Short",
        direction=Direction.OUT,
        columns=[Column(name="AccountID", domain_type="DSIDENTIFIER"), Column(name="AccNumber")],
    )
    api = APIS["API_Acc_ListByOwner"].model_copy(update={"output_tables": [documented]})
    spelled = call(exec_pg_uri, api, args={"OwnerID": 2001}).tables[0]
    assert (spelled.name, spelled.columns) == ("pAPI_Account_Short", ["AccountID", "AccNumber", "opendate"])
    assert spelled.rows[0]["AccountID"] == 501


def test_empty_result_is_no_match(exec_pg_uri: str) -> None:
    result = call(exec_pg_uri, "API_Prs_FindListByFIO", args={"SurName": "Нетакихнет"})
    assert (result.status, result.reason, result.rows_returned) == ("ok", ReasonCode.NO_MATCH, 0)


def test_sql_injection_text_is_bound_as_a_value(exec_pg_uri: str) -> None:
    result = call(exec_pg_uri, "API_Prs_FindListByFIO", args={"SurName": "Иванов'; DROP TABLE xb.person; --"})
    assert (result.status, result.reason) == ("ok", ReasonCode.NO_MATCH)
    with psycopg.connect(exec_pg_uri) as conn:
        assert conn.execute("SELECT count(*) FROM xb.person").fetchone() == (4,)


def test_read_only_call_cannot_write_a_real_table(exec_pg_uri: str) -> None:
    result = call(exec_pg_uri, "API_Test_Write", args={"Note": "read-only"})
    assert (result.status, result.reason) == ("error", ReasonCode.TOOL_EXECUTION_ERROR)
    assert "read-only" in (result.message or "")
    writable = call(exec_pg_uri, "API_Test_Write", ExecutionLimits(read_only=False), args={"Note": "kept"})
    assert writable.status == "ok"
    with psycopg.connect(exec_pg_uri, autocommit=True) as conn:
        notes = [r[0] for r in conn.execute("SELECT note FROM xb.write_probe")]
        conn.execute("DELETE FROM xb.write_probe")
    assert notes == ["kept"]


def test_statement_timeout_then_the_executor_still_works(exec_pg_uri: str) -> None:
    async def go() -> tuple[CallResult, CallResult]:
        async with executor_for_url(exec_pg_uri, ExecutionLimits(statement_timeout_ms=200)) as executor:
            slow = await executor.call(CallRequest(api=APIS["API_Test_Sleep"], args={"Seconds": 3}))
            fio = APIS["API_Prs_FindListByFIO"]
            after = await executor.call(CallRequest(api=fio, args={"SurName": "Михалов"}))
            return slow, after

    slow, after = run(go())
    assert (slow.status, slow.reason) == ("error", ReasonCode.TIMEOUT)
    assert "200 ms" in (slow.message or "")
    assert (after.status, after.rows_returned) == ("ok", 1)


def test_raised_error_carries_the_documented_code(exec_pg_uri: str) -> None:
    result = call(exec_pg_uri, "API_Test_Fail")
    assert (result.status, result.reason) == ("error", ReasonCode.TOOL_EXECUTION_ERROR)
    assert result.error_code == "59999"
    assert "Тестовая ошибка для проверок" in (result.message or "")
    blank = call(exec_pg_uri, "API_Prs_FindListByFIO", args={"SurName": "   "})
    assert (blank.reason, blank.error_code) == (ReasonCode.TOOL_EXECUTION_ERROR, "50002")
    no_owner = call(exec_pg_uri, "API_Acc_FindListByListOwnerID", input_tables={"pAPI_Account_OwnerID": [{}]})
    assert no_owner.reason is ReasonCode.MISSING_REQUIRED_INPUT


def test_row_cap_marks_the_result_truncated(exec_pg_uri: str) -> None:
    capped = call(exec_pg_uri, "API_Test_Rows", ExecutionLimits(max_rows=5), args={"Count": 7})
    assert (capped.status, capped.reason, capped.rows_returned, capped.truncated) == (
        "ok",
        ReasonCode.TRUNCATED,
        5,
        True,
    )
    assert [r["N"] for r in capped.tables[0].rows] == [1, 2, 3, 4, 5]
    exact = call(exec_pg_uri, "API_Test_Rows", ExecutionLimits(max_rows=5), args={"Count": 5})
    assert (exact.reason, exact.truncated) == (ReasonCode.OK, False)
    cut = call(exec_pg_uri, "API_Test_Rows", ExecutionLimits(max_value_bytes=3), args={"Count": 4})
    assert cut.truncated and cut.tables[0].rows[3]["Label"] == "xxx…"


def test_validation_errors_come_back_as_results(exec_pg_uri: str) -> None:
    unknown = call(exec_pg_uri, "API_Prs_FindListByFIO", args={"SurName": "Иванов", "Town": "Москва"})
    assert unknown.reason is ReasonCode.INVALID_ARGUMENT and "'Town'" in (unknown.message or "")
    missing = call(exec_pg_uri, "API_Prs_FindListByFIO", args={})
    assert missing.reason is ReasonCode.MISSING_REQUIRED_INPUT


def test_missing_routine_and_unsupported_binding_are_not_executable(exec_pg_uri: str) -> None:
    fail = APIS["API_Test_Fail"]
    ghost = fail.model_copy(update={"executor": ExecutorBinding(target='api."API_Nowhere"')})
    assert call(exec_pg_uri, ghost).reason is ReasonCode.NOT_EXECUTABLE
    http = fail.model_copy(update={"executor": ExecutorBinding(kind="http", target="GET /x")})
    assert call(exec_pg_uri, http).reason is ReasonCode.NOT_EXECUTABLE
    spliced = fail.model_copy(
        update={"executor": ExecutorBinding(target='api."API_Test_Fail"(); DROP TABLE xb.person; --')}
    )
    assert call(exec_pg_uri, spliced).reason is ReasonCode.NOT_EXECUTABLE
    with psycopg.connect(exec_pg_uri) as conn:
        assert conn.execute("SELECT count(*) FROM xb.person").fetchone() == (4,)


def test_unknown_url_scheme_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        executor_for_url("oracle://db/x", ExecutionLimits())


def test_database_down_then_back() -> None:
    from pgserver._commands import pg_ctl

    server = start_server()
    uri = server.get_uri()
    fio = APIS["API_Prs_FindListByFIO"]

    async def go() -> list[CallResult]:
        results = []
        executor = PostgresExecutor(uri, ExecutionLimits(connect_timeout_s=2))
        try:
            results.append(await executor.call(CallRequest(api=fio, args={"SurName": "Михалов"})))
            pg_ctl(["-w", "stop", "-m", "fast"], pgdata=server.pgdata, user=server.system_user)
            results.append(await executor.call(CallRequest(api=fio, args={"SurName": "Михалов"})))
            results.append(await executor.call(CallRequest(api=fio, args={"Unknown": 1})))
            server.ensure_postgres_running()
            results.append(await executor.call(CallRequest(api=fio, args={"SurName": "Михалов"})))
        finally:
            await executor.close()
        return results

    try:
        before, down, bad_input, back = run(go())
    finally:
        server.cleanup()
    assert before.reason is ReasonCode.OK
    assert (down.status, down.reason) == ("error", ReasonCode.UPSTREAM_UNAVAILABLE)
    assert bad_input.reason is ReasonCode.INVALID_ARGUMENT
    assert (back.status, back.rows_returned) == ("ok", 1)


def test_concurrent_calls_share_a_bounded_pool(exec_pg_uri: str) -> None:
    async def go() -> tuple[list[CallResult], int]:
        executor = PostgresExecutor(exec_pg_uri, ExecutionLimits(), max_connections=2, max_idle=1)
        try:
            requests = [CallRequest(api=APIS["API_Test_Txid"]) for _ in range(5)]
            results = await asyncio.gather(*(executor.call(r) for r in requests))
            return list(results), executor.idle_connections
        finally:
            await executor.close()

    results, idle = run(go())
    assert [r.status for r in results] == ["ok"] * 5
    assert len({r.tables[0].rows[0]["TxID"] for r in results}) == 5  # one transaction each
    assert idle == 1


def test_idle_connections_default_to_the_pool_size(exec_pg_uri: str) -> None:
    async def go() -> tuple[list[CallResult], int]:
        executor = PostgresExecutor(exec_pg_uri, ExecutionLimits(), max_connections=3)
        try:
            requests = [CallRequest(api=APIS["API_Test_Txid"]) for _ in range(6)]
            results = await asyncio.gather(*(executor.call(r) for r in requests))
            return list(results), executor.idle_connections
        finally:
            await executor.close()

    results, idle = run(go())
    assert [r.status for r in results] == ["ok"] * 6
    assert idle == 3  # every connection of the pool stays open for the next calls


def test_a_pool_needs_a_connection(exec_pg_uri: str) -> None:
    with pytest.raises(ValueError, match="pool of 0 connections"):
        PostgresExecutor(exec_pg_uri, ExecutionLimits(), max_connections=0)


def test_warming_fills_the_idle_pool_before_the_first_call(exec_pg_uri: str) -> None:
    async def go() -> tuple[int, int, int, CallResult]:
        executor = PostgresExecutor(exec_pg_uri, ExecutionLimits(), max_connections=4, max_idle=3)
        try:
            opened = await executor.warm()
            again = await executor.warm()  # already full
            result = await executor.call(CallRequest(api=APIS["API_Test_Txid"]))
            return opened, again, executor.idle_connections, result
        finally:
            await executor.close()

    opened, again, idle, result = run(go())
    assert (opened, again, idle) == (3, 0, 3)
    assert result.status == "ok"


def test_warming_an_unreachable_database_is_left_to_the_first_call() -> None:
    async def go() -> tuple[int, CallResult]:
        executor = PostgresExecutor("postgresql://apiatlas@127.0.0.1:1/bank", ExecutionLimits())
        try:
            return await executor.warm(), await executor.call(CallRequest(api=APIS["API_Test_Txid"]))
        finally:
            await executor.close()

    opened, result = run(go())
    assert opened == 0
    assert (result.status, result.reason) == ("error", ReasonCode.UPSTREAM_UNAVAILABLE)
