"""The sample bank's procedures called by the documented convention: results, chains, errors, read-only."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from decimal import Decimal
from typing import Any

import psycopg
import pytest

from apiatlas.errors import ReasonCode
from apiatlas.samples.bank_api_errors import API_ERRORS, CORE_APIS, MISSING_PARAMETER
from apiatlas.samples.bank_calls import APIS, SESSION_TABLES, BankApiError, call_bank_api
from apiatlas.samples.bank_data import BANK_DATE
from apiatlas.samples.bankdb import PROCEDURES_FILE, TEST_PROCEDURES_FILE, bank_sql_dir


@pytest.fixture(scope="module")
def conn(bank_db: str) -> Iterator[psycopg.Connection[Any]]:
    with psycopg.connect(bank_db) as connection:
        yield connection


def scalar(conn: psycopg.Connection[Any], query: str, *params: Any) -> Any:
    row = conn.execute(query, params).fetchone()
    conn.rollback()
    return row[0] if row else None


def column(conn: psycopg.Connection[Any], query: str, *params: Any) -> list[Any]:
    rows = [r[0] for r in conn.execute(query, params).fetchall()]
    conn.rollback()
    return rows


@pytest.fixture(scope="module")
def mikhalov(conn: psycopg.Connection[Any]) -> dict[str, Any]:
    """Mikhalov's keys as found through the APIs themselves (not read from the tables)."""
    (person,) = call_bank_api(conn, "API_Prs_FindListByFIO", {"SurName": "Михалов"})["pAPI_Person_FindList"]
    accounts = call_bank_api(
        conn, "API_Acc_FindListByListOwnerID", {}, {"pAPI_Account_OwnerID": [{"OwnerID": person["personid"]}]}
    )["pAPI_Account_List"]
    deposits = call_bank_api(conn, "API_Dep_FindListByPersonID", {"PersonID": person["personid"]})
    return {"person": person, "accounts": accounts, "deposit": deposits["pAPI_Deposit_List"][0]}


def test_find_by_surname_returns_all_fifteen_ivanovs(conn: psycopg.Connection[Any]) -> None:
    rows = call_bank_api(conn, "API_Prs_FindListByFIO", {"SurName": "иванов "})["pAPI_Person_FindList"]
    assert len(rows) == 15
    assert {r["surname"] for r in rows} == {"Иванов"}
    expected = column(conn, "SELECT person_id FROM bank.person WHERE sur_name = 'Иванов'")
    assert sorted(r["personid"] for r in rows) == sorted(expected)


def test_first_name_and_birth_date_narrow_the_search(conn: psycopg.Connection[Any]) -> None:
    two = call_bank_api(conn, "API_Prs_FindListByFIO", {"SurName": "Иванов", "FirstName": "Сергей"})
    sergeys = two["pAPI_Person_FindList"]
    assert len(sergeys) == 2
    args = {"SurName": "Иванов", "FirstName": "Сергей", "BirthDate": sergeys[1]["birthdate"]}
    (one,) = call_bank_api(conn, "API_Prs_FindListByFIO", args)["pAPI_Person_FindList"]
    assert one["personid"] == sergeys[1]["personid"]


def test_mikhalov_chain_person_accounts_deal_ids_deals(
    conn: psycopg.Connection[Any], mikhalov: dict[str, Any]
) -> None:
    person = mikhalov["person"]
    assert (person["surname"], person["firstname"], person["patronymic"]) == ("Михалов", "Андрей", "Петрович")
    accounts = mikhalov["accounts"]
    assert len(accounts) == 2 and {a["ownerid"] for a in accounts} == {person["personid"]}
    ids = call_bank_api(
        conn,
        "API_DSec_FindListIDByAccID",
        {},
        {"pAPI_DSec_AccID": [{"AccountID": a["accountid"]} for a in accounts]},
    )["pAPI_DSec_IDList"]
    assert len(ids) >= 5 and len({r["accountid"] for r in ids}) == 1
    deals = call_bank_api(
        conn,
        "API_DealSecurity_FindListByID",
        {},
        {"pAPI_DealSecurity_ID": [{"DealSecurityID": r["dealsecurityid"]} for r in ids]},
    )["pAPI_DealSecurity_List"]
    assert sorted(d["dealsecurityid"] for d in deals) == sorted(r["dealsecurityid"] for r in ids)
    stored = column(
        conn,
        "SELECT d.deal_number || '|' || s.isin || '|' || d.amount FROM bank.deal_security d "
        "JOIN bank.security s USING (security_id) WHERE d.account_id = %s",
        ids[0]["accountid"],
    )
    assert sorted(f"{d['dealnumber']}|{d['isin']}|{d['amount']}" for d in deals) == sorted(stored)
    assert all(d["amount"] == (d["price"] * d["quantity"]).quantize(Decimal("0.01")) for d in deals)


