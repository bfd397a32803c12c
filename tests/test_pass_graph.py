"""The graph pass over the sample bank's core APIs (docs/sample-bank.md), run through the whole pass list."""

from __future__ import annotations

import random

from apiatlas.catalog.model import (
    Api,
    Catalog,
    Column,
    DeclaredSource,
    Direction,
    Edge,
    EdgeLevel,
    Overlay,
    Param,
    SessionTable,
)
from apiatlas.errors import Diagnostic, Location, ReasonCode, Severity
from apiatlas.passes import PASSES, run_passes
from apiatlas.passes.config import AliasRule, BuildConfig
from apiatlas.passes.graph import edge_order


def bank_config(**changes: object) -> BuildConfig:
    """The sample bank's build defaults (its format's), with ``changes``."""
    return BuildConfig.for_source("bank_html").model_copy(update=changes)


PERSON = (
    "PersonID:DSIDENTIFIER SurName:DSVARFULLNAME FirstName:DSVARNAME Patronymic:DSVARNAME "
    "BirthDate:DSDATE INN:DSINN"
)
ACCOUNT = (
    "AccountID:DSIDENTIFIER OwnerID:DSIDENTIFIER AccNumber:DSACCNUMBER CurrencyCode:DSCURRCODE AccType:DSCODE"
)
OWNER_DESCRIPTION = "ID владельца счёта (ID физического лица, PersonID)"


def _columns(spec: str) -> list[Column]:
    return [Column(name=n, domain_type=t) for n, t in (item.split(":") for item in spec.split())]


def _api(
    key: str,
    obj: str,
    params: str = "",
    ins: dict[str, list[Column]] | None = None,
    outs: dict[str, str] | None = None,
    **flags: object,
) -> Api:
    parsed = []
    for item in params.split():
        name, domain_type = item.split(":")
        parsed.append(Param(name=name.rstrip("*"), domain_type=domain_type, required=name.endswith("*")))
    return Api(
        key=key,
        object_key=obj,
        params=parsed,
        input_tables=[
            SessionTable(name=n, direction=Direction.IN, columns=c) for n, c in (ins or {}).items()
        ],
        output_tables=[
            SessionTable(name=n, direction=Direction.OUT, columns=_columns(c))
            for n, c in (outs or {}).items()
        ],
        approved=bool(flags.get("approved", True)),
        implemented=True,
        forbidden=False,
        source=Location(file=f"BObjects/Services/{key}.htm"),
    )


