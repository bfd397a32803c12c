"""The funnel pass: stage-by-stage counts, verdicts and config-driven rules."""

from __future__ import annotations

import itertools

from apiatlas.catalog.model import Api, BusinessObject, Catalog, FunnelVerdict, SideEffect
from apiatlas.passes.config import BuildConfig, FunnelRule
from apiatlas.passes.funnel import apply_funnel


def bank_config(**changes: object) -> BuildConfig:
    """The sample bank's build defaults (its format's), with ``changes``."""
    return BuildConfig.for_source("bank_html").model_copy(update=changes)


def _api(
    key: str,
    obj: str,
    *,
    approved: bool | None = True,
    implemented: bool | None = True,
    forbidden: bool | None = False,
    side_effect: SideEffect = SideEffect.READ,
) -> Api:
    return Api(
        key=key,
        object_key=obj,
        approved=approved,
        implemented=implemented,
        forbidden=forbidden,
        side_effect=side_effect,
    )


def _catalog() -> Catalog:
    apis = [
        _api("API_Prs_FindListByFIO", "Prs"),
        _api("API_Prs_GetDocList", "Prs"),
        _api("API_Acc_CheckOwner", "Acc"),
        _api("API_Acc_BrowsList", "Acc"),
        _api("API_Acc_Close", "Acc", side_effect=SideEffect.WRITE),  # name stage
        _api("API_Acc_Insert", "Acc", side_effect=SideEffect.WRITE),  # name stage
        _api("API_Acc_FindOld", "Acc", approved=False),  # visa stage
        _api("API_Acc_FindDraft", "Acc", approved=None),  # visa unknown: not approved
        _api("API_Dep_GetPlan", "Dep", implemented=False),  # implemented stage
        _api("API_Dep_FindSecret", "Dep", forbidden=True),  # forbidden stage
        _api("API_Dep_FindUnknownBan", "Dep", forbidden=None),  # unknown ban: allowed
        _api("sp_internal_Find", "Sys"),  # name stage (not an API_ name)
    ]
    objects = {k: BusinessObject(key=k, approved=True) for k in ("Prs", "Acc", "Dep", "Sys", "Empty")}
    return Catalog(source_kind="bank_html", apis={a.key: a for a in apis}, objects=objects)


def test_default_stages_count_in_and_out() -> None:
    catalog = _catalog()
    apply_funnel(catalog, bank_config())
    stages = catalog.stats["funnel"]
    assert [s["stage"] for s in stages] == ["name", "approved", "implemented", "forbidden"]
    assert [(s["in"], s["out"]) for s in stages] == [(12, 9), (9, 7), (7, 6), (6, 5)]
    for before, after in itertools.pairwise(stages):
        assert after["in"] == before["out"]
    kept = [a.key for a in catalog.kept_apis()]
    assert kept == sorted(
        [
            "API_Prs_FindListByFIO",
            "API_Prs_GetDocList",
            "API_Acc_CheckOwner",
            "API_Acc_BrowsList",
            "API_Dep_FindUnknownBan",
        ]
    )
    assert stages[-1]["out"] == len(kept)


def test_verdicts_name_the_stage_and_reason() -> None:
    catalog = _catalog()
    apply_funnel(catalog, bank_config())
    draft = catalog.apis["API_Acc_FindDraft"].funnel
    assert not draft.kept and draft.dropped_at == "approved"
    assert draft.reason is not None and "unknown" in draft.reason
    assert catalog.apis["API_Acc_Close"].funnel.dropped_at == "name"
    assert catalog.apis["API_Dep_FindSecret"].funnel.dropped_at == "forbidden"
    assert catalog.apis["API_Prs_FindListByFIO"].funnel.kept


def test_objects_without_kept_apis_are_counted() -> None:
    catalog = _catalog()
    apply_funnel(catalog, bank_config())
    objects = catalog.stats["funnel_objects"]
    # Sys has only a dropped API, Empty has none at all
    assert objects == {"total": 5, "approved": 5, "with_kept_apis": 3, "without_kept_apis": 2}


def test_rules_come_from_the_config_not_from_the_code() -> None:
    catalog = _catalog()
    config = bank_config(
        funnel=[
            FunnelRule(name="writes", field="side_effect", operator="in", value=["write", "destructive"]),
            FunnelRule(name="not_insert", field="key", operator="not_equals", value="API_Acc_Insert"),
        ]
    )
    apply_funnel(catalog, config)
    assert [a.key for a in catalog.kept_apis()] == ["API_Acc_Close"]
    assert [(s["in"], s["out"]) for s in catalog.stats["funnel"]] == [(12, 2), (2, 1)]
    assert catalog.apis["API_Prs_FindListByFIO"].funnel.dropped_at == "writes"


def test_rerun_resets_earlier_verdicts() -> None:
    catalog = _catalog()
    apply_funnel(
        catalog, bank_config(funnel=[FunnelRule(name="none", field="key", operator="equals", value="")])
    )
    assert catalog.kept_apis() == []
    apply_funnel(catalog, bank_config(funnel=[]))
    assert len(catalog.kept_apis()) == 12
    assert catalog.stats["funnel"] == []


def test_apis_with_the_same_verdict_share_one_and_dump_as_their_own() -> None:
    catalog = _catalog()
    apply_funnel(catalog, bank_config())
    apis = list(catalog.apis.values())
    for a, b in itertools.combinations(apis, 2):
        same = (a.funnel.kept, a.funnel.dropped_at, a.funnel.reason) == (
            b.funnel.kept,
            b.funnel.dropped_at,
            b.funnel.reason,
        )
        assert (a.funnel is b.funnel) == same
    assert sum(a.funnel.kept for a in apis) >= 2
    for api in apis:
        own = FunnelVerdict(kept=api.funnel.kept, dropped_at=api.funnel.dropped_at, reason=api.funnel.reason)
        assert api.funnel.model_dump_json() == own.model_dump_json()