def _calls(m: dict[str, Any]) -> list[tuple[str, dict[str, Any], dict[str, list[dict[str, Any]]]]]:
    person_id = m["person"]["personid"]
    current = next(a for a in m["accounts"] if a["acctype"] == "CUR")
    return [
        ("API_Prs_FindListByFIO", {"SurName": "Михалов"}, {}),
        ("API_Prs_FindListByINN", {"INN": m["person"]["inn"]}, {}),
        ("API_Prs_FindByID", {"PersonID": person_id}, {}),
        ("API_Prs_GetDocList", {"PersonID": person_id}, {}),
        ("API_Addr_FindListByPersonID", {"PersonID": person_id}, {}),
        (
            "API_Acc_FindListByListOwnerID",
            {"OnlyOpenFlag": 1},
            {"pAPI_Account_OwnerID": [{"OwnerID": person_id}]},
        ),
        ("API_Acc_FindByNumber", {"AccNumber": current["accnumber"]}, {}),
        ("API_Acc_FindByID", {"AccountID": current["accountid"]}, {}),
        ("API_Acc_GetRest", {"AccountID": current["accountid"]}, {}),
        (
            "API_Acc_GetRestTurn",
            {
                "AccountID": current["accountid"],
                "DateFrom": BANK_DATE - timedelta(days=30),
                "DateTo": BANK_DATE,
            },
            {},
        ),
        ("API_DSec_FindListIDByAccID", {}, {"pAPI_DSec_AccID": [{"AccountID": current["accountid"]}]}),
        ("API_Dep_FindListByPersonID", {"PersonID": person_id, "OnlyOpenFlag": 1}, {}),
        ("API_Dep_FindByID", {"DepositID": m["deposit"]["depositid"]}, {}),
        ("API_Card_FindListByAccID", {"AccountID": current["accountid"]}, {}),
    ]


def test_every_core_procedure_returns_documented_columns(
    conn: psycopg.Connection[Any], mikhalov: dict[str, Any]
) -> None:
    calls = _calls(mikhalov)
    deal_ids = call_bank_api(conn, *calls[10])["pAPI_DSec_IDList"]
    calls.append(
        (
            "API_DealSecurity_FindListByID",
            {},
            {"pAPI_DealSecurity_ID": [{"DealSecurityID": r["dealsecurityid"]} for r in deal_ids]},
        )
    )
    deals = call_bank_api(conn, *calls[-1])["pAPI_DealSecurity_List"]
    calls.append(("API_Sec_FindByISIN", {"ISIN": deals[0]["isin"].lower()}, {}))
    assert sorted(c[0] for c in calls) == sorted(CORE_APIS)
    for api, params, inputs in calls:
        result = call_bank_api(conn, api, params, inputs)
        (table,) = APIS[api][2]
        assert result[table], f"{api} returned no rows"
        assert set(result[table][0]) == {col.lower() for col, _ in SESSION_TABLES[table]}