def sample_bank(owner_description: str = OWNER_DESCRIPTION) -> list[Api]:
    owner = Column(name="OwnerID", domain_type="DSIDENTIFIER", description=owner_description)
    doc_list = _api(
        "API_Prs_GetDocList",
        "Prs",
        "PersonID*:DSIDENTIFIER",
        outs={
            "pAPI_Person_Doc": "PersonID:DSIDENTIFIER DocType:DSCODE DocNumber:DSDOCNUMBER IssueDate:DSDATE"
        },
    )
    doc_list.params[0].description = "ID физического лица (из API_Prs_FindListByFIO.PersonID)"
    doc_list.declared_sources = [
        DeclaredSource(field="PersonID", producer_api="API_Prs_FindListByFIO", producer_field="PersonID"),
        DeclaredSource(field="PersonID", producer_api="API_Prs_Nowhere", producer_field="PersonID"),
        DeclaredSource(field="PersonID", producer_api="API_Prs_FindByID", producer_field="NoSuchField"),
        DeclaredSource(field="NoSuchInput", producer_api="API_Prs_FindByID", producer_field="PersonID"),
    ]
    return [
        _api(
            "API_Prs_FindListByFIO",
            "Prs",
            "SurName*:DSVARFULLNAME FirstName:DSVARNAME Patronymic:DSVARNAME BirthDate:DSDATE",
            outs={"pAPI_Person_FindList": PERSON},
        ),
        _api("API_Prs_FindListByINN", "Prs", "INN*:DSINN", outs={"pAPI_Person_FindList": PERSON}),
        _api(
            "API_Prs_FindByID",
            "Prs",
            "PersonID*:DSIDENTIFIER",
            outs={"pAPI_Person_Info": PERSON + " Phone:DSPHONE Email:DSEMAIL"},
        ),
        doc_list,
        _api(
            "API_Acc_FindListByListOwnerID",
            "Acc",
            "OnlyOpenFlag:DSTINYINT",
            ins={"pAPI_Account_OwnerID": [owner]},
            outs={"pAPI_Account_List": ACCOUNT + " OpenDate:DSDATE"},
        ),
        _api(
            "API_Acc_FindByNumber",
            "Acc",
            "AccNumber*:DSACCNUMBER",
            outs={"pAPI_Account_Info": ACCOUNT + " Purpose:DSCOMMENT"},
        ),
        _api("API_Acc_FindByID", "Acc", "AccountID*:DSIDENTIFIER", outs={"pAPI_Account_Info": ACCOUNT}),
        _api(
            "API_Acc_GetRest",
            "Acc",
            "AccountID*:DSIDENTIFIER RestDate:DSDATE",
            outs={"pAPI_Account_Rest": "AccountID:DSIDENTIFIER AccNumber:DSACCNUMBER Rest:DSMONEY"},
        ),
        _api(
            "API_DSec_FindListIDByAccID",
            "DSec",
            "DateFrom:DSDATE DateTo:DSDATE",
            ins={"pAPI_DSec_AccID": _columns("AccountID:DSIDENTIFIER")},
            outs={"pAPI_DSec_IDList": "DealSecurityID:DSIDENTIFIER AccountID:DSIDENTIFIER"},
        ),
        _api(
            "API_DealSecurity_FindListByID",
            "DSec",
            ins={"pAPI_DealSecurity_ID": _columns("DealSecurityID:DSIDENTIFIER")},
            outs={"pAPI_DealSecurity_List": "DealSecurityID:DSIDENTIFIER ISIN:DSISIN Amount:DSMONEY"},
        ),
        _api(
            "API_Sec_FindByISIN",
            "Sec",
            "ISIN*:DSISIN",
            outs={"pAPI_Security_Info": "SecurityID:DSIDENTIFIER"},
        ),
        # a payment list whose payer account number can feed API_Acc_FindByNumber by type alone
        _api(
            "API_Pay_FindListByPeriod",
            "Pay",
            "DateFrom*:DSDATE DateTo*:DSDATE",
            outs={"pAPI_Payment_List": "PaymentID:DSIDENTIFIER PayerAccNumber:DSACCNUMBER Amount:DSMONEY"},
        ),
        # dropped by the funnel: not read-only by name / not approved
        _api("API_Acc_Close", "Acc", "AccountID*:DSIDENTIFIER", outs={"pAPI_Account_Closed": ACCOUNT}),
        _api(
            "API_Acc_FindHidden",
            "Acc",
            "PersonID*:DSIDENTIFIER",
            outs={"pAPI_Account_List": ACCOUNT},
            approved=False,
        ),
    ]


REST_OVERLAY = Overlay(
    when_to_use=["Получение остатка по счёту"],
    depends_on=[
        DeclaredSource(
            field="AccountID",
            producer_api="API_Acc_FindListByListOwnerID",
            producer_table="pAPI_Account_List",
            producer_field="AccountID",
        )
    ],
    source=Location(file="overlays/API_Acc_GetRest.md"),
)


def _build(config: BuildConfig | None = None, apis: list[Api] | None = None) -> Catalog:
    listed = apis if apis is not None else sample_bank()
    catalog = Catalog(source_kind="bank_html", apis={a.key: a for a in listed})
    return run_passes(catalog, config or bank_config(), overlays={"API_Acc_GetRest": REST_OVERLAY})


def _edges(catalog: Catalog, producer: str, consumer: str, field: str | None = None) -> list[Edge]:
    return [
        e
        for e in catalog.edges
        if e.producer == producer and e.consumer == consumer and (field is None or e.consumer_field == field)
    ]


def test_pass_list_is_ordered_and_named() -> None:
    assert [p.__name__ for p in PASSES] == [
        "overlays",
        "side_effects",
        "funnel",
        "types",
        "graph",
        "rest_edges",
        "co_usage",
        "entry_points",
        "vocabulary",
        "enrichment",
        "index",
    ]


