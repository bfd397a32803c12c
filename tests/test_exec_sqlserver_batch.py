"""T-SQL batch generation for the SQL Server executor: exact text, every value bound, identifiers checked."""

from __future__ import annotations

from datetime import date

import pytest

from apiatlas.catalog.model import (
    Api,
    Column,
    Direction,
    DomainType,
    ErrorCode,
    ExecutorBinding,
    Param,
    SessionTable,
)
from apiatlas.errors import ConfigError, ReasonCode
from apiatlas.executors import ExecutionLimits, ValidationError, executor_for_url, validate_call
from apiatlas.executors.sqlserver import SqlServerExecutor, classify_error, connect_arguments
from apiatlas.executors.sqlserver_batch import build_batch

TYPES = {"DSIDENTIFIER": DomainType(name="DSIDENTIFIER", base_type="numeric(15, 0)")}


def accounts_api(target: str = "[dbo].[API_Acc_FindListByListOwnerID]") -> Api:
    return Api(
        key="API_Acc_FindListByListOwnerID",
        object_key="Acc",
        executor=ExecutorBinding(target=target),
        params=[
            Param(name="OnlyOpenFlag", domain_type="DSTINYINT"),
            Param(name="SurName", domain_type="DSVARFULLNAME"),
            Param(name="RestDate", domain_type="DSDATE"),
        ],
        input_tables=[
            SessionTable(
                name="pAPI_Account_OwnerID",
                direction=Direction.IN,
                columns=[Column(name="OwnerID", domain_type="DSIDENTIFIER")],
            )
        ],
        output_tables=[
            SessionTable(
                name="pAPI_Account_List",
                direction=Direction.OUT,
                columns=[
                    Column(name="AccountID", domain_type="DSIDENTIFIER"),
                    Column(name="AccNumber", domain_type="DSACCNUMBER"),
                    Column(name="OpenDate", domain_type="DSDATE"),
                ],
            )
        ],
    )


INJECTION = "Иванов'; DROP TABLE bank.person; --"


def test_exact_batch_and_bound_parameters() -> None:
    api = accounts_api()
    call = validate_call(
        api,
        {"OnlyOpenFlag": 1, "SurName": INJECTION, "RestDate": "2024-03-01"},
        {"pAPI_Account_OwnerID": [{"OwnerID": 5}, {"OwnerID": "6"}]},
    )
    sql, params = build_batch(api, call, ExecutionLimits(max_rows=10, statement_timeout_ms=3000), types=TYPES)
    assert sql == "\n".join(
        [
            "SET NOCOUNT ON;",
            "SET XACT_ABORT ON;",
            "SET LOCK_TIMEOUT 3000;",
            "SET TRANSACTION ISOLATION LEVEL READ COMMITTED;",
            "DROP TABLE IF EXISTS [#pAPI_Account_OwnerID];",
            "CREATE TABLE [#pAPI_Account_OwnerID] ([OwnerID] NUMERIC(15,0) NULL);",
            "DROP TABLE IF EXISTS [#pAPI_Account_List];",
            "CREATE TABLE [#pAPI_Account_List] ([AccountID] NUMERIC(15,0) NULL, "
            "[AccNumber] NVARCHAR(4000) NULL, [OpenDate] DATE NULL);",
            "INSERT INTO [#pAPI_Account_OwnerID] ([OwnerID]) VALUES (%s), (%s);",
            "EXEC [dbo].[API_Acc_FindListByListOwnerID] @OnlyOpenFlag = %s, @SurName = %s, @RestDate = %s;",
            "SELECT TOP (11) [AccountID], [AccNumber], [OpenDate] FROM [#pAPI_Account_List];",
            "DROP TABLE IF EXISTS [#pAPI_Account_OwnerID], [#pAPI_Account_List];",
        ]
    )
    assert params == (5, 6, 1, INJECTION, date(2024, 3, 1))
    assert sql.count("%s") == len(params)
    assert "Иванов" not in sql and "DROP TABLE bank" not in sql


def test_unset_parameters_are_bound_as_null_and_kinds_pick_types_without_a_type_map() -> None:
    api = accounts_api("API_Acc_FindListByListOwnerID")
    call = validate_call(api, {}, {"pAPI_Account_OwnerID": [{"OwnerID": 7}]})
    sql, params = build_batch(api, call, default_schema="core", isolation="SNAPSHOT")
    assert (
        "EXEC [core].[API_Acc_FindListByListOwnerID] @OnlyOpenFlag = %s, @SurName = %s, @RestDate = %s;"
        in sql
    )
    assert "CREATE TABLE [#pAPI_Account_OwnerID] ([OwnerID] BIGINT NULL);" in sql
    assert "SET TRANSACTION ISOLATION LEVEL SNAPSHOT;" in sql
    assert params == (7, None, None, None)


