"""A small bank catalog built in code (Prs → Acc → DSec → DealSecurity), shared by the snapshot tests."""

from __future__ import annotations

from apiatlas.catalog.model import (
    Api,
    BusinessObject,
    Catalog,
    Column,
    Direction,
    DomainType,
    Edge,
    EdgeLevel,
    FunnelVerdict,
    Overlay,
    Param,
    SessionTable,
)
from apiatlas.errors import Diagnostic, Location, ReasonCode, Severity
from apiatlas.snapshot.manifest import build_manifest, funnel_summary, graph_summary, kept_edges


def _table(name: str, direction: Direction, *cols: tuple[str, str, str]) -> SessionTable:
    return SessionTable(
        name=name,
        direction=direction,
        columns=[Column(name=n, domain_type=t, description=d) for n, t, d in cols],
    )


def mini_catalog() -> Catalog:
    """Five kept APIs over three objects, two dropped ones, edges at three levels, a few diagnostics."""
    cat = Catalog(source_kind="bank_html", source_files={"BObjects/BO_Person.htm": "ab" * 32})
    cat.types = {
        "DSIDENTIFIER": DomainType(
            name="DSIDENTIFIER", base_type="numeric(15,0)", json_schema={"type": "integer"}
        ),
        "DSVARFULLNAME": DomainType(name="DSVARFULLNAME", json_schema={"type": "string"}, user_value=True),
    }
    cat.objects = {
        "Prs": BusinessObject(
            key="Prs", name="Person", title="Физическое лицо", api_keys=["API_Prs_FindListByFIO"]
        ),
        "Acc": BusinessObject(
            key="Acc", name="Account", title="Счёт", api_keys=["API_Acc_FindListByListOwnerID"]
        ),
        "DSec": BusinessObject(key="DSec", name="DealSecurity", title="Сделка с ценной бумагой"),
        "Old": BusinessObject(key="Old", name="Legacy", title="Устаревший объект"),
    }
    person_list = _table(
        "pAPI_Person_FindList",
        Direction.OUT,
        ("PersonID", "DSIDENTIFIER", "ID физического лица"),
        ("SurName", "DSVARFULLNAME", "Фамилия"),
    )
    apis = [
        Api(
            key="API_Prs_FindListByFIO",
            object_key="Prs",
            title="Поиск физических лиц по ФИО",
            description="Возвращает список клиентов по фамилии, имени и отчеству",
            params=[Param(name="SurName", domain_type="DSVARFULLNAME", required=True, description="Фамилия")],
            output_tables=[person_list],
            entry_point=True,
        ),
        Api(
            key="API_Acc_FindListByListOwnerID",
            object_key="Acc",
            title="Поиск счетов по списку владельцев",
            description="Метод возвращает счета клиента",
            input_tables=[
                _table(
                    "pAPI_Account_OwnerID", Direction.IN, ("OwnerID", "DSIDENTIFIER", "ID владельца счёта")
                )
            ],
            output_tables=[
                _table("pAPI_Account_List", Direction.OUT, ("AccountID", "DSIDENTIFIER", "ID счёта"))
            ],
        ),
        Api(
            key="API_Acc_GetRest",
            object_key="Acc",
            title="Остаток по счёту",
            params=[Param(name="AccountID", domain_type="DSIDENTIFIER", required=True)],
            overlay=Overlay(when_to_use=["Получение баланса"], important=["Принимает AccountID"]),
        ),
        Api(
            key="API_DSec_FindListIDByAccID",
            object_key="DSec",
            title="Поиск ID сделок по счетам",
            input_tables=[_table("pAPI_DSec_AccID", Direction.IN, ("AccountID", "DSIDENTIFIER", ""))],
            output_tables=[
                _table("pAPI_DSec_IDList", Direction.OUT, ("DealSecurityID", "DSIDENTIFIER", "ID сделки"))
            ],
        ),
        Api(
            key="API_DealSecurity_FindListByID",
            object_key="DSec",
            title="Данные сделок по списку ID",
            input_tables=[
                _table("pAPI_DealSecurity_ID", Direction.IN, ("DealSecurityID", "DSIDENTIFIER", ""))
            ],
        ),
        Api(
            key="API_Acc_Close",
            object_key="Acc",
            title="Закрытие счетов",
            funnel=FunnelVerdict(kept=False, dropped_at="name", reason="not a read method"),
        ),
        Api(
            key="API_Old_Find",
            object_key="Old",
            title="Старый поиск счетов",
            funnel=FunnelVerdict(kept=False, dropped_at="visa", reason="visa is not Ok"),
        ),
    ]
    cat.apis = {a.key: a for a in apis}

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
            reason=f"{level.value} test edge",
        )

    cat.edges = [
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
            "API_Acc_FindListByListOwnerID",
            "pAPI_Account_List",
            "AccountID",
            "API_Acc_GetRest",
            None,
            "AccountID",
            EdgeLevel.DECLARED,
        ),
        edge(
            "API_Prs_FindListByFIO",
            "pAPI_Person_FindList",
            "PersonID",
            "API_Acc_GetRest",
            None,
            "AccountID",
            EdgeLevel.TYPE_ONLY,
        ),
        # an edge touching a dropped API never reaches the snapshot
        edge(
            "API_Acc_FindListByListOwnerID",
            "pAPI_Account_List",
            "AccountID",
            "API_Acc_Close",
            None,
            "AccountID",
            EdgeLevel.NAME_TYPE,
        ),
    ]
    cat.diagnostics = [
        Diagnostic(
            severity=Severity.WARNING,
            code=ReasonCode.UNKNOWN_DOMAIN_TYPE,
            message="type DSFOO is unknown",
            location=Location(file="BObjects/Services/API_Acc_GetRest.htm", anchor="API_Acc_GetRest"),
        ),
        Diagnostic(
            severity=Severity.ERROR,
            code=ReasonCode.UNDECODABLE_FILE,
            message="cannot decode",
            location=Location(file="BObjects/BO_Broken.htm", line=3),
        ),
    ]
    return cat


def test_funnel_summary_counts_each_stage_in_order() -> None:
    funnel = funnel_summary(mini_catalog())
    assert funnel["total"] == 7
    assert funnel["kept"] == 5
    assert [(s["stage"], s["dropped"], s["count"]) for s in funnel["stages"]] == [
        ("parsed", 0, 7),
        ("name", 1, 6),
        ("visa", 1, 5),
    ]


def test_graph_summary_counts_only_edges_between_kept_apis() -> None:
    catalog = mini_catalog()
    graph = graph_summary(catalog, kept_edges(catalog))
    assert graph["edges"] == 5
    assert graph["by_level"] == {"declared": 1, "name_type": 2, "alias": 1, "type_only": 1, "co_usage": 0}
    assert graph["entry_points"] == 1


def test_manifest_keeps_source_root_as_given_and_counts_diagnostics() -> None:
    manifest = build_manifest(mini_catalog(), {"source": "examples/bank/docs", "overlays": None})
    assert manifest.source_root == "examples/bank/docs"
    assert manifest.counts["diagnostics_error"] == 1
    assert manifest.counts["diagnostics_warning"] == 1
    assert manifest.counts["kept_apis"] == 5
    assert manifest.counts["objects_with_kept_apis"] == 3
