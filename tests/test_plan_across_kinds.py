"""A word in another script than the catalog's, naming a kind of thing (issue 18, chains): the search's
bridge may read it as a nearer word of the catalog that names no kind («клиента»: "client", of a
"client secret"), while one of the catalog's kinds is a translation of it too ("customer"): the planner
reads it as that kind, so an id said after it is one of that kind and the write to that kind is the one
the verb orders."""

from __future__ import annotations

import pytest

from apiatlas.planning.planner import Planner
from apiatlas.snapshot import Snapshot
from test_plan_members import OK, _of, _op
from test_plan_review_cases import _by_path
from test_rest_loose_ids import compiled_spec

BUYER = "{type: object, properties: {id: {type: string}, email: {type: string}}}"
SESSION = "{type: object, properties: {id: {type: string}, client_secret: {type: string}}}"
SHOP = "openapi: 3.0.0\ninfo: {title: Shop, version: '1'}\npaths:\n" + "".join(
    [
        _op("/customers", "get", "List customers", [], _of("data", "{type: array, items: " + BUYER + "}")),
        _by_path("/customers/{customer}", "get", "Retrieve a customer", "customer", BUYER),
        _by_path("/customers/{customer}", "delete", "Delete a customer", "customer", OK)
        .replace("  /customers/{customer}:\n", "", 1),
        _by_path("/products/{id}", "delete", "Delete a product", "id", OK),
        _by_path("/coupons/{coupon}", "delete", "Delete a coupon", "coupon", OK),
        _op("/sessions", "post", "Create a session for a client application, with its client secret",
            [("customer", False)], SESSION),
        _op("/client_keys", "post", "Create a client key", [], SESSION),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "across_kinds_shop", SHOP)


def test_a_foreign_word_is_read_as_the_kind_it_translates(shop: Snapshot) -> None:
    planner = Planner(shop, allow=None)
    result = planner.plan("удали клиента cst_8f3Ka92Lq")
    assert result.chains and result.chains[0].api_keys == ["DELETE /customers/{customer}"]
    value = next(x for x in result.values if x.text == "cst_8f3Ka92Lq")
    assert value.hint == "customer"