def test_more_than_a_thousand_input_rows_are_split_into_inserts() -> None:
    api = accounts_api()
    rows = [{"OwnerID": i} for i in range(1500)]
    call = validate_call(api, {}, {"pAPI_Account_OwnerID": rows}, limits=ExecutionLimits(max_input_rows=2000))
    sql, params = build_batch(api, call)
    inserts = [line for line in sql.splitlines() if line.startswith("INSERT")]
    assert [line.count("(%s)") for line in inserts] == [1000, 500]
    assert params[:1500] == tuple(range(1500))


def test_table_valued_function_binding() -> None:
    api = Api(
        key="API_Crncy_GetRateList",
        object_key="Crncy",
        executor=ExecutorBinding(kind="sql_function", target="dbo.API_Crncy_GetRateList"),
        params=[Param(name="RateDate", domain_type="DSDATE")],
    )
    sql, params = build_batch(
        api, validate_call(api, {"RateDate": "2024-03-01"}, {}), ExecutionLimits(max_rows=3)
    )
    assert sql.splitlines()[-1] == "SELECT TOP (4) * FROM [dbo].[API_Crncy_GetRateList](%s);"
    assert params == (date(2024, 3, 1),)


@pytest.mark.parametrize(
    "target", ["dbo.API_X; DROP TABLE t", "[dbo].[API]]X]", "a.b.c", "dbo.[API X]", "dbo.'API_X'"]
)
def test_unsafe_targets_are_refused(target: str) -> None:
    api = accounts_api(target)
    call = validate_call(api, {}, {"pAPI_Account_OwnerID": [{"OwnerID": 1}]})
    with pytest.raises(ValidationError) as caught:
        build_batch(api, call)
    assert caught.value.code is ReasonCode.NOT_EXECUTABLE


def test_unsafe_column_name_is_refused() -> None:
    api = accounts_api()
    api.output_tables[0].columns.append(Column(name="x]; DROP TABLE t; --", domain_type="DSCODE"))
    call = validate_call(api, {}, {"pAPI_Account_OwnerID": [{"OwnerID": 1}]})
    with pytest.raises(ValidationError) as caught:
        build_batch(api, call)
    assert caught.value.code is ReasonCode.NOT_EXECUTABLE and "column" in caught.value.message


def test_isolation_level_is_checked() -> None:
    api = accounts_api()
    call = validate_call(api, {}, {"pAPI_Account_OwnerID": [{"OwnerID": 1}]})
    with pytest.raises(ConfigError):
        build_batch(api, call, isolation="READ COMMITTED; DROP TABLE t")


def test_connection_url_is_parsed_without_connecting() -> None:
    args = connect_arguments(
        "mssql://reader:p%40ss@db.bank.local:1444/Core", ExecutionLimits(statement_timeout_ms=7000)
    )
    assert (args["server"], args["port"], args["user"], args["password"], args["database"]) == (
        "db.bank.local",
        "1444",
        "reader",
        "p@ss",
        "Core",
    )
    assert (args["timeout"], args["autocommit"]) == (7, False)
    assert isinstance(executor_for_url("mssql://reader@db/Core", ExecutionLimits()), SqlServerExecutor)
    with pytest.raises(ConfigError):
        connect_arguments("mssql:///Core", ExecutionLimits())


@pytest.mark.parametrize(
    ("args", "reason", "code", "text"),
    [
        (
            (
                50001,
                b"Owner list is empty DB-Lib error message 20018, severity 16:\nGeneral SQL Server error\n",
            ),
            ReasonCode.TOOL_EXECUTION_ERROR,
            "50001",
            "Owner list is empty (error 50001: Не задан ни один владелец)",
        ),
        (
            ((50777, b"Something else went wrong"),),
            ReasonCode.TOOL_EXECUTION_ERROR,
            None,
            "failed: Something else went wrong",
        ),
        (
            (
                20009,
                b"DB-Lib error message 20009, severity 9:\nUnable to connect: Adaptive Server is unavailable",
            ),
            ReasonCode.UPSTREAM_UNAVAILABLE,
            None,
            "database unavailable",
        ),
        (
            (20003, b"DB-Lib error message 20003, severity 6:\nAdaptive Server connection timed out (db)\n"),
            ReasonCode.TIMEOUT,
            None,
            "time limit",
        ),
        (
            (2812, b"Could not find stored procedure 'dbo.API_X'.DB-Lib error message 20018, severity 16"),
            ReasonCode.NOT_EXECUTABLE,
            None,
            "Could not find stored procedure 'dbo.API_X'.",
        ),
        (("Statement not executed",), ReasonCode.TOOL_EXECUTION_ERROR, None, "Statement not executed"),
    ],
)
def test_server_errors_are_classified(
    args: tuple[object, ...], reason: ReasonCode, code: str | None, text: str
) -> None:
    api = accounts_api().model_copy(
        update={"errors": [ErrorCode(code="50001", description="Не задан ни один владелец")]}
    )
    got_reason, message, got_code = classify_error(args, api)
    assert (got_reason, got_code) == (reason, code)
    assert text in message and "DB-Lib" not in message
