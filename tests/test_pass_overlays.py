"""The overlays pass: merged over their APIs, dependencies become declared sources, unmatched are warned."""

from __future__ import annotations

from apiatlas.catalog.model import Api, Catalog, DeclaredSource, Overlay
from apiatlas.errors import Location, ReasonCode, Severity
from apiatlas.passes.overlays import merge_overlays


def _catalog() -> Catalog:
    docs_source = DeclaredSource(
        field="AccountID", producer_api="API_Acc_FindByNumber", producer_field="AccountID"
    )
    apis = [
        Api(key="API_Acc_GetRest", object_key="Acc", declared_sources=[docs_source]),
        Api(key="API_Acc_FindByID", object_key="Acc"),
    ]
    return Catalog(apis={a.key: a for a in apis})


def _rest_overlay() -> Overlay:
    return Overlay(
        when_to_use=["Получение остатка по счёту"],
        important=["Отличие от API_Acc_FindByID: FindByID возвращает справочные данные, GetRest — остаток"],
        depends_on=[
            DeclaredSource(
                field="AccountID",
                producer_api="API_Acc_FindListByListOwnerID",
                producer_table="pAPI_Account_List",
                producer_field="AccountID",
            ),
            # the same source the documentation already declares: not added twice
            DeclaredSource(
                field="AccountID", producer_api="API_Acc_FindByNumber", producer_field="AccountID"
            ),
        ],
        source=Location(file="overlays/API_Acc_GetRest.md"),
    )


def test_overlay_is_merged_and_its_dependencies_become_declared_sources() -> None:
    catalog = _catalog()
    merge_overlays(catalog, {"API_Acc_GetRest": _rest_overlay()})
    api = catalog.apis["API_Acc_GetRest"]
    assert api.overlay is not None and api.overlay.when_to_use == ["Получение остатка по счёту"]
    assert [(s.producer_api, s.producer_table) for s in api.declared_sources] == [
        ("API_Acc_FindByNumber", None),
        ("API_Acc_FindListByListOwnerID", "pAPI_Account_List"),
    ]
    assert catalog.stats["overlays"] == {"given": 1, "merged": 1, "unmatched": 0, "declared_sources_added": 1}
    assert catalog.apis["API_Acc_FindByID"].overlay is None
    assert catalog.diagnostics == []


def test_overlay_for_an_unknown_api_is_a_located_warning() -> None:
    catalog = _catalog()
    stray = Overlay(when_to_use=["never"], source=Location(file="overlays/API_Acc_Nope.md"))
    merge_overlays(catalog, {"API_Acc_Nope": stray, "API_Acc_GetRest": _rest_overlay()})
    assert catalog.stats["overlays"]["unmatched"] == 1
    assert catalog.stats["overlays"]["merged"] == 1
    [diag] = catalog.diagnostics
    assert diag.code is ReasonCode.OVERLAY_UNMATCHED and diag.severity is Severity.WARNING
    assert diag.location.file == "overlays/API_Acc_Nope.md" and diag.location.anchor == "API_Acc_Nope"


def test_overlay_key_matches_case_insensitively() -> None:
    catalog = _catalog()
    merge_overlays(catalog, {"api_acc_findbyid": Overlay(important=["справочные данные"])})
    assert catalog.apis["API_Acc_FindByID"].overlay is not None
    assert catalog.stats["overlays"]["unmatched"] == 0