ERROR_CASES: list[tuple[str, dict[str, Any], dict[str, list[dict[str, Any]]], int]] = [
    ("API_Prs_FindListByFIO", {"SurName": " "}, {}, 50101),
    ("API_Prs_FindListByFIO", {"SurName": "И"}, {}, 50102),
    ("API_Prs_FindListByINN", {"INN": "77-12"}, {}, 50103),
    ("API_Prs_FindByID", {"PersonID": 1}, {}, 50104),
    ("API_Prs_GetDocList", {"PersonID": 1}, {}, 50104),
    ("API_Addr_FindListByPersonID", {"PersonID": 1, "AddrType": "HOME"}, {}, 50201),
    ("API_Acc_FindListByListOwnerID", {}, {}, 50001),
    ("API_Acc_FindByNumber", {"AccNumber": "40817810000000000000"}, {}, 50002),
    ("API_Acc_FindByNumber", {"AccNumber": "4081"}, {}, 50003),
    ("API_Acc_FindByID", {"AccountID": 1}, {}, 50004),
    ("API_Acc_GetRest", {"AccountID": 1}, {}, 50004),
    ("API_Acc_GetRestTurn", {"AccountID": 1, "DateFrom": BANK_DATE, "DateTo": BANK_DATE}, {}, 50004),
    ("API_DSec_FindListIDByAccID", {}, {"pAPI_DSec_AccID": [{"AccountID": None}]}, 50301),
    ("API_DealSecurity_FindListByID", {}, {}, 50303),
    ("API_Sec_FindByISIN", {"ISIN": "RU000A000000"}, {}, 50401),
    ("API_Dep_FindListByPersonID", {"PersonID": 1}, {}, 50104),
    ("API_Dep_FindByID", {"DepositID": 1}, {}, 50501),
    ("API_Card_FindListByAccID", {"AccountID": 1}, {}, 50004),
    ("API_Prs_FindByID", {"PersonID": None}, {}, MISSING_PARAMETER),
    ("API_Acc_GetRestTurn", {"AccountID": 1, "DateFrom": BANK_DATE, "DateTo": None}, {}, MISSING_PARAMETER),
    ("API_Test_Fail", {}, {}, 59999),
]


@pytest.mark.parametrize(
    ("api", "params", "inputs", "code"), ERROR_CASES, ids=[f"{c[0]}-{c[3]}" for c in ERROR_CASES]
)
def test_documented_error_codes(
    conn: psycopg.Connection[Any], api: str, params: dict[str, Any], inputs: dict[str, Any], code: int
) -> None:
    with pytest.raises(BankApiError) as caught:
        call_bank_api(conn, api, params, inputs)
    err = caught.value
    assert (err.sqlstate, err.error_code) == ("P0001", code)
    assert code == MISSING_PARAMETER or code in API_ERRORS[api]
    assert err.hint and err.location.anchor == api


def test_date_and_period_errors(conn: psycopg.Connection[Any], mikhalov: dict[str, Any]) -> None:
    account = mikhalov["accounts"][0]
    before_open = account["opendate"] - timedelta(days=1)
    with pytest.raises(BankApiError) as caught:
        call_bank_api(conn, "API_Acc_GetRest", {"AccountID": account["accountid"], "RestDate": before_open})
    assert caught.value.error_code == 50005
    period = {
        "AccountID": account["accountid"],
        "DateFrom": BANK_DATE,
        "DateTo": BANK_DATE - timedelta(days=1),
    }
    with pytest.raises(BankApiError) as caught:
        call_bank_api(conn, "API_Acc_GetRestTurn", period)
    assert caught.value.error_code == 50006
    ids = {"pAPI_DSec_AccID": [{"AccountID": account["accountid"]}]}
    with pytest.raises(BankApiError) as caught:
        call_bank_api(
            conn,
            "API_DSec_FindListIDByAccID",
            {"DateFrom": BANK_DATE, "DateTo": BANK_DATE - timedelta(1)},
            ids,
        )
    assert caught.value.error_code == 50302


def test_list_apis_answer_empty_not_error(conn: psycopg.Connection[Any]) -> None:
    assert (
        call_bank_api(conn, "API_Prs_FindListByFIO", {"SurName": "Несуществующий"})["pAPI_Person_FindList"]
        == []
    )
    assert call_bank_api(conn, "API_Prs_FindListByINN", {"INN": "000000000000"})["pAPI_Person_FindList"] == []
    owners = {"pAPI_Account_OwnerID": [{"OwnerID": 1}]}
    assert call_bank_api(conn, "API_Acc_FindListByListOwnerID", {}, owners)["pAPI_Account_List"] == []
    assert call_bank_api(conn, "API_Addr_FindListByPersonID", {"PersonID": 1})["pAPI_Address_List"] == []


