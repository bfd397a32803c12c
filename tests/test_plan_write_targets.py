"""Which write a writing action ends at (issue 18, chains), on a small compiled spec: a change of a thing
the request names is not the create of its kind, a verb in another script says its action's Latin words,
the write to the kind of the thing named wins, a question orders no write."""

from __future__ import annotations

import pytest

from apiatlas.catalog.model import Api, SideEffect
from apiatlas.planning.planner import Planner
from apiatlas.planning.values import ENTITY, extract_values
from apiatlas.planning.write_choice import write_targets
from apiatlas.snapshot import Snapshot
from test_plan_members import OK, _of, _op
from test_plan_review_cases import _by_path
from test_rest_loose_ids import compiled_spec

SERVER = "{type: object, properties: {name: {type: string}, state: {type: string}, disk: {type: string}}}"
_SERVERS = _of("items", "{type: array, items: " + SERVER + "}")
FLEET = "openapi: 3.0.0\ninfo: {title: Fleet, version: '1'}\npaths:\n" + "".join(
    [
        _op("/servers", "get", "List servers", [], _SERVERS),
        _op("/servers", "post", "Create a server", [("name", True)], SERVER).replace("  /servers:\n", "", 1),
        _by_path("/servers/{name}", "get", "Read the specified server", "name", SERVER),
        _by_path("/servers/{name}", "patch", "Partially update the specified server", "name", SERVER)
        .replace("  /servers/{name}:\n", "", 1),
        _by_path("/servers/{name}", "delete", "Delete a server", "name", OK)
        .replace("  /servers/{name}:\n", "", 1),
        _by_path("/disks/{name}", "get", "Read the specified disk", "name", SERVER),
        _by_path("/disks/{name}", "delete", "Delete a disk", "name", OK).replace("  /disks/{name}:\n", "", 1),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "write_targets_fleet", FLEET)


def _last(snap: Snapshot, request: str) -> str:
    result = Planner(snap, allow=None).plan(request)
    return result.chains[0].steps[-1].api if result.chains else ""


def test_a_change_of_a_named_thing_is_not_the_create_of_its_kind(fleet: Snapshot) -> None:
    assert _last(fleet, "Restart server web-1") == "PATCH /servers/{name}"
    assert _last(fleet, "Create a server web-2") == "POST /servers"  # a create verb still creates


def test_a_thing_said_new_is_created_whatever_the_verb(fleet: Snapshot) -> None:
    # no create verb of the language, but "a server", "a new server": a thing that does not exist yet
    assert _last(fleet, "Set up a server web-2") == "POST /servers"
    assert _last(fleet, "Start a new server named web-2") == "POST /servers"
    assert _last(fleet, "Start the server web-1") == "PATCH /servers/{name}"


def test_a_verb_in_another_script_says_its_action_and_the_named_kind_wins(fleet: Snapshot) -> None:
    assert _last(fleet, "удали сервер web-1") == "DELETE /servers/{name}"
    hits = ["PATCH /servers/{name}", "DELETE /disks/{name}", "DELETE /servers/{name}"]
    # «удали» says delete: the deletes, not every write; of them the one to the kind named
    assert write_targets(hits, fleet.get_api, "удали") == hits[1:]
    kinded = write_targets(hits, fleet.get_api, "удали", of_kinds={"DELETE /servers/{name}"})
    assert kinded == ["DELETE /servers/{name}"]


def test_a_question_orders_no_write(fleet: Snapshot) -> None:
    assert _last(fleet, "Which server did the admin delete?").startswith("GET ")
    assert _last(fleet, "Delete the server web-1") == "DELETE /servers/{name}"


SUB = "{type: object, properties: {id: {type: string}, status: {type: string}}}"
PLANS = "openapi: 3.0.0\ninfo: {title: Plans, version: '1'}\npaths:\n" + "".join(
    [
        _op("/subscriptions", "post", "Create a subscription", [("plan", True)], SUB),
        _by_path("/subscriptions/{sub}", "post", "Update a subscription", "sub", SUB),
        _by_path("/subscriptions/{sub}", "delete", "Cancel a subscription", "sub", SUB)
        .replace("  /subscriptions/{sub}:\n", "", 1),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def plans(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "write_targets_plans", PLANS)


def test_a_delete_titled_with_the_verb_is_what_the_verb_orders(plans: Snapshot) -> None:
    assert _last(plans, "Cancel the subscription sub_1MowQVLkdIwHu7ix") == "DELETE /subscriptions/{sub}"
    assert _last(plans, "Change the plan of subscription sub_1MowQVLkdIwHu7ix") == "POST /subscriptions/{sub}"


def test_an_unknown_verb_before_a_kind_and_an_id_like_name_is_no_name(fleet: Snapshot) -> None:
    vocabulary = fleet.vocabulary()
    assert [f.text for f in extract_values("Reboot server web-1", vocabulary) if f.kind == ENTITY] == []
    named = [f.text for f in extract_values("Avatar server list", vocabulary) if f.kind == ENTITY]
    assert named and named[0].startswith("Avatar")  # no id-like name after the kind: still a name


def test_a_cancel_no_write_says_is_done_as_the_delete() -> None:
    # no write says "cancel": the booking's delete (a POST here, as procedure-like catalogs write it)
    writes = {
        "POST /bookings.create": "Creates a booking", "POST /bookings.delete": "Deletes a pending booking",
        "POST /bookings.update": "Updates a booking",
    }  # fmt: skip
    apis = {k: _post(k, t) for k, t in writes.items()}
    assert write_targets(list(apis), apis.get, "cancel") == ["POST /bookings.delete"]
    said = {**apis, "POST /bookings.cancel": _post("POST /bookings.cancel", "Cancels a booking")}
    assert write_targets(list(said), said.get, "cancel") == ["POST /bookings.cancel"]  # said: that one


def _post(key: str, title: str) -> Api:
    return Api(key=key, object_key="", title=title, side_effect=SideEffect.WRITE)


def test_a_verb_the_language_does_not_know_giving_a_thing_ends_at_a_write(fleet: Snapshot) -> None:
    hits = ["GET /disks/{name}", "DELETE /disks/{name}"]
    # «задай ему квоту»: «задай» (set) is no verb of the language; giving a thing to "it", it ends at a write
    assert write_targets(hits, fleet.get_api, "задай", gives=True) == ["DELETE /disks/{name}"]
    assert write_targets(hits, fleet.get_api, "sort") == hits  # "sort them": only a write saying it
