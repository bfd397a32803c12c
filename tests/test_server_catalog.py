"""The bank catalog the server tests serve: the core chain APIs with the sample bank's contracts, in code."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mcp.client.stdio import StdioServerParameters
from mcp_types import CallToolResult

from apiatlas.catalog.model import (
    Api,
    BusinessObject,
    Catalog,
    Column,
    Direction,
    Edge,
    EdgeLevel,
    ErrorCode,
    ExecutorBinding,
    FunnelVerdict,
    Overlay,
    Param,
    SessionTable,
    SideEffect,
)
from apiatlas.passes.config import BuildConfig
from apiatlas.passes.types import assign_schemas, merge_types
from apiatlas.server.app import AtlasServer, http_app
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot import write_snapshot
from apiatlas.sources.bank_html.domain_types import BANK_TYPES
from local_server import serve_asgi

PERSON = [
    ("PersonID", "DSIDENTIFIER"),
    ("SurName", "DSVARFULLNAME"),
    ("FirstName", "DSVARNAME"),
    ("Patronymic", "DSVARNAME"),
    ("BirthDate", "DSDATE"),
    ("INN", "DSINN"),
]
ACCOUNT = [
    ("AccountID", "DSIDENTIFIER"),
    ("OwnerID", "DSIDENTIFIER"),
    ("AccNumber", "DSACCNUMBER"),
    ("CurrencyCode", "DSCURRCODE"),
    ("AccType", "DSCODE"),
    ("OpenDate", "DSDATE"),
    ("CloseDate", "DSDATE"),
]
ACCOUNT_INFO = [
    ("AccountID", "DSIDENTIFIER"),
    ("OwnerID", "DSIDENTIFIER"),
    ("AccNumber", "DSACCNUMBER"),
    ("CurrencyCode", "DSCURRCODE"),
    ("AccType", "DSCODE"),
    ("BranchCode", "DSCODE"),
    ("OpenDate", "DSDATE"),
    ("CloseDate", "DSDATE"),
    ("Purpose", "DSCOMMENT"),
]
REST = [
    ("AccountID", "DSIDENTIFIER"),
    ("AccNumber", "DSACCNUMBER"),
    ("RestDate", "DSDATE"),
    ("Rest", "DSMONEY"),
    ("CurrencyCode", "DSCURRCODE"),
]
DEAL = [
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
]


def _table(
    name: str, direction: Direction, cols: list[tuple[str, str]], descriptions: dict[str, str] | None = None
) -> SessionTable:
    notes = descriptions or {}
    return SessionTable(
        name=name,
        direction=direction,
        columns=[Column(name=n, domain_type=t, description=notes.get(n, "")) for n, t in cols],
    )


def _api(key: str, obj: str, title: str, **kw: object) -> Api:
    return Api(key=key, object_key=obj, title=title, executor=ExecutorBinding(target=f'api."{key}"'), **kw)  # type: ignore[arg-type]


def server_catalog() -> Catalog:
    """Prs → Acc → DSec → DealSecurity, balance vs reference data, a dropped and a write API."""
    cat = Catalog(source_kind="bank_html")
    cat.objects = {
        "Prs": BusinessObject(
            key="Prs", name="Person", title="Физическое лицо", api_keys=["API_Prs_FindListByFIO"]
        ),
        "Acc": BusinessObject(
            key="Acc",
            name="Account",
            title="Счёт",
            api_keys=[
                "API_Acc_FindListByListOwnerID",
                "API_Acc_GetRest",
                "API_Acc_FindByID",
                "API_Acc_Close",
                "API_Acc_SetPurpose",
            ],
        ),
        "DSec": BusinessObject(
            key="DSec",
            name="DealSecurity",
            title="Сделка с ценной бумагой",
            api_keys=["API_DSec_FindListIDByAccID", "API_DealSecurity_FindListByID"],
        ),
    }
    apis = [
        _api(
            "API_Prs_FindListByFIO",
            "Prs",
            "Поиск физических лиц по ФИО",
            description="Возвращает список клиентов по фамилии, имени и отчеству",
            params=[
                Param(name="SurName", domain_type="DSVARFULLNAME", required=True, description="Фамилия"),
                Param(name="FirstName", domain_type="DSVARNAME", description="Имя"),
                Param(name="Patronymic", domain_type="DSVARNAME", description="Отчество"),
                Param(name="BirthDate", domain_type="DSDATE", description="Дата рождения"),
            ],
            output_tables=[_table("pAPI_Person_FindList", Direction.OUT, PERSON)],
            errors=[ErrorCode(code="50001", description="Не задана фамилия")],
            entry_point=True,
        ),
        _api(
            "API_Acc_FindListByListOwnerID",
            "Acc",
            "Поиск счетов по списку владельцев",
            description="Метод возвращает счета клиентов",
            params=[Param(name="OnlyOpenFlag", domain_type="DSTINYINT", description="1 — только открытые")],
            input_tables=[
                _table(
                    "pAPI_Account_OwnerID",
                    Direction.IN,
                    [("OwnerID", "DSIDENTIFIER")],
                    {"OwnerID": "ID владельца счёта (ID физического лица, PersonID)"},
                )
            ],
            output_tables=[_table("pAPI_Account_List", Direction.OUT, ACCOUNT)],
            errors=[ErrorCode(code="50001", description="Не задан ни один владелец")],
        ),
        _api(
            "API_Acc_GetRest",
            "Acc",
            "Остаток по счёту на дату",
            params=[
                Param(name="AccountID", domain_type="DSIDENTIFIER", required=True),
                Param(name="RestDate", domain_type="DSDATE"),
            ],
            output_tables=[_table("pAPI_Account_Rest", Direction.OUT, REST)],
            overlay=Overlay(
                when_to_use=["Получение остатка по счёту"],
                important=["Отличие от API_Acc_FindByID: GetRest — остаток"],
            ),
        ),
        _api(
            "API_Acc_FindByID",
            "Acc",
            "Справочные данные счёта",
            params=[Param(name="AccountID", domain_type="DSIDENTIFIER", required=True)],
            output_tables=[_table("pAPI_Account_Info", Direction.OUT, ACCOUNT_INFO)],
        ),
        _api(
            "API_DSec_FindListIDByAccID",
            "DSec",
            "Поиск ID сделок с ценными бумагами по счетам",
            params=[Param(name="DateFrom", domain_type="DSDATE"), Param(name="DateTo", domain_type="DSDATE")],
            input_tables=[_table("pAPI_DSec_AccID", Direction.IN, [("AccountID", "DSIDENTIFIER")])],
            output_tables=[
                _table(
                    "pAPI_DSec_IDList",
                    Direction.OUT,
                    [("DealSecurityID", "DSIDENTIFIER"), ("AccountID", "DSIDENTIFIER")],
                )
            ],
        ),
        _api(
            "API_DealSecurity_FindListByID",
            "DSec",
            "Данные сделок с ценными бумагами по списку ID",
            input_tables=[_table("pAPI_DealSecurity_ID", Direction.IN, [("DealSecurityID", "DSIDENTIFIER")])],
            output_tables=[_table("pAPI_DealSecurity_List", Direction.OUT, DEAL)],
        ),
        _api(
            "API_Acc_Close",
            "Acc",
            "Закрытие счёта",
            params=[Param(name="AccountID", domain_type="DSIDENTIFIER", required=True)],
            funnel=FunnelVerdict(kept=False, dropped_at="name", reason="not a Find/Get/Check/Brows method"),
        ),
        _api(
            "API_Acc_SetPurpose",
            "Acc",
            "Изменение назначения счёта",
            side_effect=SideEffect.WRITE,
            params=[Param(name="AccountID", domain_type="DSIDENTIFIER", required=True)],
        ),
    ]
    cat.apis = {a.key: a for a in apis}
    cat.types = merge_types({}, BuildConfig.for_source("bank_html"), BANK_TYPES)
    assign_schemas(cat, cat.types)

    def edge(p: str, pt: str | None, pf: str, c: str, ct: str | None, cf: str, level: EdgeLevel) -> Edge:
        return Edge(
            producer=p,
            producer_table=pt,
            producer_field=pf,
            consumer=c,
            consumer_table=ct,
            consumer_field=cf,
            domain_type="DSIDENTIFIER",
            level=level,
            reason=f"{level.value} edge",
        )

    cat.edges = [
        edge(
            "API_Prs_FindListByFIO",
            "pAPI_Person_FindList",
            "PersonID",
            "API_Acc_FindListByListOwnerID",
            "pAPI_Account_OwnerID",
            "OwnerID",
            EdgeLevel.ALIAS,
        ),
        edge(
            "API_Acc_FindListByListOwnerID",
            "pAPI_Account_List",
            "AccountID",
            "API_DSec_FindListIDByAccID",
            "pAPI_DSec_AccID",
            "AccountID",
            EdgeLevel.NAME_TYPE,
        ),
        edge(
            "API_DSec_FindListIDByAccID",
            "pAPI_DSec_IDList",
            "DealSecurityID",
            "API_DealSecurity_FindListByID",
            "pAPI_DealSecurity_ID",
            "DealSecurityID",
            EdgeLevel.NAME_TYPE,
        ),
        edge(
            "API_Acc_FindListByListOwnerID",
            "pAPI_Account_List",
            "AccountID",
            "API_Acc_GetRest",
            None,
            "AccountID",
            EdgeLevel.DECLARED,
        ),
        edge(
            "API_Acc_FindListByListOwnerID",
            "pAPI_Account_List",
            "AccountID",
            "API_Acc_FindByID",
            None,
            "AccountID",
            EdgeLevel.NAME_TYPE,
        ),
        edge(
            "API_Prs_FindListByFIO",
            "pAPI_Person_FindList",
            "PersonID",
            "API_Acc_FindByID",
            None,
            "AccountID",
            EdgeLevel.TYPE_ONLY,
        ),
    ]
    return cat


def write_server_snapshot(path: Path) -> Path:
    write_snapshot(server_catalog(), path, options={"source": "tests/test_server_catalog.py"})
    return path


def structured(result: CallToolResult) -> dict[str, Any]:
    """The structured content of a tool result, checked to carry a status (and a reason when not ok)."""
    data = result.structured_content
    assert isinstance(data, dict), result
    assert data["status"] in ("ok", "error", "partial")
    assert result.is_error == (data["status"] == "error")
    if data["status"] != "ok":
        assert data.get("reason"), data
    return data


def serve_command(snapshot: Path, *extra: str) -> StdioServerParameters:
    """``apiatlas serve SNAP`` as a stdio subprocess of this interpreter."""
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "apiatlas.cli", "serve", str(snapshot), *extra],
        env={k: v for k, v in os.environ.items() if k != "APIATLAS_DB_URL"},
    )


@contextmanager
def http_server(server: AtlasServer, config: ServerConfig) -> Iterator[str]:
    """Serve ``server`` over Streamable HTTP with uvicorn on a free 127.0.0.1 port; yields the URL."""
    with serve_asgi(http_app(server, config)) as port:
        yield f"http://127.0.0.1:{port}{config.http.path}"
