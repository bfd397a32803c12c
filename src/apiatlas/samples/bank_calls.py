"""Reference caller of the sample bank's procedures, following docs/sample-bank.md's convention exactly.

The real executor (``apiatlas.executors``) builds the same sequence from the catalog; this module
hard-codes the sample's contract so tests and the demo can check the database on its own:

    BEGIN;                                               -- read-write: only CREATE TEMP TABLE here
    CREATE TEMP TABLE "pAPI_…" (…) ON COMMIT DROP;       -- every input and output table of the API
    SET TRANSACTION READ ONLY;                           -- allowed after queries; irreversible
    SET LOCAL statement_timeout = …;                     -- optional
    INSERT INTO "<input table>" …;                       -- temp tables stay writable
    CALL api."API_…"(p_x => …, …);
    SELECT * FROM "<output table>";
    ROLLBACK;
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import psycopg
from psycopg import sql

from apiatlas.errors import ApiatlasError, Location, ReasonCode

PG_TYPES: dict[str, str] = {
    "DSIDENTIFIER": "numeric(15,0)",
    "DSVARFULLNAME": "varchar(160)",
    "DSVARNAME": "varchar(40)",
    "DSDATE": "date",
    "DSINN": "varchar(12)",
    "DSPHONE": "varchar(20)",
    "DSEMAIL": "varchar(100)",
    "DSFLAG": "smallint",
    "DSTINYINT": "smallint",
    "DSCODE": "varchar(10)",
    "DSDOCSERIES": "varchar(10)",
    "DSDOCNUMBER": "varchar(20)",
    "DSVARCHAR255": "varchar(255)",
    "DSPOSTCODE": "varchar(6)",
    "DSADDRESS": "varchar(500)",
    "DSACCNUMBER": "varchar(25)",
    "DSCURRCODE": "char(3)",
    "DSCOMMENT": "varchar(1000)",
    "DSMONEY": "numeric(19,2)",
    "DSDEALNUMBER": "varchar(30)",
    "DSISIN": "char(12)",
    "DSQUANTITY": "numeric(19,4)",
    "DSPRICE": "numeric(19,8)",
    "DSCONTRACTNUMBER": "varchar(40)",
    "DSPERCENT": "numeric(9,4)",
    "DSCARDMASK": "varchar(19)",
}
"""PostgreSQL column types of the sample's domain types (session-table columns, procedure arguments)."""

_PERSON = (
    ("PersonID", "DSIDENTIFIER"),
    ("SurName", "DSVARFULLNAME"),
    ("FirstName", "DSVARNAME"),
    ("Patronymic", "DSVARNAME"),
    ("BirthDate", "DSDATE"),
    ("INN", "DSINN"),
)
_ACCOUNT = (
    ("AccountID", "DSIDENTIFIER"),
    ("OwnerID", "DSIDENTIFIER"),
    ("AccNumber", "DSACCNUMBER"),
    ("CurrencyCode", "DSCURRCODE"),
    ("AccType", "DSCODE"),
)
_DEPOSIT = (
    ("DepositID", "DSIDENTIFIER"),
    ("PersonID", "DSIDENTIFIER"),
    ("ContractNumber", "DSCONTRACTNUMBER"),
    ("ProductName", "DSVARCHAR255"),
    ("OpenDate", "DSDATE"),
    ("EndDate", "DSDATE"),
    ("Amount", "DSMONEY"),
    ("Rate", "DSPERCENT"),
    ("CurrencyCode", "DSCURRCODE"),
    ("AccountID", "DSIDENTIFIER"),
)

