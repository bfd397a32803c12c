"""A request verb that is a kind the catalog creates (issue 18, chains): no write says "rebate", but ``POST
/rebates`` creates rebates; "Rebate the latest order of buyer b_…" orders that create, its optional
``order`` fed by the newest of the buyer's orders. A kind said as a noun ("Rebate status of …", "Rebates of
…") orders nothing."""

from __future__ import annotations

import pytest

from apiatlas.catalog.model import Api, Param
from apiatlas.planning.kind_verbs import created_kinds, kind_verbs
from apiatlas.planning.planner import Planner
from apiatlas.planning.twin_routes import under_parent
from apiatlas.snapshot import Snapshot
from test_plan_members import _of, _op
from test_plan_review_cases import _by_path
from test_rest_loose_ids import compiled_spec

ORDER = "{type: object, properties: {id: {type: string}, buyer: {type: string}, total: {type: integer}}}"
REBATE = "{type: object, properties: {id: {type: string}, order: {type: string}, status: {type: string}}}"
_ORDERS = "{type: object, properties: {has_more: {type: boolean}, data: {type: array, items: " + ORDER + "}}}"
_REBATES = _of("data", "{type: array, items: " + REBATE + "}")
SHOP = "openapi: 3.0.0\ninfo: {title: Shop, version: '1'}\npaths:\n" + "".join(
    [
        _op("/orders", "get", "Returns a list of orders", [("buyer", False)], _ORDERS),
        _by_path("/orders/{order}", "get", "Retrieve an order", "order", ORDER),
        _op("/rebates", "get", "Returns a list of rebates", [("order", False)], _REBATES),
        _op("/rebates", "post", "Create a rebate", [("order", False), ("reason", False)], REBATE)
        .replace("  /rebates:\n", "", 1),
        _by_path("/rebates/{rebate}", "get", "Retrieve a rebate", "rebate", REBATE),
        _op("/buyers", "get", "Returns a list of buyers", [("email", False)], _of("data", "{type: array}")),
        _by_path("/buyers/{buyer}", "get", "Retrieve a buyer", "buyer", ORDER),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "kind_verbs_shop", SHOP)


def test_a_created_kind_said_as_a_verb_orders_its_create(shop: Snapshot) -> None:
    result = Planner(shop, allow=None).plan("Rebate the latest order of buyer byr_8f3Ka92Lq")
    assert result.chains and result.chains[0].api_keys == ["GET /orders", "POST /rebates"]
    fed = next(i for i in result.chains[0].steps[1].inputs if i.name == "order")
    assert fed.from_step == 0 and fed.from_field == "data[].id" and fed.pick_first


def test_a_created_kind_said_as_a_noun_orders_nothing(shop: Snapshot) -> None:
    result = Planner(shop, allow=None).plan("Rebates of order ord_8f3Ka92Lq")
    assert result.chains and all(k.startswith("GET ") for k in result.chains[0].api_keys)


def test_which_kinds_are_created_and_said_as_verbs() -> None:
    keys = ["POST /rebates", "POST /orders/{order}/notes", "POST /rebates/{rebate}", "GET /orders"]
    assert created_kinds(keys, {"rebate", "order", "note"}) == {
        "rebate": ["POST /rebates"], "note": ["POST /orders/{order}/notes"]
    }  # fmt: skip
    create = Api(
        key="POST /rebates", object_key="x", title="Create", params=[Param(name="order"), Param(name="memo")]
    )
    said = {"rebate": ["POST /rebates"]}
    apis = {create.key: create}.get
    kinds = {"rebate", "order", "note"}
    assert kind_verbs("Rebate the latest order", said, apis, kinds) == {"rebate"}
    assert kind_verbs("Show the order and rebate it", said, apis, kinds) == frozenset()  # no determiner
    assert kind_verbs("Rebate status of order o_1", said, apis, kinds) == frozenset()
    assert kind_verbs("Find the order, then rebate the order", said, apis, kinds) == {"rebate"}
    assert kind_verbs("Rebate the orders by date", said, apis, kinds) == frozenset()  # no one thing
    assert kind_verbs("Rebate the memo", said, apis, kinds) == frozenset()  # a field, no kind
    assert kind_verbs("Rebate the note", said, apis, kinds) == frozenset()  # a kind the create takes not


BUYER = "{type: object, properties: {id: {type: string}, email: {type: string}}}"


def _page(item: str) -> str:
    return _of("data", "{type: array, items: " + item + "}")


REPORT = "{type: object, properties: {id: {type: string}, kind: {type: string}}}"
ORDERING = "openapi: 3.0.0\ninfo: {title: Shop, version: '1'}\npaths:\n" + "".join(
    [
        _op("/orders", "get", "Returns a list of orders", [("buyer", False)], _ORDERS),
        _op("/orders", "post", "Create an order", [("buyer", False)], ORDER).replace("  /orders:\n", "", 1),
        _by_path("/orders/{order}", "get", "Retrieve an order", "order", ORDER),
        _op("/buyers", "get", "Returns a list of buyers", [("email", False)], _page(BUYER)),
        _by_path("/buyers/{buyer}", "get", "Retrieve a buyer", "buyer", BUYER),
        _op("/reports", "get", "Returns a list of reports", [], _page(REPORT)),
        _op("/reports", "post", "Create a report", [("kind", False)], REPORT).replace("  /reports:\n", "", 1),
        _by_path("/reports/{report}", "get", "Retrieve a report", "report", REPORT),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def ordering(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "kind_verbs_ordering", ORDERING)


@pytest.mark.parametrize(
    "request_text",
    ["Order the buyers by email", "Order the list of buyers", "Report the latest order", "Order the reports"],
)
def test_a_verb_only_sharing_a_created_kind_s_word_orders_no_create(
    ordering: Snapshot, request_text: str
) -> None:
    result = Planner(ordering, allow=None).plan(request_text)
    assert all(k.startswith("GET ") for c in result.chains for k in c.api_keys)


def test_a_created_kind_said_as_a_verb_on_a_thing_it_takes(ordering: Snapshot) -> None:
    result = Planner(ordering, allow=None).plan("Order the buyer byr_8f3Ka92Lq")
    assert result.chains and result.chains[0].api_keys[-1] == "POST /orders"


NESTED = SHOP + "".join(
    [
        _by_path("/orders/{order}/rebates", "post", "Create a rebate", "order", REBATE),
    ]
)


@pytest.fixture(scope="module")
def nested(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "kind_verbs_nested", NESTED)


def test_a_write_ends_at_its_own_route_not_the_same_under_a_parent(nested: Snapshot) -> None:
    result = Planner(nested, allow=None).plan("Rebate the latest order of buyer byr_8f3Ka92Lq")
    assert result.chains and result.chains[0].api_keys == ["GET /orders", "POST /rebates"]
    assert under_parent("POST /orders/{order}/rebates", "POST /rebates")
    assert under_parent("DELETE /v1/users/{user}/plans/{plan}", "DELETE /v1/plans/{plan}")
    assert not under_parent("GET /orders/{order}/rebates", "POST /rebates")
    assert not under_parent("POST /orders/{order}", "POST /")  # nothing left after the pair
