"""A small bank on an embedded PostgreSQL for the executor tests: procedures by the session-table convention.

The fixtures here are imported by the other test_exec_* modules that need a database.
"""

from __future__ import annotations

import tempfile
import warnings
from pathlib import Path
from typing import Any

import psycopg
import pytest

from apiatlas.catalog.model import Api, Column, Direction, ErrorCode, ExecutorBinding, Param, SessionTable

SCHEMA_SQL = """
CREATE SCHEMA xb;
CREATE TABLE xb.person (person_id numeric(15,0) PRIMARY KEY, sur_name varchar(160) NOT NULL,
                        first_name varchar(40) NOT NULL, birth_date date NOT NULL);
CREATE TABLE xb.account (account_id numeric(15,0) PRIMARY KEY, owner_id numeric(15,0) NOT NULL,
                         acc_number varchar(20) NOT NULL, open_date date NOT NULL, close_date date);
CREATE TABLE xb.deal (deal_id numeric(15,0) PRIMARY KEY, account_id numeric(15,0) NOT NULL,
                      amount numeric(19,4) NOT NULL);
CREATE TABLE xb.write_probe (note text);
INSERT INTO xb.person VALUES
  (1001, 'Иванов', 'Иван', '1980-01-02'), (1002, 'Иванов', 'Пётр', '1975-05-06'),
  (1003, 'Иванов', 'Сергей', '1990-09-10'), (2001, 'Михалов', 'Андрей', '1970-03-04');
INSERT INTO xb.account VALUES
  (501, 2001, '40817810000000000501', '2020-01-10', NULL),
  (502, 2001, '40817810000000000502', '2021-02-11', NULL),
  (503, 1001, '40817810000000000503', '2019-03-12', '2022-12-31');
INSERT INTO xb.deal VALUES (9001, 501, 1500.2500), (9002, 501, 30.0000), (9003, 502, 7.5000);

CREATE SCHEMA api;
CREATE PROCEDURE api."API_Prs_FindListByFIO"(p_surname varchar, p_birthdate date DEFAULT NULL)
LANGUAGE plpgsql AS $$
BEGIN
  IF p_surname IS NULL OR btrim(p_surname) = '' THEN
    RAISE EXCEPTION 'Не задана фамилия' USING ERRCODE = 'P0001', DETAIL = '50002';
  END IF;
  INSERT INTO "pAPI_Person_FindList" (personid, surname, firstname, birthdate)
  SELECT person_id, sur_name, first_name, birth_date FROM xb.person
  WHERE sur_name = p_surname AND (p_birthdate IS NULL OR birth_date = p_birthdate) ORDER BY person_id;
END $$;
CREATE PROCEDURE api."API_Acc_FindListByListOwnerID"(p_onlyopenflag smallint DEFAULT NULL)
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "pAPI_Account_OwnerID") THEN
    RAISE EXCEPTION 'Не задан ни один владелец' USING ERRCODE = 'P0001', DETAIL = '50001';
  END IF;
  INSERT INTO "pAPI_Account_List" (accountid, ownerid, accnumber, opendate)
  SELECT a.account_id, a.owner_id, a.acc_number, a.open_date FROM xb.account a
  WHERE a.owner_id IN (SELECT ownerid FROM "pAPI_Account_OwnerID")
    AND (coalesce(p_onlyopenflag, 0) = 0 OR a.close_date IS NULL) ORDER BY a.account_id;
END $$;
CREATE PROCEDURE api."API_DSec_FindListByAccID"()
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "pAPI_DSec_List" (dealsecurityid, accountid, amount, txid)
  SELECT d.deal_id, d.account_id, d.amount, txid_current() FROM xb.deal d
  WHERE d.account_id IN (SELECT accountid FROM "pAPI_DSec_AccID") ORDER BY d.deal_id;
END $$;
CREATE PROCEDURE api."API_Test_Txid"(p_expected bigint DEFAULT NULL)
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "pAPI_Test_Txid" (txid, same) VALUES (txid_current(), (p_expected = txid_current())::int);
END $$;
CREATE PROCEDURE api."API_Test_Rows"(p_count integer)
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "pAPI_Test_Rows" (n, label) SELECT g, repeat('x', g) FROM generate_series(1, p_count) g;
END $$;
CREATE PROCEDURE api."API_Test_Sleep"(p_seconds numeric)
LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(p_seconds); END $$;
CREATE PROCEDURE api."API_Test_Write"(p_note varchar DEFAULT NULL)
LANGUAGE plpgsql AS $$ BEGIN INSERT INTO xb.write_probe VALUES (coalesce(p_note, 'probe')); END $$;
CREATE PROCEDURE api."API_Test_Fail"()
LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'Тестовая ошибка' USING ERRCODE = 'P0001', DETAIL = '59999'; END $$;
CREATE FUNCTION api."API_Acc_ListByOwner"(p_ownerid numeric)
RETURNS TABLE (accountid numeric, accnumber varchar, opendate date)
LANGUAGE sql STABLE AS $$
  SELECT account_id, acc_number, open_date FROM xb.account WHERE owner_id = p_ownerid ORDER BY account_id
$$;
"""