def test_sql_files_raise_exactly_the_codes_of_the_error_table() -> None:
    text = (bank_sql_dir() / PROCEDURES_FILE).read_text() + (
        bank_sql_dir() / TEST_PROCEDURES_FILE
    ).read_text()
    blocks = re.split(r'CREATE (?:PROCEDURE|FUNCTION) api\."', text)[1:]
    found = {b.split('"', 1)[0]: {int(c) for c in re.findall(r"DETAIL = '(\d+)'", b)} for b in blocks}
    assert found == {api: set(codes) for api, codes in API_ERRORS.items()}


def test_error_table_matches_the_documentation_spec() -> None:
    core = pytest.importorskip("apiatlas.samples.bank_core")
    documented = {spec.name: {e.code for e in spec.errors} for spec in core.CORE_APIS}
    assert documented == {api: set(API_ERRORS[api]) for api in CORE_APIS}


def test_only_open_flag_hides_closed_accounts(conn: psycopg.Connection[Any]) -> None:
    owner = scalar(conn, "SELECT owner_id FROM bank.account WHERE close_date IS NOT NULL ORDER BY 1 LIMIT 1")
    inputs = {"pAPI_Account_OwnerID": [{"OwnerID": owner}]}
    everything = call_bank_api(conn, "API_Acc_FindListByListOwnerID", {}, inputs)["pAPI_Account_List"]
    open_only = call_bank_api(conn, "API_Acc_FindListByListOwnerID", {"OnlyOpenFlag": 1}, inputs)
    assert any(a["closedate"] for a in everything)
    assert open_only["pAPI_Account_List"] == [a for a in everything if a["closedate"] is None]


def test_balances_and_turnovers_agree(conn: psycopg.Connection[Any], mikhalov: dict[str, Any]) -> None:
    account_id = next(a["accountid"] for a in mikhalov["accounts"] if a["acctype"] == "CUR")
    start = BANK_DATE - timedelta(days=60)
    period = {"AccountID": account_id, "DateFrom": start, "DateTo": BANK_DATE}
    (turn,) = call_bank_api(conn, "API_Acc_GetRestTurn", period)["pAPI_Account_Turn"]
    assert turn["debetturn"] > 0 and turn["creditturn"] > 0
    assert turn["restin"] - turn["debetturn"] + turn["creditturn"] == turn["restout"]
    (rest,) = call_bank_api(conn, "API_Acc_GetRest", {"AccountID": account_id, "RestDate": start})[
        "pAPI_Account_Rest"
    ]
    assert (rest["rest"], rest["restdate"]) == (turn["restin"], start)
    (today,) = call_bank_api(conn, "API_Acc_GetRest", {"AccountID": str(account_id)})["pAPI_Account_Rest"]
    assert today["restdate"] == BANK_DATE


def test_procedure_writing_a_real_table_fails_under_the_convention(conn: psycopg.Connection[Any]) -> None:
    with pytest.raises(BankApiError) as caught:
        call_bank_api(conn, "API_Test_Write", {"Note": "must not persist"})
    assert caught.value.sqlstate == "25006"  # read_only_sql_transaction
    assert scalar(conn, "SELECT count(*) FROM bank.write_probe") == 0


def test_read_only_transaction_refuses_new_tables_and_going_back_to_read_write(bank_db: str) -> None:
    with psycopg.connect(bank_db) as c:
        c.execute('CREATE TEMP TABLE "pAPI_Person_FindList" (personid numeric) ON COMMIT DROP')
        c.execute("SET TRANSACTION READ ONLY")
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            c.execute("CREATE TEMP TABLE late (x int)")
        c.rollback()
        c.execute("SELECT 1")
        c.execute("SET TRANSACTION READ ONLY")
        with pytest.raises(psycopg.errors.ActiveSqlTransaction):
            c.execute("SET TRANSACTION READ WRITE")
        c.rollback()