def test_client_securities_chain_has_the_right_levels() -> None:
    catalog = _build(bank_config(aliases=[]))  # no alias rules: the description alone makes the alias
    [owner] = _edges(catalog, "API_Prs_FindListByFIO", "API_Acc_FindListByListOwnerID", "OwnerID")
    assert owner.level is EdgeLevel.ALIAS
    assert (owner.producer_table, owner.producer_field) == ("pAPI_Person_FindList", "PersonID")
    assert owner.consumer_table == "pAPI_Account_OwnerID" and "PersonID" in owner.reason
    [account] = _edges(catalog, "API_Acc_FindListByListOwnerID", "API_DSec_FindListIDByAccID", "AccountID")
    assert account.level is EdgeLevel.NAME_TYPE and account.consumer_table == "pAPI_DSec_AccID"
    [deal] = _edges(catalog, "API_DSec_FindListIDByAccID", "API_DealSecurity_FindListByID", "DealSecurityID")
    assert deal.level is EdgeLevel.NAME_TYPE and deal.domain_type == "DSIDENTIFIER"


def test_alias_rule_from_config_links_without_a_description() -> None:
    apis = sample_bank(owner_description="")
    without = _build(bank_config(aliases=[]), apis=sample_bank(owner_description=""))
    assert _edges(without, "API_Prs_FindListByFIO", "API_Acc_FindListByListOwnerID", "OwnerID") == []
    config = bank_config(aliases=[AliasRule(consumer_field="OwnerID", producer_field="PersonID")])
    [edge] = _edges(
        _build(config, apis=apis), "API_Prs_FindListByFIO", "API_Acc_FindListByListOwnerID", "OwnerID"
    )
    assert edge.level is EdgeLevel.ALIAS and "alias rule" in edge.reason


def test_declared_sources_win_over_weaker_levels_and_dangling_ones_are_warned() -> None:
    catalog = _build()
    [from_overlay] = _edges(catalog, "API_Acc_FindListByListOwnerID", "API_Acc_GetRest", "AccountID")
    assert from_overlay.level is EdgeLevel.DECLARED and "overlay" in from_overlay.reason
    [from_docs] = _edges(catalog, "API_Prs_FindListByFIO", "API_Prs_GetDocList", "PersonID")
    assert from_docs.level is EdgeLevel.DECLARED and "documentation" in from_docs.reason
    # not declared: the same kind of pair stays at name + type
    [other] = _edges(catalog, "API_Prs_FindListByINN", "API_Prs_GetDocList", "PersonID")
    assert other.level is EdgeLevel.NAME_TYPE
    dangling = [d for d in catalog.diagnostics if d.code is ReasonCode.DANGLING_REFERENCE]
    assert len(dangling) == 3 == catalog.stats["graph"]["declared_dangling"]
    texts = " | ".join(d.message for d in dangling)
    assert "API_Prs_Nowhere" in texts and "NoSuchField" in texts and "NoSuchInput" in texts
    assert all(d.location.file == "BObjects/Services/API_Prs_GetDocList.htm" for d in dangling)


def test_type_only_edges_use_specific_types_and_respect_the_cap() -> None:
    catalog = _build()
    [payer] = _edges(catalog, "API_Pay_FindListByPeriod", "API_Acc_FindByNumber", "AccNumber")
    assert payer.level is EdgeLevel.TYPE_ONLY and payer.domain_type == "DSACCNUMBER"
    assert payer.producer_field == "PayerAccNumber"
    type_only = [e for e in catalog.edges if e.level is EdgeLevel.TYPE_ONLY]
    assert type_only and all(not catalog.types[e.domain_type].generic for e in type_only)
    assert all(e.producer_field != e.consumer_field for e in type_only)
    capped = _build(bank_config(max_type_only_edges_per_field=0))
    assert [e for e in capped.edges if e.level is EdgeLevel.TYPE_ONLY] == []


def test_only_kept_apis_and_never_self_edges() -> None:
    catalog = _build()
    kept = {a.key for a in catalog.kept_apis()}
    assert "API_Acc_Close" not in kept and "API_Acc_FindHidden" not in kept
    assert all(e.producer in kept and e.consumer in kept for e in catalog.edges)
    assert all(e.producer != e.consumer for e in catalog.edges)
    # API_Acc_FindByID takes and returns AccountID: it feeds others, never itself
    assert _edges(catalog, "API_Acc_FindByID", "API_Acc_FindByID") == []
    assert _edges(catalog, "API_Acc_FindByID", "API_Acc_GetRest", "AccountID")


