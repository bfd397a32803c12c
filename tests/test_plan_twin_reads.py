"""A read at its own route that takes the parent's key as a filter, beside the same read under the parent
(issue 18, chains): ``GET /rebates?order=`` and ``GET /orders/{order}/rebates``; and an id said after a kind
in two words fills the input named for both ("payment box pb_…" into ``payment_box``). "Show the rebates of
the orders of payment box pb_…" reads the rebates filtered by the box."""

from __future__ import annotations

import pytest

from apiatlas.catalog.model import Api, Param
from apiatlas.planning.planner import Planner
from apiatlas.planning.twin_routes import own_reads
from apiatlas.snapshot import Snapshot
from test_plan_members import _of, _op
from test_plan_review_cases import _by_path
from test_rest_loose_ids import compiled_spec

REBATE = (
    "{type: object, properties: {id: {type: string}, order: {type: string}, payment_box: {type: string}}}"
)
ORDER = "{type: object, properties: {id: {type: string}, payment_box: {type: string}}}"
BOX = "{type: object, properties: {id: {type: string}, amount: {type: integer}}}"
_REBATES = _of("data", "{type: array, items: " + REBATE + "}")
_ORDERS = _of("data", "{type: array, items: " + ORDER + "}")
SHOP = "openapi: 3.0.0\ninfo: {title: Shop, version: '1'}\npaths:\n" + "".join(
    [
        _op("/rebates", "get", "Returns a list of rebates", [("order", False), ("payment_box", False)],
            _REBATES),
        _by_path("/rebates/{rebate}", "get", "Retrieve a rebate", "rebate", REBATE),
        _by_path("/orders/{order}/rebates", "get", "Returns the rebates of the orders", "order", _REBATES),
        _op("/orders", "get", "Returns a list of orders", [("payment_box", False)], _ORDERS),
        _by_path("/orders/{order}", "get", "Retrieve an order", "order", ORDER),
        _by_path("/payment_boxes/{box}", "get", "Retrieve a payment box", "box", BOX),
        _by_path("/storage_boxes/{box}", "get", "Retrieve a storage box", "box", BOX),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "twin_reads_shop", SHOP)


def test_the_own_read_filtered_by_the_said_thing(shop: Snapshot) -> None:
    result = Planner(shop, allow=None).plan("Show the rebates of the orders of payment box pb_3Mtw8x2Lq")
    assert result.chains and result.chains[0].api_keys[0] == "GET /rebates"
    assert "GET /orders/{order}/rebates" not in result.chains[0].api_keys
    given = {i.name: i.value for i in result.chains[0].steps[0].inputs}
    assert given == {"payment_box": "pb_3Mtw8x2Lq"}


def _get(key: str, *params: str) -> Api:
    given = [Param(name=p, domain_type="string") for p in params]
    return Api(key=key, object_key="x", title=key, params=given)


def test_a_read_under_a_parent_goes_only_where_its_own_route_takes_the_parent() -> None:
    apis = {a.key: a for a in (_get("GET /rebates", "order"), _get("GET /orders/{order}/rebates", "order"))}
    assert own_reads(list(apis), apis.get) == ["GET /rebates"]
    scoped = {a.key: a for a in (_get("GET /pods", "label"), _get("GET /spaces/{space}/pods", "space"))}
    assert own_reads(list(scoped), scoped.get) == list(scoped)  # the own route lists every space's


POST = "{type: object, properties: {id: {type: string}, title: {type: string}}}"
_POSTS = _of("data", "{type: array, items: " + POST + "}")
USER = "{type: object, properties: {id: {type: string}}}"
BLOG = "openapi: 3.0.0\ninfo: {title: Blog, version: '1'}\npaths:\n" + "".join(
    [
        _op("/posts", "get", "Returns a list of posts", [("id", False)], _POSTS),
        _by_path("/users/{id}/posts", "get", "Returns the posts of a user", "id", _POSTS),
        _by_path("/users/{id}", "get", "Retrieve a user", "id", USER),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def blog(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "twin_reads_blog", BLOG)


def test_a_read_under_a_parent_stays_where_the_own_route_only_shares_the_key_name(blog: Snapshot) -> None:
    # ``GET /posts?id=`` filters posts by their own ids: the posts of a user are read under the user
    result = Planner(blog, allow=None).plan("Show the posts of user usr_8f3Ka92Lq")
    assert result.chains and result.chains[0].api_keys[-1] == "GET /users/{id}/posts"
    posts = {a.key: a for a in (_get("GET /posts", "id"), _get("GET /users/{id}/posts", "id"))}
    assert own_reads(list(posts), posts.get) == list(posts)
    by_user = {a.key: a for a in (_get("GET /posts", "user_id"), _get("GET /users/{id}/posts", "id"))}
    assert own_reads(list(by_user), by_user.get) == ["GET /posts"]  # filtered by the parent's kind
    sort = Param(name="order", domain_type="string", json_schema={"enum": ["asc", "desc"]})
    items = {"GET /items": Api(key="GET /items", object_key="x", title="items", params=[sort])}
    items["GET /orders/{order}/items"] = _get("GET /orders/{order}/items", "order")
    assert own_reads(list(items), items.get) == list(items)  # a sort order is no order's key
