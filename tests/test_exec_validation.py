"""Argument validation against the API contract: every kind of bad input gets its own clear error."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any

import pytest

from apiatlas.catalog.model import Api, Column, Direction, DomainType, Param, SessionTable
from apiatlas.errors import ReasonCode
from apiatlas.executors import ExecutionLimits, ValidationError, validate_call
from apiatlas.executors.value_types import ValueKind, kind_of_domain_type

API = Api(
    key="API_Acc_FindListByListOwnerID",
    object_key="Acc",
    params=[
        Param(name="OnlyOpenFlag", domain_type="DSTINYINT"),
        Param(name="RestDate", domain_type="DSDATE", required=True),
        Param(name="MinRest", domain_type="DSMONEY"),
        Param(name="Comment", domain_type="DSCOMMENT", json_schema={"type": "string", "maxLength": 10}),
        Param(
            name="Currency", domain_type="DSCURRCODE", json_schema={"type": "string", "pattern": "^[0-9]{3}$"}
        ),
    ],
    input_tables=[
        SessionTable(
            name="pAPI_Account_OwnerID",
            direction=Direction.IN,
            columns=[Column(name="OwnerID", domain_type="DSIDENTIFIER")],
        )
    ],
)
OWNERS = {"pAPI_Account_OwnerID": [{"OwnerID": 1}]}


def check(args: dict[str, Any], tables: dict[str, Any] | None = None, **limits: Any) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        validate_call(API, args, OWNERS if tables is None else tables, limits=ExecutionLimits(**limits))
    return caught.value


def test_valid_call_is_coerced_for_binding() -> None:
    call = validate_call(
        API,
        {"restdate": "2024-03-01", "@MinRest": "100.50", "OnlyOpenFlag": 1, "Currency": "810"},
        {"papi_account_ownerid": [{"ownerid": "42"}, {"OwnerID": 43.0}]},
    )
    assert call.args == {
        "OnlyOpenFlag": 1,
        "RestDate": date(2024, 3, 1),
        "MinRest": Decimal("100.50"),
        "Comment": None,
        "Currency": "810",
    }
    assert call.input_tables == {"pAPI_Account_OwnerID": [{"OwnerID": 42}, {"OwnerID": 43}]}
    assert call.table_kinds["pAPI_Account_OwnerID"] == [("OwnerID", ValueKind.INTEGER)]


def test_russian_date_format_is_accepted() -> None:
    call = validate_call(API, {"RestDate": "01.03.2024"}, OWNERS)
    assert call.args["RestDate"] == date(2024, 3, 1)


def test_unknown_argument_names_it_and_lists_accepted_ones() -> None:
    error = check({"RestDate": "2024-03-01", "AccountNo": "1"})
    assert error.code is ReasonCode.INVALID_ARGUMENT
    assert "'AccountNo'" in error.message
    assert "OnlyOpenFlag, RestDate, MinRest, Comment, Currency" in error.message
    assert error.location.anchor == "API_Acc_FindListByListOwnerID.AccountNo"


def test_missing_required_argument() -> None:
    error = check({"OnlyOpenFlag": 1})
    assert error.code is ReasonCode.MISSING_REQUIRED_INPUT and "'RestDate'" in error.message
    assert check({"RestDate": None}).code is ReasonCode.MISSING_REQUIRED_INPUT


@pytest.mark.parametrize(
    ("args", "field", "expected"),
    [
        ({"RestDate": "2024-02-30"}, "RestDate", "date (YYYY-MM-DD)"),
        ({"RestDate": "вчера"}, "RestDate", "date (YYYY-MM-DD)"),
        ({"RestDate": 20240301}, "RestDate", "date"),
        ({"RestDate": "2024-03-01", "OnlyOpenFlag": 1.5}, "OnlyOpenFlag", "integer (DSTINYINT)"),
        ({"RestDate": "2024-03-01", "OnlyOpenFlag": "abc"}, "OnlyOpenFlag", "integer"),
        ({"RestDate": "2024-03-01", "MinRest": "много"}, "MinRest", "number (DSMONEY)"),
        ({"RestDate": "2024-03-01", "MinRest": float("nan")}, "MinRest", "number"),
        ({"RestDate": "2024-03-01", "Comment": ["a"]}, "Comment", "string"),
    ],
)
def test_wrong_type_says_what_was_expected(args: dict[str, Any], field: str, expected: str) -> None:
    error = check(args)
    assert error.code is ReasonCode.INVALID_ARGUMENT
    assert f"'{field}'" in error.message and expected in error.message


def test_schema_limits_and_size_caps() -> None:
    assert "maxLength 10" in check({"RestDate": "2024-03-01", "Comment": "x" * 11}).message
    assert "pattern" in check({"RestDate": "2024-03-01", "Currency": "RUB"}).message
    oversized = check({"RestDate": "2024-03-01", "Comment": "ж" * 5}, max_value_bytes=8)
    assert "10 bytes exceeds the limit of 8" in oversized.message


def test_input_table_errors() -> None:
    assert check({"RestDate": "2024-03-01"}, {}).code is ReasonCode.MISSING_REQUIRED_INPUT
    empty = check({"RestDate": "2024-03-01"}, {"pAPI_Account_OwnerID": []})
    assert empty.code is ReasonCode.MISSING_REQUIRED_INPUT and "OwnerID (DSIDENTIFIER)" in empty.message
    unknown_table = check({"RestDate": "2024-03-01"}, {**OWNERS, "pAPI_Other": [{"X": 1}]})
    assert (
        unknown_table.code is ReasonCode.INVALID_ARGUMENT and "pAPI_Account_OwnerID" in unknown_table.message
    )
    unknown_column = check({"RestDate": "2024-03-01"}, {"pAPI_Account_OwnerID": [{"OwnerID": 1, "Owner": 2}]})
    assert "'Owner'" in unknown_column.message and "accepted columns: OwnerID" in unknown_column.message
    bad_value = check(
        {"RestDate": "2024-03-01"}, {"pAPI_Account_OwnerID": [{"OwnerID": 1}, {"OwnerID": "abc"}]}
    )
    assert "row 1" in bad_value.message and "integer (DSIDENTIFIER)" in bad_value.message
    not_rows = check({"RestDate": "2024-03-01"}, {"pAPI_Account_OwnerID": [5]})
    assert "must be an object" in not_rows.message
    too_many = check(
        {"RestDate": "2024-03-01"},
        {"pAPI_Account_OwnerID": [{"OwnerID": i} for i in range(4)]},
        max_input_rows=3,
    )
    assert too_many.code is ReasonCode.INVALID_ARGUMENT and "4 rows; the limit is 3" in too_many.message


def test_sql_text_in_a_value_is_just_a_string() -> None:
    text = "x'); DROP TABLE bank.person; --"
    call = validate_call(API, {"RestDate": "2024-03-01", "Comment": text[:10]}, OWNERS)
    assert call.args["Comment"] == text[:10]


def test_forbidden_or_unimplemented_api_is_not_executable() -> None:
    forbidden = API.model_copy(update={"forbidden": True})
    with pytest.raises(ValidationError) as caught:
        validate_call(forbidden, {"RestDate": "2024-03-01"}, OWNERS)
    assert caught.value.code is ReasonCode.NOT_EXECUTABLE


def test_domain_type_kinds_from_type_map_and_name_fallbacks() -> None:
    types = {
        "DSCODE": DomainType(name="DSCODE", base_type="varchar(10)"),
        "DSSTAMP": DomainType(name="DSSTAMP", base_type="datetime"),
        "DSCOUNT": DomainType(name="DSCOUNT", json_schema={"type": "integer"}),
    }
    assert kind_of_domain_type("DSCODE", types) is ValueKind.STRING
    assert kind_of_domain_type("DSSTAMP", types) is ValueKind.DATETIME
    assert kind_of_domain_type("DSCOUNT", types) is ValueKind.INTEGER
    assert kind_of_domain_type("DSIDENTIFIER") is ValueKind.INTEGER
    assert kind_of_domain_type("DSOPERDATE") is ValueKind.DATE
    assert kind_of_domain_type("DSSUMMA_MONEY") is ValueKind.NUMBER
    assert kind_of_domain_type("DSVARNAME") is ValueKind.STRING
    assert kind_of_domain_type("DSTINYINT") is ValueKind.INTEGER
    assert kind_of_domain_type("DSPOINT") is ValueKind.STRING


def test_datetime_parameter_from_a_type_map() -> None:
    api = Api(key="API_X", object_key="X", params=[Param(name="At", domain_type="DSSTAMP")])
    types = {"DSSTAMP": DomainType(name="DSSTAMP", base_type="datetime")}
    call = validate_call(api, {"At": "2024-03-01T10:20:30"}, {}, types=types)
    assert call.args["At"] == datetime(2024, 3, 1, 10, 20, 30)


def test_column_json_schema_from_the_types_pass_wins_over_the_name() -> None:
    table = SessionTable(
        name="pAPI_Period",
        direction=Direction.IN,
        columns=[
            Column(
                name="Start", domain_type="DSPERIODSTART", json_schema={"type": "string", "format": "date"}
            )
        ],
    )
    api = Api(key="API_Y", object_key="Y", input_tables=[table])
    call = validate_call(api, {}, {"pAPI_Period": [{"Start": "2024-01-31"}]})
    assert call.input_tables["pAPI_Period"] == [{"Start": date(2024, 1, 31)}]
    assert call.table_kinds["pAPI_Period"] == [("Start", ValueKind.DATE)]
    with pytest.raises(ValidationError) as caught:
        validate_call(api, {}, {"pAPI_Period": [{"Start": "31 января"}]})
    assert "date (YYYY-MM-DD) (DSPERIODSTART)" in caught.value.message
