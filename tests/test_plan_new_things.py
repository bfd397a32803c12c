"""A thing said new, then used by a second action (issue 18, chains): "Create a member Jenny Rosen and attach
badge bdg_… to her" creates a member (the kind of the name said after "a", though the kind noun lies inside
the stated name) with no lookup before it (a create's optional fields are what the request says, no list's
to fill; the name is the new member's), and the attach takes the new member's id from the create."""

from __future__ import annotations

import pytest

from apiatlas.planning.kind_verbs import new_kinds
from apiatlas.planning.planner import Planner
from apiatlas.planning.values import ENTITY, ExtractedValue
from apiatlas.snapshot import Snapshot
from test_plan_members import _of, _op
from test_plan_review_cases import _by_path
from test_rest_loose_ids import compiled_spec

MEMBER = "{type: object, properties: {id: {type: string}, name: {type: string}, badge: {type: string}}}"
BADGE = "{type: object, properties: {id: {type: string}, member: {type: string}}}"
_BADGE_KEY = "{name: badge, in: path, required: true, schema: {type: string}}"
_MEMBERS = _of("data", "{type: array, items: " + MEMBER + "}")
_SEARCH = _of("data", "{type: array, items: " + BADGE + "}")
CLUB = "openapi: 3.0.0\ninfo: {title: Club, version: '1'}\npaths:\n" + "".join(
    [
        _op("/members", "post", "Creates a new member object", [], MEMBER).replace(
            "      parameters: []\n",
            "      requestBody: {content: {application/x-www-form-urlencoded: {schema: {type: object,"
            " properties: {name: {type: string}, badge: {type: string}}}}}}\n",
        ),
        _by_path("/members/{member}", "get", "Retrieve a member", "member", MEMBER),
        _op("/sessions", "post", "Creates a session for a member, which creates a member when none is given",
            [("member", False), ("badge", False)], MEMBER),
        _op("/checkouts", "post", "Creates a checkout of a member that can create a new member",
            [("member", False), ("badge", False)], MEMBER),
        _op("/members/search", "get", "Search for members you have created", [("query", True)], _MEMBERS),
        _op("/badges/search", "get", "Search for badges you have issued", [("query", True)], _SEARCH),
        _by_path("/badges/{badge}", "get", "Retrieve a badge", "badge", BADGE),
        _op("/badges/{badge}/attach", "post", "Attaches a badge object to a member",
            [("member", True)], BADGE)
        .replace("parameters: [", f"parameters: [{_BADGE_KEY}, "),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "new_things_club", CLUB)


def test_a_thing_created_then_used_by_the_next_action(club: Snapshot) -> None:
    request = "Create a member Jenny Rosen and attach badge bdg_8f3Ka92Lq to her"
    result = Planner(club, allow=None).plan(request)
    assert result.chains and result.chains[0].api_keys == ["POST /members", "POST /badges/{badge}/attach"]
    member = next(i for i in result.chains[0].steps[1].inputs if i.name == "member")
    assert member.origin == "step" and member.from_step == 0


def test_the_kinds_said_new() -> None:
    found = [ExtractedValue(ENTITY, "member Jenny Rosen", "member Jenny Rosen", hint="member")]
    assert new_kinds("Create a member Jenny Rosen", found, {"member"}) == {"member"}
    assert new_kinds("Update the member Jenny Rosen", found, {"member"}) == set()


def _form(path: str, summary: str, fields: dict[str, bool], out: str) -> str:
    props = ", ".join(f"{f}: {{type: string}}" for f in fields)
    required = [f for f, r in fields.items() if r]
    return f"""\
  {path}:
    post:
      summary: {summary}
      requestBody:
        content: {{application/x-www-form-urlencoded: {{schema: {{type: object, required: {required},
          properties: {{{props}}}}}}}}}
      responses: {{'200': {{description: ok, content: {{application/json: {{schema: {out}}}}}}}}}
"""


ITEM = "{type: object, properties: {id: {type: string}, name: {type: string}}}"
TAG = "{type: object, properties: {id: {type: string}, item: {type: string}, currency: {type: string}}}"
STORE = "openapi: 3.0.0\ninfo: {title: Store, version: '1'}\npaths:\n" + "".join(
    [
        _form("/items", "Creates a new item object", {"name": True, "description": False}, ITEM),
        _by_path("/items/{item}", "get", "Retrieve an item", "item", ITEM),
        _op("/items/search", "get", "Search for items you have created", [("query", True)],
            _of("data", "{type: array, items: " + ITEM + "}")),
        _form("/tags", "Creates a new price tag for an item", {"currency": True, "item": False}, TAG),
        _by_path("/tags/{tag}", "get", "Retrieve a price tag", "tag", TAG),
        _op("/tags/search", "get", "Search for price tags you have created", [("query", True)],
            _of("data", "{type: array, items: " + TAG + "}")),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "new_things_store", STORE)


def test_a_thing_said_new_is_created_to_feed_the_target(store: Snapshot) -> None:
    result = Planner(store, allow=None).plan("Create an item Gold with a price tag of 20 USD")
    assert result.chains and result.chains[0].api_keys == ["POST /items", "POST /tags"]
    given = {i.name: (i.origin, i.value, i.from_step) for i in result.chains[0].steps[1].inputs}
    assert given["currency"] == ("request", "usd", None) and given["item"][0::2] == ("step", 0)


@pytest.mark.parametrize("request_text", ["Show an item named Gold", "Find an item named Gold plan"])
def test_a_thing_said_with_a_in_a_read_is_looked_up_not_created(store: Snapshot, request_text: str) -> None:
    result = Planner(store, allow=None).plan(request_text)
    assert result.chains and all(k.startswith("GET ") for c in result.chains for k in c.api_keys)