def test_chain_in_one_read_only_transaction_reuses_session_tables(bank_db: str) -> None:
    with psycopg.connect(bank_db) as c:
        for table in ("pAPI_Person_FindList", "pAPI_Account_OwnerID", "pAPI_Account_List"):
            cols = ", ".join(
                f"{col.lower()} text" for col, _ in SESSION_TABLES[table]
            )  # text columns work too
            c.execute(f'CREATE TEMP TABLE "{table}" ({cols}) ON COMMIT DROP')
        c.execute("SET TRANSACTION READ ONLY")
        c.execute("""CALL api."API_Prs_FindListByFIO"(p_surname => 'Иванов')""")
        c.execute("""CALL api."API_Prs_FindListByFIO"(p_surname => %s)""", ("Михалов",))
        persons = c.execute('SELECT personid FROM "pAPI_Person_FindList"').fetchall()
        assert len(persons) == 1  # the second call replaced the first call's rows
        c.execute('INSERT INTO "pAPI_Account_OwnerID" SELECT personid FROM "pAPI_Person_FindList"')
        c.execute("""CALL api."API_Acc_FindListByListOwnerID"()""")
        assert len(c.execute('SELECT * FROM "pAPI_Account_List"').fetchall()) == 2
        c.rollback()


def test_row_functions_work_read_only(
    bank_db: str, conn: psycopg.Connection[Any], mikhalov: dict[str, Any]
) -> None:
    account_id = mikhalov["accounts"][0]["accountid"]
    with psycopg.connect(bank_db) as c:
        c.execute("SET TRANSACTION READ ONLY")
        rates = c.execute('SELECT * FROM api."API_Crncy_GetRateList"()').fetchall()
        assert {r[0] for r in rates} == {"156", "840", "978"} and all(r[2] <= BANK_DATE for r in rates)
        start = BANK_DATE - timedelta(days=9)
        history = c.execute(
            'SELECT restdate, rest FROM api."API_Acc_GetRestHistory"(%s, %s, %s)',
            (account_id, start, BANK_DATE),
        ).fetchall()
        assert [h[0] for h in history] == [start + timedelta(days=i) for i in range(10)]
        c.rollback()
    day = history[3][0] + timedelta(days=1)  # incoming balance of a day = outgoing balance of the day before
    args = {"AccountID": account_id, "RestDate": day}
    (rest,) = call_bank_api(conn, "API_Acc_GetRest", args)["pAPI_Account_Rest"]
    assert rest["rest"] == history[3][1]


def test_statement_timeout_is_reported_as_timeout(conn: psycopg.Connection[Any]) -> None:
    with pytest.raises(BankApiError) as caught:
        call_bank_api(conn, "API_Test_Sleep", {"Seconds": 30}, statement_timeout_ms=100)
    assert (caught.value.code, caught.value.sqlstate) == (ReasonCode.TIMEOUT, "57014")
    assert call_bank_api(conn, "API_Test_Sleep", {"Seconds": 0}) == {}


def test_savepoint_per_step_restores_read_write_for_the_next_step(bank_db: str) -> None:
    with psycopg.connect(bank_db) as c:
        for step in ("Михалов", "Иванов"):
            c.execute("SAVEPOINT step")
            cols = ", ".join(f"{col.lower()} text" for col, _ in SESSION_TABLES["pAPI_Person_FindList"])
            c.execute(f'CREATE TEMP TABLE "pAPI_Person_FindList" ({cols})')
            c.execute("SET LOCAL transaction_read_only = on")
            c.execute("""CALL api."API_Prs_FindListByFIO"(p_surname => %s)""", (step,))
            with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
                c.execute('CALL api."API_Test_Write"()')
            c.execute("ROLLBACK TO SAVEPOINT step")
        c.rollback()


def test_omitting_a_required_argument_is_an_unknown_signature(conn: psycopg.Connection[Any]) -> None:
    with pytest.raises(BankApiError) as caught:
        call_bank_api(conn, "API_Acc_GetRestTurn", {"AccountID": 1, "DateFrom": BANK_DATE})
    assert caught.value.sqlstate == "42883"
