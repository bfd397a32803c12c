"""The entry-points pass: kept APIs whose required inputs are all values a user can say."""

from __future__ import annotations

from apiatlas.catalog.model import Api, Catalog, Column, Direction, Param, SessionTable
from apiatlas.passes import run_passes
from apiatlas.passes.config import BuildConfig
from apiatlas.passes.entry_points import blocking_inputs


def bank_config(**changes: object) -> BuildConfig:
    """The sample bank's build defaults (its format's), with ``changes``."""
    return BuildConfig.for_source("bank_html").model_copy(update=changes)


def _api(key: str, params: list[Param], tables: list[SessionTable] | None = None, **flags: bool) -> Api:
    return Api(
        key=key,
        object_key=key.split("_")[1],
        params=params,
        input_tables=tables or [],
        approved=flags.get("approved", True),
        implemented=True,
        forbidden=False,
    )


def _catalog() -> Catalog:
    owner_table = SessionTable(
        name="pAPI_Account_OwnerID",
        direction=Direction.IN,
        columns=[Column(name="OwnerID", domain_type="DSIDENTIFIER")],
    )
    isin_table = SessionTable(
        name="pAPI_Sec_ISIN", direction=Direction.IN, columns=[Column(name="ISIN", domain_type="DSISIN")]
    )
    apis = [
        _api(
            "API_Prs_FindListByFIO",
            [
                Param(name="SurName", domain_type="DSVARFULLNAME", required=True),
                Param(name="FirstName", domain_type="DSVARNAME"),
                Param(name="BirthDate", domain_type="DSDATE"),
            ],
        ),
        _api("API_Prs_FindByID", [Param(name="PersonID", domain_type="DSIDENTIFIER", required=True)]),
        # an optional identifier does not block: the user can call it with the account number alone
        _api(
            "API_Acc_FindByNumber",
            [
                Param(name="AccNumber", domain_type="DSACCNUMBER", required=True),
                Param(name="BranchID", domain_type="DSIDENTIFIER"),
            ],
        ),
        _api(
            "API_Acc_FindListByListOwnerID",
            [Param(name="OnlyOpenFlag", domain_type="DSTINYINT")],
            [owner_table],
        ),
        _api("API_Sec_FindListByISIN", [], [isin_table]),
        _api("API_Cur_GetList", []),  # nothing to say at all
        _api(
            "API_Prs_FindDraft",
            [Param(name="SurName", domain_type="DSVARFULLNAME", required=True)],
            approved=False,
        ),
    ]
    return run_passes(Catalog(source_kind="bank_html", apis={a.key: a for a in apis}), bank_config())


def test_entry_points_are_callable_from_user_values() -> None:
    catalog = _catalog()
    entry = sorted(a.key for a in catalog.apis.values() if a.entry_point)
    assert entry == [
        "API_Acc_FindByNumber",
        "API_Cur_GetList",
        "API_Prs_FindListByFIO",
        "API_Sec_FindListByISIN",
    ]
    assert not catalog.apis["API_Prs_FindByID"].entry_point
    assert not catalog.apis["API_Prs_FindDraft"].entry_point  # dropped by the funnel
    assert catalog.stats["entry_points"] == {"entry_points": 4, "without_required_inputs": 1, "kept_apis": 6}


def test_blocking_inputs_name_what_must_come_from_another_api() -> None:
    catalog = _catalog()
    config = bank_config()
    assert blocking_inputs(catalog.apis["API_Prs_FindByID"], catalog, config) == ["PersonID"]
    owner = catalog.apis["API_Acc_FindListByListOwnerID"]
    assert blocking_inputs(owner, catalog, config) == ["pAPI_Account_OwnerID.OwnerID"]


def test_user_value_types_come_from_the_config() -> None:
    config = bank_config(user_value_types=["DSIDENTIFIER"])
    apis = _catalog().apis
    for api in apis.values():
        api.entry_point = False
    catalog = run_passes(Catalog(source_kind="bank_html", apis=apis), config)
    assert catalog.apis["API_Prs_FindByID"].entry_point
    assert not catalog.apis["API_Prs_FindListByFIO"].entry_point  # DSVARFULLNAME no longer a user value
