"""The newest thing from a list whose items live under a page field (issue 18, chains): ``GET /parcels``
returns ``{data: [...]}`` — a page of anything, named for no kind — so no list is named for the parcels;
asked for "the latest parcel" of an owner, the list of parcels (its path lists them) is read and its first
item's own id picked (not the id of a parcel nested in each item, which a name match ranks higher), and a
list named for a kind (``notes[]``) still holds only its own. "latest" names no parcel; the list's other
optional filters (its ``rack``) are options once the owner filters it."""

from __future__ import annotations

import pytest

from apiatlas.planning.page_lists import page_kind
from apiatlas.planning.planner import Planner
from apiatlas.planning.steps import open_inputs
from apiatlas.snapshot import Snapshot
from test_plan_members import OK, _of, _op
from test_plan_review_cases import _by_path
from test_rest_loose_ids import compiled_spec

PARCEL = (
    "{type: object, properties: {id: {type: string}, owner: {type: string}, rack: {type: string},"
    " label: {type: object, properties: {parcel: {type: string}}}}}"
)
OWNER = "{type: object, properties: {id: {type: string}, email: {type: string}}}"
_PAGE = "{type: object, properties: {has_more: {type: boolean}, data: {type: array, items: " + PARCEL + "}}}"
_OWNERS = _of("data", "{type: array, items: " + OWNER + "}")
_RACKS = _of("data", "{type: array, items: " + OWNER + "}")
DEPOT = "openapi: 3.0.0\ninfo: {title: Depot, version: '1'}\npaths:\n" + "".join(
    [
        _op("/parcels", "get", "Returns a list of parcels you have", [("owner", False), ("rack", False)],
            _PAGE),
        _by_path("/parcels/{parcel}", "get", "Retrieve a parcel", "parcel", PARCEL),
        _by_path("/parcels/{parcel}/seal", "post", "Seal a parcel", "parcel", OK),
        _op("/owners", "get", "Returns a list of owners", [("email", False)], _OWNERS),
        _by_path("/owners/{owner}", "get", "Retrieve an owner", "owner", OWNER),
        _op("/racks", "get", "Returns a list of racks", [("owner", False)], _RACKS),
        _by_path("/racks/{rack}", "get", "Retrieve a rack", "rack", OWNER),

    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def depot(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "page_lists_depot", DEPOT)


def test_the_latest_thing_is_the_first_of_the_page_listing_it(depot: Snapshot) -> None:
    result = Planner(depot, allow=None).plan("Seal the latest parcel of owner own_8f3Ka92Lq")
    assert result.chains and result.chains[0].api_keys == ["GET /parcels", "POST /parcels/{parcel}/seal"]
    fed = next(i for i in result.chains[0].steps[1].inputs if i.name == "parcel")
    assert fed.from_step == 0 and fed.from_field == "data[].id" and fed.pick_first


def test_a_list_the_request_filters_opens_no_other_filter(depot: Snapshot) -> None:
    planner, parcels = Planner(depot, allow=None), depot.get_api("GET /parcels")
    assert parcels is not None
    filtered = planner._read("Seal the latest parcel of owner own_8f3Ka92Lq", None, dict)
    assert [s.name for s in open_inputs(filtered, parcels)] == []
    unfiltered = planner._read("Seal the latest parcel", None, dict)  # nothing filters it: a chain may
    assert {"owner", "rack"} <= {s.name for s in open_inputs(unfiltered, parcels)}  # feed its filters


def test_a_page_field_holds_what_the_path_lists() -> None:
    kinds = frozenset({"box", "owner", "note"})
    assert page_kind("GET /boxes", "data[].id", kinds) == "box"
    assert page_kind("GET /boxes", "notes[].id", kinds) == ""  # a list named for a kind: its own
    assert page_kind("GET /boxes/{box}", "data[].id", kinds) == ""  # one item's read
    assert page_kind("POST /boxes", "data[].id", kinds) == ""  # a write lists nothing
    assert page_kind("GET /boxes", "data[].lines[].id", kinds) == ""  # a list inside the items
