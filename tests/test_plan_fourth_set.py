"""Mechanisms the fourth hand-written chain sets (written from the specs alone, before any planner run)
showed missing: Russian verbs of switching a thing off or on say the English write's verb («отключи»:
disable); a Russian head noun and the noun after it that says what it is of name a compound kind in the
English order («группу тасков»: task group); what a request says before a dash sets the scene, the order
follows it ("the user left — expire session X"); an e-mail address said beside a filter the list takes
looks its person up for the list's optional person input; "email it" is sending it; "per month" names no
price; "$20" says its currency; the kind a Russian request asks about is read among the catalog's kinds;
a call on an item of the collection a create posts to feeds no input of that create (not there yet).
"""

from __future__ import annotations

import pytest

from apiatlas.catalog.model import Api, SideEffect
from apiatlas.language.catalog import CatalogVocabulary
from apiatlas.planning import values as v
from apiatlas.planning.actions import split_actions
from apiatlas.planning.binding import Slot, fills, named_beside
from apiatlas.planning.binding import _as_input as bind_currency
from apiatlas.planning.intent import asked_kind, kinds_read_across
from apiatlas.planning.planner import Planner
from apiatlas.planning.steps import _item_of
from apiatlas.snapshot import Snapshot
from test_plan_members import OK, _of, _op
from test_plan_members import SPEC as TEAMS_SPEC
from test_plan_review_cases import _by_path
from test_rest_loose_ids import compiled_spec

NAMED = "{type: object, properties: {id: {type: string}, name: {type: string}}}"
_LIST = "{type: array, items: " + NAMED + "}"
SESSION = "{type: object, properties: {id: {type: string}, status: {type: string}, owner: {type: string}}}"
_GROUP = (
    "{name: taskgroup, in: query, required: true, description: The encoded ID of the group, "
    "schema: {type: string}}"
)
DESK = "openapi: 3.0.0\ninfo: {title: Desk, version: '1'}\npaths:\n" + "".join(
    [
        _op("/taskgroups.list", "get", "List all task groups", [], _of("taskgroups", _LIST)),
        _op("/taskgroups.disable", "post", "Disable an existing task group", [], OK),
        _op("/taskgroups.enable", "post", "Enable a task group", [], OK),
        _by_path("/taskgroups/{taskgroup}", "get", "Retrieve a task group", "taskgroup", NAMED),
        _op("/tasks.list", "get", "List the tasks", [], _of("tasks", _LIST)),
        _op("/groups.list", "get", "List the groups", [], _of("groups", _LIST)),
        _by_path("/sessions/{session}", "get", "Retrieve a session", "session", SESSION),
        _by_path("/sessions/{session}/expire", "post", "Expire a session", "session", SESSION),
        _by_path("/owners/{owner}", "get", "Retrieve an owner", "owner", NAMED),
    ]
).replace("parameters: []\n      responses: {'200': {description: ok, content: {application/json: {schema: "
          + OK, "parameters: [" + _GROUP + "]\n      responses: {'200': {description: ok, content: "
          "{application/json: {schema: " + OK)  # fmt: skip


@pytest.fixture(scope="module")
def desk(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "fourth_set_desk", DESK)


def test_a_russian_verb_of_switching_off_and_a_compound_kind_said_in_russian(desk: Snapshot) -> None:
    result = Planner(desk, allow=None).plan("Отключи группу тасков nightly-batch")
    assert result.chains and result.chains[0].api_keys == ["GET /taskgroups.list", "POST /taskgroups.disable"]
    group = result.chains[0].steps[1].inputs[0]
    assert (group.pick_field, group.pick_value) == ("taskgroups[].name", "nightly-batch")


def test_the_order_after_a_dash(desk: Snapshot) -> None:
    request = "the owner walked away — expire session ss_9f8Ka72LmQ"
    (action,) = split_actions(request, [], lambda: frozenset({"expire"}))  # the catalog's verb
    assert action.writes
    result = Planner(desk, allow=None).plan(request)
    assert result.chains and result.chains[0].api_keys == ["POST /sessions/{session}/expire"]


NOTE = "{type: object, properties: {id: {type: string}, user: {type: string}, team: {type: string}}}"
TEAMS = TEAMS_SPEC + _op(
    "/notes.list", "get", "List the notes", [("team", False), ("user", False)],
    _of("notes", "{type: array, items: " + NOTE + "}"),
)  # fmt: skip


@pytest.fixture(scope="module")
def teams(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "fourth_set_teams", TEAMS)


def test_an_email_stated_beside_a_filter_looks_its_person_up(teams: Snapshot) -> None:
    result = Planner(teams, allow=None).plan("list the notes ann.b@example.com wrote in team T02ABCD123")
    assert result.chains and result.chains[0].api_keys == ["GET /users.lookupByEmail", "GET /notes.list"]
    fed = {i.name: (i.origin, i.value, i.from_step) for i in result.chains[0].steps[1].inputs}
    assert fed["team"] == ("request", "T02ABCD123", None) and fed["user"][::2] == ("step", 0)


def test_a_verb_naming_how_a_thing_is_sent_is_sending_it() -> None:
    first, second = split_actions(
        "Finalize the draft dr_1 and email it to the owner", [], lambda: frozenset({"finalize"})
    )
    assert (second.text, second.verb, second.writes) == ("send it to the owner", "send", True)
    assert first.verb == "finalize"


def test_a_rate_unit_names_nothing_and_a_currency_sign_says_the_code() -> None:
    price = Slot("price", None, "string", True, "string", ())
    assert named_beside(price, "create a $20 per month price for it") is None
    assert named_beside(price, "show the gold price") == "gold"
    assert [(f.kind, f.value, f.text) for f in v.extract_values("a $20 per month price")] == [
        (v.AMOUNT, "20 USD", "$20")
    ]
    assert [f.value for f in v.extract_values("a fee of 15 € per seat")] == ["15 EUR"]
    currency = Slot("currency", None, "string", True, "string", ())
    (said,) = v.extract_values("a £7.50 plan")
    assert fills(said, currency) and bind_currency(said) == "gbp"


def test_the_kind_asked_about_said_in_another_script() -> None:
    vocabulary = CatalogVocabulary(kinds=["crate", "task"], named_inputs=["crate", "task"])
    said = "покажи логи крейта, который создал task t-7"
    assert asked_kind(said, ["t-7"], vocabulary) == "task"  # the Latin kind word alone: the wrong thing
    read = kinds_read_across(said, {"крейт": "crate", "лог": "log"}, vocabulary.kind_set)
    assert read == "покажи логи crate, который создал task t-7"
    assert asked_kind(read, ["t-7"], vocabulary) == "crate"


def test_an_item_of_the_collection_a_create_posts_to_feeds_nothing_before_it() -> None:
    def api(key: str) -> Api:
        return Api(key=key, object_key="", title="", side_effect=SideEffect.WRITE)

    create = api("POST /ns/{ns}/crates")
    assert all(_item_of(api(f"{m} /ns/{{ns}}/crates/{{name}}"), create) for m in ("GET", "PATCH", "DELETE"))
    assert not _item_of(api("GET /ns/{ns}/crates/{name}/status"), create)  # a part of it: another thing
    assert not _item_of(api("GET /ns/{ns}/boxes/{name}"), create)
    assert not _item_of(api("GET /ns/{ns}/crates/{name}"), api("PUT /ns/{ns}/crates"))