SESSION_TABLES: dict[str, tuple[tuple[str, str], ...]] = {
    "pAPI_Person_FindList": _PERSON,
    "pAPI_Person_Info": (*_PERSON, ("Phone", "DSPHONE"), ("Email", "DSEMAIL"), ("ResidentFlag", "DSFLAG")),
    "pAPI_Person_Doc": (
        ("PersonID", "DSIDENTIFIER"),
        ("DocType", "DSCODE"),
        ("DocSeries", "DSDOCSERIES"),
        ("DocNumber", "DSDOCNUMBER"),
        ("IssueDate", "DSDATE"),
        ("IssuedBy", "DSVARCHAR255"),
    ),
    "pAPI_Address_List": (
        ("AddressID", "DSIDENTIFIER"),
        ("PersonID", "DSIDENTIFIER"),
        ("AddrType", "DSCODE"),
        ("PostCode", "DSPOSTCODE"),
        ("City", "DSVARNAME"),
        ("Street", "DSVARCHAR255"),
        ("FullAddress", "DSADDRESS"),
    ),
    "pAPI_Account_OwnerID": (("OwnerID", "DSIDENTIFIER"),),
    "pAPI_Account_List": (*_ACCOUNT, ("OpenDate", "DSDATE"), ("CloseDate", "DSDATE")),
    "pAPI_Account_Info": (
        *_ACCOUNT,
        ("BranchCode", "DSCODE"),
        ("OpenDate", "DSDATE"),
        ("CloseDate", "DSDATE"),
        ("Purpose", "DSCOMMENT"),
    ),
    "pAPI_Account_Rest": (
        ("AccountID", "DSIDENTIFIER"),
        ("AccNumber", "DSACCNUMBER"),
        ("RestDate", "DSDATE"),
        ("Rest", "DSMONEY"),
        ("CurrencyCode", "DSCURRCODE"),
    ),
    "pAPI_Account_Turn": (
        ("AccountID", "DSIDENTIFIER"),
        ("DateFrom", "DSDATE"),
        ("DateTo", "DSDATE"),
        ("RestIn", "DSMONEY"),
        ("DebetTurn", "DSMONEY"),
        ("CreditTurn", "DSMONEY"),
        ("RestOut", "DSMONEY"),
    ),
    "pAPI_DSec_AccID": (("AccountID", "DSIDENTIFIER"),),
    "pAPI_DSec_IDList": (("DealSecurityID", "DSIDENTIFIER"), ("AccountID", "DSIDENTIFIER")),
    "pAPI_DealSecurity_ID": (("DealSecurityID", "DSIDENTIFIER"),),
    "pAPI_DealSecurity_List": (
        ("DealSecurityID", "DSIDENTIFIER"),
        ("DealNumber", "DSDEALNUMBER"),
        ("DealDate", "DSDATE"),
        ("Direction", "DSCODE"),
        ("SecurityID", "DSIDENTIFIER"),
        ("ISIN", "DSISIN"),
        ("SecurityName", "DSVARCHAR255"),
        ("Quantity", "DSQUANTITY"),
        ("Price", "DSPRICE"),
        ("Amount", "DSMONEY"),
        ("CurrencyCode", "DSCURRCODE"),
        ("AccountID", "DSIDENTIFIER"),
    ),
    "pAPI_Security_Info": (
        ("SecurityID", "DSIDENTIFIER"),
        ("ISIN", "DSISIN"),
        ("SecurityName", "DSVARCHAR255"),
        ("IssuerName", "DSVARCHAR255"),
        ("FaceValue", "DSMONEY"),
        ("CurrencyCode", "DSCURRCODE"),
        ("MaturityDate", "DSDATE"),
    ),
    "pAPI_Deposit_List": _DEPOSIT,
    "pAPI_Deposit_Info": (*_DEPOSIT, ("CapitalizationFlag", "DSFLAG")),
    "pAPI_Card_List": (
        ("CardID", "DSIDENTIFIER"),
        ("AccountID", "DSIDENTIFIER"),
        ("CardMask", "DSCARDMASK"),
        ("ExpDate", "DSDATE"),
        ("CardStatus", "DSCODE"),
    ),
}
"""Documented session tables: name → (column, domain type) in documented order."""

APIS: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "API_Prs_FindListByFIO": (
        ("SurName", "FirstName", "Patronymic", "BirthDate"),
        (),
        ("pAPI_Person_FindList",),
    ),
    "API_Prs_FindListByINN": (("INN",), (), ("pAPI_Person_FindList",)),
    "API_Prs_FindByID": (("PersonID",), (), ("pAPI_Person_Info",)),
    "API_Prs_GetDocList": (("PersonID",), (), ("pAPI_Person_Doc",)),
    "API_Addr_FindListByPersonID": (("PersonID", "AddrType"), (), ("pAPI_Address_List",)),
    "API_Acc_FindListByListOwnerID": (("OnlyOpenFlag",), ("pAPI_Account_OwnerID",), ("pAPI_Account_List",)),
    "API_Acc_FindByNumber": (("AccNumber",), (), ("pAPI_Account_Info",)),
    "API_Acc_FindByID": (("AccountID",), (), ("pAPI_Account_Info",)),
    "API_Acc_GetRest": (("AccountID", "RestDate"), (), ("pAPI_Account_Rest",)),
    "API_Acc_GetRestTurn": (("AccountID", "DateFrom", "DateTo"), (), ("pAPI_Account_Turn",)),
    "API_DSec_FindListIDByAccID": (("DateFrom", "DateTo"), ("pAPI_DSec_AccID",), ("pAPI_DSec_IDList",)),
    "API_DealSecurity_FindListByID": ((), ("pAPI_DealSecurity_ID",), ("pAPI_DealSecurity_List",)),
    "API_Sec_FindByISIN": (("ISIN",), (), ("pAPI_Security_Info",)),
    "API_Dep_FindListByPersonID": (("PersonID", "OnlyOpenFlag"), (), ("pAPI_Deposit_List",)),
    "API_Dep_FindByID": (("DepositID",), (), ("pAPI_Deposit_Info",)),
    "API_Card_FindListByAccID": (("AccountID",), (), ("pAPI_Card_List",)),
    "API_Test_Sleep": (("Seconds",), (), ()),
    "API_Test_Fail": ((), (), ()),
    "API_Test_Write": (("Note",), (), ()),
}
"""Procedure APIs: name → (scalar params in order, input tables, output tables)."""