def test_one_edge_per_field_pair_at_its_best_level() -> None:
    catalog = _build()
    keys = [
        (e.producer, e.producer_table, e.producer_field, e.consumer, e.consumer_table, e.consumer_field)
        for e in catalog.edges
    ]
    assert len(keys) == len(set(keys))
    stats = catalog.stats["graph"]
    assert stats["edges"] == len(catalog.edges)
    assert sum(stats["by_level"].values()) == len(catalog.edges)
    assert stats["by_level"]["declared"] == sum(1 for e in catalog.edges if e.level is EdgeLevel.DECLARED)
    assert all(e.reason for e in catalog.edges)


def test_unfed_inputs_are_counted() -> None:
    catalog = _build()
    stats = catalog.stats["graph"]
    # SurName of FindListByFIO, INN of FindListByINN... nothing outputs a DateFrom: the payment list is unfed
    fed = {(e.consumer, e.consumer_field) for e in catalog.edges}
    assert ("API_Pay_FindListByPeriod", "DateFrom") not in fed
    assert stats["apis_with_unfed_inputs"] >= 1 and stats["unfed_required_inputs"] >= 2


def test_edge_order_is_deterministic_whatever_the_input_order() -> None:
    first = _build()
    shuffled = sample_bank()
    random.Random(7).shuffle(shuffled)
    second = _build(apis=shuffled)
    assert [e.model_dump() for e in first.edges] == [e.model_dump() for e in second.edges]
    assert first.edges == sorted(first.edges, key=edge_order)


def test_per_field_limit_keeps_own_object_then_producers_needing_fewer_inputs() -> None:
    apis = [
        _api("API_Zed_FindByXID", "Zed", "XID*:DSIDENTIFIER"),
        _api("API_A_FindAll", "A", outs={"pAPI_A": "XID:DSIDENTIFIER"}),
        _api("API_B_FindByCode", "B", "Code*:DSCODE", outs={"pAPI_B": "XID:DSIDENTIFIER"}),
        _api(
            "API_Zed_FindByPair",
            "Zed",
            "P*:DSIDENTIFIER Q*:DSIDENTIFIER",
            outs={"pAPI_Zed": "XID:DSIDENTIFIER"},
        ),
    ]

    def producers(limit: int | None) -> list[str]:
        config = bank_config(max_edges_per_consumer_field=limit)
        catalog = run_passes(
            Catalog(source_kind="bank_html", apis={a.key: a.model_copy(deep=True) for a in apis}), config
        )
        return sorted(e.producer for e in catalog.edges if e.consumer == "API_Zed_FindByXID")

    assert producers(None) == ["API_A_FindAll", "API_B_FindByCode", "API_Zed_FindByPair"]
    assert producers(1) == ["API_Zed_FindByPair"]
    assert producers(2) == ["API_A_FindAll", "API_Zed_FindByPair"]
    catalog = run_passes(
        Catalog(source_kind="bank_html", apis={a.key: a for a in apis}),
        bank_config(max_edges_per_consumer_field=1),
    )
    assert catalog.stats["graph"]["capped_fields"]["name_type"] == 1
    # the cap dropped the two others (A, B): counted from the index, without reading them
    assert catalog.stats["graph"]["capped_candidates"]["name_type"] == 2
    assert catalog.stats["graph"]["cap_per_field"]["name_type"] == 1


def test_a_dangling_source_the_parser_already_reported_is_not_reported_twice() -> None:
    apis = sample_bank()
    catalog = Catalog(source_kind="bank_html", apis={a.key: a for a in apis})
    catalog.add_diagnostic(
        Diagnostic(
            severity=Severity.WARNING,
            code=ReasonCode.DANGLING_REFERENCE,
            message="PersonID is declared to come from API_Prs_Nowhere, which has no page",
            location=Location(file="BObjects/Services/API_Prs_GetDocList.htm", anchor="API_Prs_GetDocList"),
        )
    )
    run_passes(catalog, bank_config())
    dangling = [d for d in catalog.diagnostics if d.code is ReasonCode.DANGLING_REFERENCE]
    assert sum("API_Prs_Nowhere" in d.message for d in dangling) == 1
    assert len(dangling) == 3 == catalog.stats["graph"]["declared_dangling"]


def test_run_passes_reports_progress_per_pass() -> None:
    lines: list[str] = []
    catalog = Catalog(source_kind="bank_html", apis={a.key: a for a in sample_bank()})
    run_passes(catalog, bank_config(), progress=lines.append)
    assert [line for line in lines if line.startswith("pass ")] == [f"pass {p.__name__}" for p in PASSES]
    assert any(line.startswith("funnel: 12 of 14 APIs kept") for line in lines)
