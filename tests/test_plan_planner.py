"""The planner on a small shop catalog with cycles, and on the compiled sample bank."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiatlas.build import compile_docs, default_overlays_dir
from apiatlas.catalog.model import Api, Catalog, Column, Direction, Edge, EdgeLevel, Param
from apiatlas.catalog.model import SessionTable as Table
from apiatlas.errors import ReasonCode
from apiatlas.executors.chain import validate_chain
from apiatlas.planning.entities import tie_note
from apiatlas.planning.model import CandidateChain, PlannedStep
from apiatlas.planning.planner import PlanLimits, Planner
from apiatlas.snapshot import Snapshot, write_snapshot
from plan_catalogs import catalog_of, http_get

BANK_DOCS = Path(__file__).resolve().parents[1] / "examples" / "bank" / "docs"
BANK_CONFIG = BANK_DOCS.parent / "apiatlas.yaml"


def _out(name: str, *columns: str) -> Table:
    return Table(
        name=name,
        direction=Direction.OUT,
        columns=[
            Column(name=c, domain_type="DSIDENTIFIER" if c.endswith("ID") else "DSVARCHAR") for c in columns
        ],
    )


def _edge(
    producer: str, table: str, field: str, consumer: str, level: EdgeLevel = EdgeLevel.NAME_TYPE
) -> Edge:
    return Edge(
        producer=producer, producer_table=table, producer_field=field, consumer=consumer,
        consumer_field=field, domain_type="DSIDENTIFIER", level=level, reason="test",
    )  # fmt: skip


def shop_catalog() -> Catalog:
    """Customers and orders; orders point back at customers, so the graph has cycles."""
    ident = "DSIDENTIFIER"
    apis = [
        Api(key="Cust_FindByName", object_key="Cust", title="Find customers by name",
            params=[Param(name="Name", domain_type="string", required=True)],
            output_tables=[_out("Customers", "CustomerID", "Name")]),
        Api(key="Cust_FindByID", object_key="Cust", title="Customer card by ID",
            params=[Param(name="CustomerID", domain_type=ident, required=True)],
            output_tables=[_out("CustomerCard", "CustomerID", "Name", "Phone")]),
        Api(key="Order_ListByCustomer", object_key="Order", title="Orders of a customer",
            params=[Param(name="CustomerID", domain_type=ident, required=True)],
            output_tables=[_out("Orders", "OrderID", "CustomerID", "Total")]),
        Api(key="Order_GetInfo", object_key="Order", title="Order status and delivery details",
            params=[Param(name="OrderID", domain_type=ident, required=True)],
            output_tables=[_out("OrderInfo", "OrderID", "CustomerID", "Status", "Delivery")]),
    ]  # fmt: skip
    catalog = catalog_of(apis)
    catalog.edges = [
        _edge("Cust_FindByName", "Customers", "CustomerID", "Order_ListByCustomer"),
        _edge("Cust_FindByName", "Customers", "CustomerID", "Cust_FindByID"),
        _edge("Order_ListByCustomer", "Orders", "OrderID", "Order_GetInfo"),
        _edge("Order_GetInfo", "OrderInfo", "CustomerID", "Order_ListByCustomer"),  # cycle
        _edge("Order_GetInfo", "OrderInfo", "CustomerID", "Cust_FindByID"),
        _edge("Cust_FindByID", "CustomerCard", "CustomerID", "Order_ListByCustomer"),  # cycle
        _edge("Order_ListByCustomer", "Orders", "CustomerID", "Cust_FindByID", EdgeLevel.TYPE_ONLY),
    ]
    return catalog


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    path = tmp_path_factory.mktemp("plan_shop") / "shop.atlas"
    write_snapshot(shop_catalog(), path, options={"source": "test"})
    return Snapshot.open(path)


def test_cycles_in_the_graph_end_in_a_simple_chain(shop: Snapshot) -> None:
    # the chain's shape is the point here, not how sure the shipped model is of it (test_plan_confidence)
    result = Planner(shop, confidence=None).plan("delivery status of the orders of customer Smith")
    best = result.chains[0]
    assert best.api_keys == ["Cust_FindByName", "Order_ListByCustomer", "Order_GetInfo"]
    assert result.status == "ok" and not best.missing
    for chain in result.chains:
        assert len(set(chain.api_keys)) == len(chain.api_keys)  # no API twice: no cycle
    name = best.steps[0].inputs[0]
    assert (name.name, name.origin, name.value) == ("Name", "request", "Smith")
    mapped = best.steps[2].inputs[0]
    assert (mapped.origin, mapped.from_step, mapped.from_table, mapped.from_field) == (
        "step", 1, "Orders", "OrderID"
    )  # fmt: skip
    assert mapped.level == "name_type" and 0 < best.confidence <= 1


def test_an_entry_value_not_in_the_request_is_what_to_ask_the_user(shop: Snapshot) -> None:
    result = Planner(shop).plan("delivery status of the orders of a customer")
    best = result.chains[0]
    assert best.api_keys[-1] == "Order_GetInfo"
    assert (result.status, result.reason) == ("partial", ReasonCode.MISSING_REQUIRED_INPUT)
    assert best.missing == [f"{best.entry_point}.{best.steps[0].inputs[0].name}"]
    assert best.steps[0].inputs[0].origin == "user"
    assert best.missing[0] in result.message
    # without the value, the step has no argument; with it, the steps pass the chain's checks
    assert best.chain_steps()[0].args == {}
    asked = best.steps[0].inputs[0]
    filled = best.chain_steps({best.missing[0]: 7 if asked.domain_type == "DSIDENTIFIER" else "Smith"})
    apis = validate_chain(filled, shop.get_api)
    assert [a.key for a in apis] == best.api_keys


def test_a_known_value_and_a_named_target(shop: Snapshot) -> None:
    result = Planner(shop).plan(target="Order_GetInfo", known={"CustomerID": 7})
    best = result.chains[0]
    assert best.api_keys == ["Order_ListByCustomer", "Order_GetInfo"]
    assert best.steps[0].inputs[0].origin == "known" and not best.missing
    steps = best.chain_steps()
    assert steps[0].args == {"CustomerID": 7}
    assert steps[1].param_mapping["OrderID"].source_step == 0
    assert steps[1].on_many == "each"  # one call per order of the customer


def test_unknown_target_and_bounded_work(shop: Snapshot) -> None:
    missing = Planner(shop).plan("x", target="Nope_Nothing")
    assert (missing.status, missing.reason) == ("error", ReasonCode.UNKNOWN_API)
    short = Planner(shop, PlanLimits(max_steps=2)).plan("delivery status of the orders of customer Smith")
    assert short.chains and all(len(c.steps) <= 2 for c in short.chains)


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    out = tmp_path_factory.mktemp("plan_bank") / "bank.atlas"
    compile_docs(
        BANK_DOCS,
        overlays_dir=default_overlays_dir(BANK_DOCS),
        config_path=BANK_CONFIG,  # the bank's words for its names ("balance": its Rest)
        out=out,
        write_report=False,
    )
    return Snapshot.open(out)


def test_mikhalov_deals_are_planned_from_the_request_alone(bank: Snapshot) -> None:
    result = Planner(bank).plan("сделки клиента Михалова по ценным бумагам")
    best = result.chains[0]
    assert best.api_keys == [
        "API_Prs_FindListByFIO", "API_Acc_FindListByListOwnerID",
        "API_DSec_FindListIDByAccID", "API_DealSecurity_FindListByID",
    ]  # fmt: skip
    steps = best.chain_steps()
    assert steps[0].args == {"SurName": "Михалов"}
    owner = steps[1].input_table_mapping["pAPI_Account_OwnerID"]
    assert (owner.source_step, owner.source_table, owner.column_mapping) == (
        0, "pAPI_Person_FindList", {"OwnerID": "PersonID"}
    )  # fmt: skip
    validate_chain(steps, bank.get_api)
    assert result.elapsed_ms > 0


def test_balance_of_each_account_fans_out(bank: Snapshot) -> None:
    best = Planner(bank).plan("остаток на счетах Михалова").chains[0]
    assert best.api_keys == ["API_Prs_FindListByFIO", "API_Acc_FindListByListOwnerID", "API_Acc_GetRest"]
    last = best.chain_steps()[-1]
    assert last.on_many == "each" and last.param_mapping["AccountID"].column == "AccountID"


def test_whose_account_continues_to_the_owner(bank: Snapshot) -> None:
    best = Planner(bank).plan("кому принадлежит счёт 40817810600012000023, его имя и телефон").chains[0]
    assert best.api_keys == ["API_Acc_FindByNumber", "API_Prs_FindByID"]


def test_hops_follow_identifiers_not_shared_attributes(bank: Snapshot) -> None:
    # the account's branch code would lead to every employee of the branch; its owner id to the owner
    owner = Planner(bank).plan("whose account is 40817810600012000023").chains[0]
    assert owner.api_keys == ["API_Acc_FindByNumber", "API_Prs_FindByID"]
    # the deal names its security by id and by ISIN: the id is the way to the security
    issuer = Planner(bank).plan("эмитент бумаги из сделки DS-20251124-00011").chains[0]
    assert issuer.api_keys[-1] == "API_Sec_FindByID"


def test_a_passport_is_an_identity_document(bank: Snapshot) -> None:
    best = Planner(bank).plan("passport of customer Mikhalov (Михалов)").chains[0]
    assert best.api_keys == ["API_Prs_FindListByFIO", "API_Prs_GetDocList"]
    owner = Planner(bank).plan("паспорт владельца счёта 40817810600012000023").chains[0]
    assert owner.api_keys == ["API_Acc_FindByNumber", "API_Prs_GetDocList"]


def test_an_english_balance_is_the_rest_of_an_account(bank: Snapshot) -> None:
    best = Planner(bank).plan("what is the balance on the accounts of Mikhalov (Михалов)").chains[0]
    assert best.api_keys == ["API_Prs_FindListByFIO", "API_Acc_FindListByListOwnerID", "API_Acc_GetRest"]


def test_an_acronym_the_catalog_uses_is_a_word_not_a_name(bank: Snapshot) -> None:
    plan = Planner(bank).plan("какие SMS получал Михалов")
    assert [(x.kind, x.value) for x in plan.values] == [("surname", "Михалов")]
    assert plan.chains[0].api_keys == ["API_Prs_FindListByFIO", "API_Ntf_FindListByPersonID"]
    # an acronym no card uses is still a stated name
    assert ("entity", "QWZX") in [(x.kind, x.value) for x in Planner(bank).plan("accounts of QWZX").values]


def _chain(*apis: str, score: float) -> CandidateChain:
    steps = [PlannedStep(api=a) for a in apis]
    return CandidateChain(steps=steps, score=score, entry_point=apis[0], target=apis[-1], confidence=1.0)


@pytest.fixture(scope="module")
def two_albums(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    """One person search feeding two photo lists that nothing in a request tells apart."""
    apis = [
        http_get("GET /search/person", "query", "out", "results[].id", title="Search People"),
        *(
            http_get(f"GET /person/{{person_id}}/{side}_photos", "person_id", "out", "photos[].path",
                     title="Get Photos")
            for side in ("x", "y")
        ),
    ]  # fmt: skip
    catalog = catalog_of(apis)
    catalog.edges = [
        Edge(producer="GET /search/person", producer_table="out", producer_field="results[].id",
             consumer=f"GET /person/{{person_id}}/{side}_photos", consumer_field="person_id",
             domain_type="integer", level=EdgeLevel.ALIAS, reason="test")
        for side in ("x", "y")
    ]  # fmt: skip
    path = tmp_path_factory.mktemp("albums") / "albums.atlas"
    write_snapshot(catalog, path, options={"source": "test"})
    return Snapshot.open(path)


def test_two_targets_scoring_almost_the_same_are_both_named(two_albums: Snapshot) -> None:
    plan = Planner(two_albums).plan("photos of Keanu Reeves")
    assert "may mean either" in plan.message
    assert plan.chains[1].target in plan.message and plan.chains[1].target != plan.chains[0].target
    near = [_chain("A", "B", score=4.2976), _chain("A", "C", score=4.2969)]
    assert "ending at C" in tie_note(near)
    assert tie_note([near[0], _chain("A", "C", score=4.2)]) == ""  # a clear winner
    assert tie_note([near[0], _chain("A", "X", "B", score=4.2976)]) == ""  # the same target by another path
    assert tie_note([_chain("A", "B", "D", score=4.2976), near[0]]) == ""  # chain 2 is a prefix of chain 1