Rows = list[dict[str, Any]]


class BankApiError(ApiatlasError):
    """A sample-bank API call failed; ``error_code`` is the documented code (DETAIL) when there is one."""

    code = ReasonCode.TOOL_EXECUTION_ERROR

    def __init__(
        self,
        message: str,
        *,
        api: str,
        sqlstate: str | None = None,
        error_code: int | None = None,
        hint: str | None = None,
        code: ReasonCode | None = None,
    ) -> None:
        super().__init__(message, code=code, location=Location(anchor=api))
        self.api, self.sqlstate, self.error_code, self.hint = api, sqlstate, error_code, hint


def _create_table(name: str) -> sql.Composed:
    columns = sql.SQL(", ").join(
        sql.SQL("{} {}").format(sql.Identifier(col.lower()), sql.SQL(PG_TYPES[dtype]))
        for col, dtype in SESSION_TABLES[name]
    )
    return sql.SQL("CREATE TEMP TABLE {} ({}) ON COMMIT DROP").format(sql.Identifier(name), columns)


def _insert(name: str, row: Mapping[str, Any]) -> tuple[sql.Composed, list[Any]]:
    known = {col.lower() for col, _ in SESSION_TABLES[name]}
    cols = [c.lower() for c in row]
    unknown = [c for c in cols if c not in known]
    if unknown:
        raise BankApiError(
            f"table {name} has no column(s) {unknown}", api=name, code=ReasonCode.INVALID_ARGUMENT
        )
    statement = sql.SQL("INSERT INTO {} ({}) VALUES ({})").format(
        sql.Identifier(name),
        sql.SQL(", ").join(map(sql.Identifier, cols)),
        sql.SQL(", ").join(sql.Placeholder() * len(cols)),
    )
    return statement, list(row.values())


def call_bank_api(
    conn: psycopg.Connection[Any],
    api: str,
    params: Mapping[str, Any] | None = None,
    inputs: Mapping[str, Sequence[Mapping[str, Any]]] | None = None,
    *,
    statement_timeout_ms: int | None = None,
) -> dict[str, Rows]:
    """Call one procedure API in its own read-only transaction; return output table → rows (lower-case keys).

    ``params`` are keyed by documented name (``SurName``); absent optional ones take their default.
    ``conn`` must not be in autocommit mode or inside a transaction; it is left idle (rolled back).
    """
    if api not in APIS:
        raise BankApiError(f"unknown API {api!r}", api=api, code=ReasonCode.UNKNOWN_API)
    param_names, in_tables, out_tables = APIS[api]
    by_lower = {p.lower(): p for p in param_names}
    args = {}
    for key, value in (params or {}).items():
        if key.lower() not in by_lower:
            raise BankApiError(f"{api} has no parameter {key!r}", api=api, code=ReasonCode.INVALID_ARGUMENT)
        args["p_" + key.lower()] = value
    call = sql.SQL("CALL api.{}({})").format(
        sql.Identifier(api),
        sql.SQL(", ").join(
            sql.SQL("{} => {}").format(sql.Identifier(name), sql.Placeholder()) for name in args
        ),
    )
    try:
        for table in (*in_tables, *out_tables):
            conn.execute(_create_table(table))
        conn.execute("SET TRANSACTION READ ONLY")
        if statement_timeout_ms is not None:
            conn.execute(
                sql.SQL("SET LOCAL statement_timeout = {}").format(sql.Literal(int(statement_timeout_ms)))
            )
        for table in in_tables:
            for row in (inputs or {}).get(table, ()):
                conn.execute(*_insert(table, row))
        conn.execute(call, list(args.values()))
        result: dict[str, Rows] = {}
        for table in out_tables:
            cur = conn.execute(sql.SQL("SELECT * FROM {}").format(sql.Identifier(table)))
            names = [d.name for d in cur.description or ()]
            result[table] = [dict(zip(names, r, strict=True)) for r in cur.fetchall()]
        return result
    except psycopg.Error as exc:
        diag = exc.diag
        detail = diag.message_detail
        code = ReasonCode.TIMEOUT if diag.sqlstate == "57014" else ReasonCode.TOOL_EXECUTION_ERROR
        raise BankApiError(
            diag.message_primary or str(exc),
            api=api,
            sqlstate=diag.sqlstate,
            error_code=int(detail) if detail and detail.isdigit() else None,
            hint=diag.message_hint,
            code=code,
        ) from exc
    finally:
        conn.rollback()
