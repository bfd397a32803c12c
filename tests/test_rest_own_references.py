"""A read's own reference past the cap of edges into a required input (``rest_edges._RestGraph._take``): the
lists whose items name a gadget (``data[].gadget``) rank first and fill the cap of edges into the gadget's
read; the widget's own ``gadget`` (one value, read from the widget the request states) still feeds it, so
"Which gadget is widget wdg_… for?" reads the widget, then its gadget (``GET /gadgets/{id}``: fed by the
alias rules, a gadget's id)."""

from __future__ import annotations

import pytest

from apiatlas.planning.planner import Planner
from apiatlas.snapshot import Snapshot
from test_plan_many_asked import _list, _page
from test_plan_review_cases import _by_path
from test_rest_loose_ids import compiled_spec, fed_into

GADGET = "{$ref: '#/components/schemas/gadget'}"
_REF = "{anyOf: [{type: string, maxLength: 5000}, " + GADGET + "]}"  # an id, or the gadget expanded
WIDGET = "{type: object, properties: {id: {type: string}, gadget: " + _REF + ", colour: {type: string}}}"
_LINE = "{type: object, properties: {id: {type: string}, gadget: " + _REF + "}}"
_SCHEMAS = (
    "components:\n  schemas:\n"
    "    gadget: {type: object, properties: {id: {type: string}, label: {type: string}}}\n"
)
# more lists naming a gadget in their items than the cap of edges per input (10 for OpenAPI)
_LISTS = [
    _list(f"/{name}", f"Returns a list of {name}", [], _page(_LINE))
    for name in ("orders", "quotes", "carts", "returns", "bundles", "crates", "parcels", "kits", "sets",
                 "stocks", "offers", "deals")
]  # fmt: skip
# reads of other things naming their gadget too, before the widget in the static order (by key): the reads'
# own references have a cap of their own, the cap's size (a cap of 3 had stopped before the widget)
_READS = [
    _by_path(f"/{name}s/{{{name}}}", "get", f"Retrieves a {name}", name, WIDGET)
    for name in ("bin", "bag", "can", "dock", "jar")
]
SHOP = "openapi: 3.0.0\ninfo: {title: Shop, version: '1'}\npaths:\n" + "".join(
    [
        *_LISTS,
        *_READS,
        _by_path("/gadgets/{id}", "get", "Retrieves a gadget", "id", GADGET),
        _list("/gadgets", "Returns a list of gadgets", [], _page(GADGET)),
        _by_path("/widgets/{widget}", "get", "Retrieves a widget", "widget", WIDGET),
        _list("/widgets", "Returns a list of widgets", [("gadget", False, "The gadget of the widgets.")],
              _page(WIDGET)),
    ]
) + _SCHEMAS  # fmt: skip


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "own_references_shop", SHOP)


def test_a_reads_own_reference_feeds_past_the_cap(shop: Snapshot) -> None:
    fed = fed_into(shop, "GET /gadgets/{id}", "id")
    assert ("GET /widgets/{widget}", "gadget") in fed
    assert sum(1 for producer, _ in fed if producer.startswith("GET /") and "{" not in producer) >= 10


def test_the_thing_a_stated_item_refers_to_is_read_through_it(shop: Snapshot) -> None:
    chains = Planner(shop, allow=None).plan("Which gadget is the widget wdg_8Kq20LmZ for?").chains
    assert chains[0].api_keys == ["GET /widgets/{widget}", "GET /gadgets/{id}"]
