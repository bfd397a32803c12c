"""A verb made from a noun ends at the write creating that thing ("Remind me …": ``reminders.add``, not the
reminder's delete), whose free inputs no list of the chain's first step, taking nothing, feeds blindly
(every note's text is not the reminder's); a Russian verb with its object said as one English verb
(«верни деньги»: refund). A real compile of a small spec."""

from __future__ import annotations

import pytest

from apiatlas.planning import values as v
from apiatlas.planning.actions import split_actions
from apiatlas.planning.kind_verbs import noun_creates
from apiatlas.planning.planner import Planner
from apiatlas.snapshot import Snapshot
from test_plan_members import OK, _of, _op
from test_rest_loose_ids import compiled_spec

ROOM = "{type: object, properties: {id: {type: string}, name: {type: string}}}"
NOTE = "{type: object, properties: {id: {type: string}, text: {type: string}, room: {type: string}}}"
REMINDER = "{type: object, properties: {id: {type: string}, text: {type: string}, time: {type: string}}}"
SPEC = "openapi: 3.0.0\ninfo: {title: Desk, version: '1'}\npaths:\n" + "".join(
    [
        _op("/rooms.list", "get", "List all rooms", [], _of("rooms", "{type: array, items: " + ROOM + "}")),
        _op("/rooms.info", "get", "Get a room", [("room_id", True)], _of("room", ROOM)),
        _op("/notes.list", "get", "List the notes", [("room", False)],
            _of("notes", "{type: array, items: " + NOTE + "}")),
        _op("/reminders.list", "get", "List the reminders", [],
            _of("reminders", "{type: array, items: " + REMINDER + "}")),
        _op("/reminders.add", "post", "Creates a reminder", [("text", True), ("time", True)],
            _of("reminder", REMINDER)),
        _op("/reminders.delete", "post", "Deletes a reminder", [("reminder", False)], OK),
        _op("/reminders.complete", "post", "Marks a reminder as complete", [("reminder", False)], OK),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "desk_reminders", SPEC)


def test_a_verb_made_from_a_noun_creates_that_thing_its_free_inputs_asked(snap: Snapshot) -> None:
    chain = Planner(snap).plan("Remind me tomorrow at 9am to water the plants").chains[0]
    assert chain.api_keys == ["POST /reminders.add"]
    assert {i.name: i.origin for i in chain.steps[0].inputs} == {"text": "user", "time": "user"}


def test_only_the_create_of_the_thing_the_verb_names() -> None:
    hits = ["POST /reminders.delete", "POST /reminders.add", "POST /reminders.complete"]
    assert noun_creates(hits, "remind") == ["POST /reminders.add"]
    assert noun_creates(["POST /bookmarks", "DELETE /bookmarks/{id}"], "bookmark") == ["POST /bookmarks"]
    assert noun_creates(hits, "complete") == hits  # the verb is the action, not the thing


def test_a_russian_verb_and_its_object_say_one_english_verb() -> None:
    said = "верни деньги за последний платёж покупателя b_1"
    assert [(a.verb, a.writes) for a in split_actions(said, v.extract_values(said))] == [("refund", True)]
    said = "верни книгу b_1 на полку"
    assert [a.verb for a in split_actions(said, v.extract_values(said))] == [""]


def test_a_russian_verb_says_one_english_verb_with_its_object_past_whom_it_is_for() -> None:
    asked = ("верни мне деньги за заказ o-1", "верните нам деньги за заказ o-1", "верни клиенту b_1 деньги")
    for said in asked:
        assert [(a.verb, a.writes) for a in split_actions(said, v.extract_values(said))] == [("refund", True)]
