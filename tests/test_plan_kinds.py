"""What a value says about the API that takes it: a deal number's letter prefix names the kind of deal."""

from __future__ import annotations

import pytest

from apiatlas.catalog.model import Api, BusinessObject, Catalog, Column, Direction, Param, SessionTable
from apiatlas.planning import values as v
from apiatlas.planning.draft import code_fit
from apiatlas.planning.planner import Planner
from apiatlas.snapshot import Snapshot, write_snapshot


def _lookup(key: str, object_key: str, title: str) -> Api:
    return Api(
        key=key, object_key=object_key, title=title,
        params=[Param(name="DealNumber", domain_type="DSDEALNUMBER", required=True)],
        output_tables=[SessionTable(name=f"{key}_Info", direction=Direction.OUT, columns=[
            Column(name="DealID", domain_type="DSIDENTIFIER"), Column(name="Amount", domain_type="DSMONEY"),
        ])],
    )  # fmt: skip


LOOKUPS = [
    _lookup("API_DRepo_FindByNumber", "DRepo", "Find a deal by its number"),
    _lookup("API_DealSecurity_FindByNumber", "DSec", "Find a deal by its number"),
    _lookup("API_DFx_FindByNumber", "DFx", "Find a deal by its number"),
]


def test_a_number_with_a_letter_prefix_carries_it_as_a_hint() -> None:
    [deal] = extract = v.extract_values("история сделки DS-20251205-00003")
    assert (deal.kind, deal.hint) == (v.DOC_NUMBER, v.CODE_HINT + "DS"), extract
    [plain] = v.extract_values("филиал № 125")
    assert (plain.kind, plain.hint) == (v.DOC_NUMBER, "")


@pytest.mark.parametrize(
    ("prefix", "fits"),
    [
        ("DS", "API_DealSecurity_FindByNumber"),
        ("DR", "API_DRepo_FindByNumber"),
        ("FX", "API_DFx_FindByNumber"),
    ],
)
def test_the_prefix_abbreviates_the_object_or_the_name_of_one_lookup(prefix: str, fits: str) -> None:
    scores = {api.key: code_fit(prefix, api) for api in LOOKUPS}
    assert scores[fits] == 1.0
    assert all(score < 0 for key, score in scores.items() if key != fits)


@pytest.fixture(scope="module")
def deals(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    catalog = Catalog(source_kind="test")
    for api in LOOKUPS:
        catalog.apis[api.key] = api
        catalog.objects.setdefault(api.object_key, BusinessObject(key=api.object_key)).api_keys.append(
            api.key
        )
    path = tmp_path_factory.mktemp("deals") / "deals.apiatlas"
    write_snapshot(catalog, path, options={"source": "test"})
    return Snapshot.open(path)


@pytest.mark.parametrize(
    ("number", "entry"),
    [("DS-20251124-00011", "API_DealSecurity_FindByNumber"), ("FX-20251124-00002", "API_DFx_FindByNumber")],
)
def test_the_deal_kind_the_prefix_names_is_looked_up(deals: Snapshot, number: str, entry: str) -> None:
    result = Planner(deals).plan(f"deal {number}")
    assert result.chains[0].entry_point == entry
    assert result.chains[0].steps[0].inputs[0].value == number
