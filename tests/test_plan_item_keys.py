"""Which field may feed an item's bare key (``/boxes/{name}``): the same key of another kind of thing, or
of none (an API group's document), is not a box's name; a list of the boxes gives their names, but read
again one by one it answers what the list already returned. A real compile of a small spec."""

from __future__ import annotations

import pytest

from apiatlas.planning.lookups import names_another_kind, path_kind, rereads_listed
from apiatlas.planning.planner import PlanLimits, Planner, Weights
from apiatlas.snapshot import Snapshot
from test_rest_loose_ids import compiled_spec, fed_into


def _named(*fields: str) -> str:
    """An object schema of string fields, nested by dots (``metadata.name``)."""
    out: dict[str, object] = {}
    for field in fields:
        node = out
        *heads, leaf = field.split(".")
        for head in heads:
            node = node.setdefault(head, {})  # type: ignore[assignment]
        node[leaf] = None
    return _schema(out)


def _schema(node: dict[str, object]) -> str:
    props = ", ".join(
        f"{k}: {_schema(v) if isinstance(v, dict) else '{type: string}'}" for k, v in node.items()
    )
    return f"{{type: object, properties: {{{props}}}}}"


def _get(path: str, summary: str, schema: str, params: str = "") -> str:
    return f"""\
  {path}:
    get:
      summary: {summary}
      parameters: [{params}]
      responses: {{'200': {{description: ok, content: {{application/json: {{schema: {schema}}}}}}}}}
"""


_NS = "{name: namespace, in: path, required: true, schema: {type: string}}"
_NAME = "{name: name, in: path, required: true, schema: {type: string}}"
_LIST = "{type: object, properties: {items: {type: array, items: " + _named("metadata.name") + "}}}"
SPEC = (
    "openapi: 3.0.0\ninfo: {title: Item keys, version: '1'}\npaths:\n"
    + _get(
        "/apis/store.example.io/",
        "get available resources",
        "{type: object, properties: {name: {type: string}, resources: {type: array, items: "
        + _named("name", "kind")
        + "}}}",
    )
    + _get("/namespaces/{namespace}/boxes", "list or watch objects of kind Box", _LIST, _NS)
    + _get(
        "/namespaces/{namespace}/boxes/{name}",
        "read the specified Box",
        _named("metadata.name", "spec.rack.name", "spec.size"),
        f"{_NS}, {_NAME}",
    )
    + _get(
        "/namespaces/{namespace}/boxes/{name}/log",
        "read the log of the specified Box",
        _named("text"),
        f"{_NS}, {_NAME}",
    )
    + _get("/racks/{name}", "read the specified Rack", _named("metadata.name", "spec.room"), _NAME)
    + _get("/racks", "list or watch objects of kind Rack", _LIST)
)


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "item_keys", SPEC)


def _api(snap: Snapshot, key: str):  # type: ignore[no-untyped-def]
    api = snap.get_api(key)
    assert api is not None, key
    return api


BOX = "GET /namespaces/{namespace}/boxes/{name}"
BOXES = "GET /namespaces/{namespace}/boxes"
GROUP = "GET /apis/store.example.io/"


def test_the_same_bare_key_of_another_kind_or_of_none_is_no_item_s_key(snap: Snapshot) -> None:
    kinds = frozenset(snap.vocabulary().kind_set)
    assert {"box", "rack"} <= kinds
    box, rack, group = _api(snap, BOX), _api(snap, "GET /racks/{name}"), _api(snap, GROUP)
    assert (path_kind(group, kinds), path_kind(box, kinds)) == ("", "box")
    fed = fed_into(snap, "GET /racks/{name}", "name")
    assert {(GROUP, "name"), (GROUP, "resources[].name"), (BOX, "spec.rack.name")} <= fed  # the graph's
    assert names_another_kind(group, "name", rack, "name", kinds)  # the group's own name
    assert names_another_kind(group, "resources[].name", rack, "name", kinds)
    assert names_another_kind(box, "metadata.name", rack, "name", kinds)  # the box's own name
    assert not names_another_kind(box, "spec.rack.name", rack, "name", kinds)  # the box's rack
    assert not names_another_kind(_api(snap, "GET /racks"), "items[].metadata.name", rack, "name", kinds)


def test_a_read_of_each_listed_item_repeats_the_list(snap: Snapshot) -> None:
    kinds = frozenset(snap.vocabulary().kind_set)
    box, boxes, rack = _api(snap, BOX), _api(snap, BOXES), _api(snap, "GET /racks/{name}")
    assert rereads_listed(boxes, "items[].metadata.name", box, "name", kinds)
    assert not rereads_listed(box, "spec.rack.name", rack, "name", kinds)  # another thing, read on
    assert not rereads_listed(boxes, "items[].metadata.name", rack, "name", kinds)  # not a list of racks
    log = _api(snap, BOX + "/log")  # a part of each box, which the list does not return
    assert not rereads_listed(boxes, "items[].metadata.name", log, "name", kinds)


def _scores(planner: Planner, request: str) -> dict[tuple[str, ...], float]:
    return {tuple(s.api for s in c.steps): c.score for c in planner.plan(request).chains}


def test_each_box_read_again_after_their_list_costs_what_the_weight_says(snap: Snapshot) -> None:
    request = "Show the boxes in namespace shop"
    # every chain kept: the boxes asked in the plural, a read of one box is far down (``fit._one_of_many``)
    weighed, wide = Planner(snap), PlanLimits(chains=50)
    free = Planner(snap, limits=wide, weights=Weights(rereads=0.0))
    every = Planner(snap, limits=wide)
    again = (BOXES, BOX)
    assert _scores(free, request)[again] - _scores(every, request)[again] == pytest.approx(
        Weights().rereads
    )
    assert [s.api for s in weighed.plan(request).chains[0].steps] == [BOXES]


def test_a_box_read_by_a_rack_s_own_name_costs_what_the_weight_says(snap: Snapshot) -> None:
    request = "Show the boxes of rack r-1 in namespace shop"
    weighed, free = Planner(snap), Planner(snap, weights=Weights(other_kind=0.0))
    wrong = ("GET /racks/{name}", BOX)  # the rack's own name read as a box's
    assert _scores(free, request)[wrong] - _scores(weighed, request)[wrong] == pytest.approx(
        Weights().other_kind
    )


def test_a_rack_is_read_by_the_key_a_box_names(snap: Snapshot) -> None:
    best = Planner(snap).plan("Show the rack of box b-1 in namespace shop").chains[0]
    assert [s.api for s in best.steps] == [BOX, "GET /racks/{name}"]
    assert best.steps[1].inputs[0].from_field == "spec.rack.name"