def _table(name: str, direction: Direction, *columns: tuple[str, str]) -> SessionTable:
    fields = [Column(name=n, domain_type=t) for n, t in columns]
    return SessionTable(name=name, direction=direction, columns=fields)


def _api(key: str, *, params: list[Param] | None = None, kind: str = "sql_procedure", **rest: Any) -> Api:
    return Api(
        key=key,
        object_key=key.split("_")[1],
        params=params or [],
        executor=ExecutorBinding(kind=kind, target=f'api."{key}"'),
        **rest,
    )


PERSON_LIST = _table(
    "pAPI_Person_FindList",
    Direction.OUT,
    ("PersonID", "DSIDENTIFIER"),
    ("SurName", "DSVARFULLNAME"),
    ("FirstName", "DSVARNAME"),
    ("BirthDate", "DSDATE"),
)

APIS: dict[str, Api] = {
    a.key: a
    for a in [
        _api(
            "API_Prs_FindListByFIO",
            params=[
                Param(name="SurName", domain_type="DSVARFULLNAME", required=True),
                Param(name="BirthDate", domain_type="DSDATE"),
            ],
            output_tables=[PERSON_LIST],
            errors=[ErrorCode(code="50002", description="Не задана фамилия")],
        ),
        _api(
            "API_Acc_FindListByListOwnerID",
            params=[Param(name="OnlyOpenFlag", domain_type="DSTINYINT")],
            input_tables=[_table("pAPI_Account_OwnerID", Direction.IN, ("OwnerID", "DSIDENTIFIER"))],
            output_tables=[
                _table(
                    "pAPI_Account_List",
                    Direction.OUT,
                    ("AccountID", "DSIDENTIFIER"),
                    ("OwnerID", "DSIDENTIFIER"),
                    ("AccNumber", "DSACCNUMBER"),
                    ("OpenDate", "DSDATE"),
                )
            ],
            errors=[ErrorCode(code="50001", description="Не задан ни один владелец")],
        ),
        _api(
            "API_DSec_FindListByAccID",
            input_tables=[_table("pAPI_DSec_AccID", Direction.IN, ("AccountID", "DSIDENTIFIER"))],
            output_tables=[
                _table(
                    "pAPI_DSec_List",
                    Direction.OUT,
                    ("DealSecurityID", "DSIDENTIFIER"),
                    ("AccountID", "DSIDENTIFIER"),
                    ("Amount", "DSMONEY"),
                    ("TxID", "DSIDENTIFIER"),
                )
            ],
        ),
        _api(
            "API_Test_Txid",
            params=[Param(name="Expected", domain_type="DSIDENTIFIER")],
            output_tables=[
                _table("pAPI_Test_Txid", Direction.OUT, ("TxID", "DSIDENTIFIER"), ("Same", "DSFLAG")),
            ],
        ),
        _api(
            "API_Test_Rows",
            params=[Param(name="Count", domain_type="DSINT", required=True)],
            output_tables=[_table("pAPI_Test_Rows", Direction.OUT, ("N", "DSINT"), ("Label", "DSCOMMENT"))],
        ),
        _api("API_Test_Sleep", params=[Param(name="Seconds", domain_type="DSMONEY", required=True)]),
        _api("API_Test_Write", params=[Param(name="Note", domain_type="DSCOMMENT")]),
        _api("API_Test_Fail", errors=[ErrorCode(code="59999", description="Тестовая ошибка для проверок")]),
        _api(
            "API_Acc_ListByOwner",
            kind="sql_function",
            params=[Param(name="OwnerID", domain_type="DSIDENTIFIER", required=True)],
        ),
    ]
}


def resolve_api(key: str) -> Api | None:
    return APIS.get(key)


def start_server() -> Any:
    """A running embedded PostgreSQL (pgserver) loaded with the test bank, in a fresh directory.

    The directory is not pytest's tmp_path: parallel pytest runs prune each other's old tmp
    directories, which would pull the data directory from under a running server.
    """
    directory = Path(tempfile.mkdtemp(prefix="apiatlas-exec-pg-"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pgserver warns that XDG_RUNTIME_DIR is unset
        import pgserver

        server = pgserver.get_server(directory, cleanup_mode="delete")
    with psycopg.connect(server.get_uri(), autocommit=True) as conn:
        conn.execute(SCHEMA_SQL)
    return server


_SHARED: dict[str, Any] = {}


def shared_database_uri() -> str:
    """One test bank per test run, shared by the test_exec_* modules; pgserver removes it at exit."""
    if "server" not in _SHARED:
        _SHARED["server"] = start_server()
    return str(_SHARED["server"].get_uri())


@pytest.fixture(scope="session")
def exec_pg_uri() -> str:
    return shared_database_uri()


def test_fixture_database_has_the_test_bank(exec_pg_uri: str) -> None:
    with psycopg.connect(exec_pg_uri) as conn:
        query = "SELECT proname FROM pg_proc WHERE pronamespace = 'api'::regnamespace"
        names = {r[0] for r in conn.execute(query)}
        persons = conn.execute("SELECT count(*) FROM xb.person WHERE sur_name = 'Иванов'").fetchone()
    assert {"API_Prs_FindListByFIO", "API_Acc_FindListByListOwnerID", "API_Acc_ListByOwner"} <= names
    assert persons == (3,)
