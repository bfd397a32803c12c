"""Mechanisms the third hand-written chain sets (Slack, Kubernetes; written before any planner run) showed
missing: a later action pointing back at a person found before while naming a thing of its own ends at
the write taking that person; a Russian change verb says the English write's verb; the newest thing
asked for in Russian is the list the word names; "every" after a write verb is no name."""

from __future__ import annotations

import pytest

from apiatlas.catalog.model import Api, SideEffect
from apiatlas.planning.kind_writes import _object_kind
from apiatlas.planning.planner import Planner
from apiatlas.planning.pointing import said_again
from apiatlas.planning.relevance import RequestWord, verbs_across
from apiatlas.planning.said_names import bare_names
from apiatlas.planning.write_choice import write_targets
from apiatlas.snapshot import Snapshot
from apiatlas.text import stem
from test_plan_newest import SPEC as BOARDS
from test_rest_loose_ids import compiled_spec

EXTRA = """\
  /users.list:
    get:
      summary: Lists the users
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  users:
                    type: array
                    items: {type: object, properties: {id: {type: string}, name: {type: string}}}
  /users.byEmail:
    get:
      summary: Find a user by their email address
      parameters: [{name: email, in: query, required: true, schema: {type: string}}]
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  user: {type: object, properties: {id: {type: string}, email: {type: string}}}
  /users.info:
    get:
      summary: Gets a user's profile
      parameters: [{name: user_id, in: query, required: true, schema: {type: string}}]
      responses: {'200': {description: ok}}
  /boards.kick:
    post:
      summary: Removes a user from a board
      parameters:
        - {name: board, in: query, description: Board ID, schema: {type: string}}
        - {name: user, in: query, description: User ID, schema: {type: string}}
      responses: {'200': {description: ok}}
  /stars.remove:
    post:
      summary: Removes the star of a board
      parameters:
        - {name: board, in: query, description: Board ID, schema: {type: string}}
        - {name: item, in: query, schema: {type: string}}
      responses: {'200': {description: ok}}
"""
SPEC = BOARDS + EXTRA  # the boards and notes of test_plan_newest, people and two removals


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "third", SPEC)


def test_a_later_action_pointing_back_ends_at_the_write_taking_what_was_found(snap: Snapshot) -> None:
    """"… and remove her from the board ideas": the board is its own (looked up by name), "her" is the
    user found before: the write with an input for a user (optional, as the spec declares it), fed by
    the user found (before: the board alone, the user never passed)."""
    request = "Find the user with the email dana@example.com and remove her from the board ideas"
    best = Planner(snap, allow=None).plan(request).chains[0]
    assert [s.api for s in best.steps] == ["GET /users.byEmail", "GET /boards.list", "POST /boards.kick"]
    user = next(i for i in best.steps[-1].inputs if i.name == "user")
    assert (user.origin, user.from_step, user.from_field) == ("step", 0, "user.id")


def test_a_russian_change_verb_says_the_write_of_its_english_verb() -> None:
    writes = {
        "POST /notes.pin": "Pins a note to a board", "POST /notes.unpin": "Un-pins a note from a board",
        "POST /notes.delete": "Deletes a note", "POST /notes.share": "Shares a note",
    }  # fmt: skip
    apis = {k: Api(key=k, object_key="", title=t, side_effect=SideEffect.WRITE) for k, t in writes.items()}
    # as the English verb reads them (the un-pin says "pins" too; the request's words rank the two),
    # not every write of the catalog, as before
    assert write_targets(list(apis), apis.get, "закрепи") == write_targets(list(apis), apis.get, "pin")
    assert write_targets(list(apis), apis.get, "закрепи") == ["POST /notes.pin", "POST /notes.unpin"]


def test_every_after_a_write_verb_is_no_name(snap: Snapshot) -> None:
    planner = Planner(snap, allow=None)
    vocabulary = planner.cache.vocabulary
    assert [f.text for f in bare_names("Archive ideas", vocabulary, [], planner.known)] == ["ideas"]
    assert bare_names("Delete every board", vocabulary, [], planner.known) == []
    assert bare_names("Delete all boards", vocabulary, [], planner.known) == []


def test_the_newest_thing_asked_in_another_script_is_the_list_its_word_names(snap: Snapshot) -> None:
    """«последнего пользователя»: no list is named for the Russian word; the one its translation names
    is (the search's bridge across scripts): the newest item is looked up as for "the latest user"."""
    planner = Planner(snap, allow=None)
    assert planner._newest("Удали последнего пользователя") == {"user"}
    assert planner._newest("Delete the latest user") == {"user"}


def test_that_and_the_noun_an_earlier_action_said_name_the_thing_it_found() -> None:
    """"Which node is the pod p running on? Show me that node": the node found, read once (before: only
    "Show the node" was; "that node" went on to a part of the node, its status)."""
    earlier = ["Which node is the pod p-1 in namespace n running on?"]
    assert said_again("Show me that node", earlier)
    assert said_again("Show the node", earlier)
    assert not said_again("Show me that pod", ["Which node is it on?"])


def test_a_russian_verb_acts_on_the_kind_its_object_word_names(snap: Snapshot) -> None:
    """«Удали всех пользователей доски ideas»: the users are deleted, not the board named after them
    (before: the kind of the first thing named, the board)."""
    planner = Planner(snap, allow=None)
    ctx = planner._read("Удали всех пользователей доски ideas", None, dict)
    ctx.verb = "удали"
    assert _object_kind(ctx) == {"user"}
    ctx.verb = "закрепи"  # a verb the request does not say: no object read
    assert _object_kind(ctx) == set()


REQUIRED_USER = SPEC.replace(
    "- {name: user, in: query, description: User ID, schema: {type: string}}",
    "- {name: user, in: query, required: true, description: User ID, schema: {type: string}}",
) + """\
  /boards.unlabel:
    post:
      summary: Removes a label from a board
      parameters:
        - {name: board, in: query, description: Board ID, schema: {type: string}}
        - {name: label, in: query, required: true, description: The label, schema: {type: string}}
        - {name: user, in: query, description: User ID, schema: {type: string}}
      responses: {'200': {description: ok}}
"""


def test_a_write_asking_for_what_was_found_is_not_passed_over(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """The kick asks for the user (required: an input of its own, fed by the user found); a lower write
    with an optional user input (removing a label, one never said) is no better a taker (before: the kick
    was passed over, its user input being its own, for the label's removal)."""
    snap = compiled_spec(tmp_path_factory, "third_required", REQUIRED_USER)
    request = "Find the user with the email dana@example.com and remove her from the board ideas"
    best = Planner(snap, allow=None).plan(request).chains[0]
    assert [s.api for s in best.steps] == ["GET /users.byEmail", "GET /boards.list", "POST /boards.kick"]
    user = next(i for i in best.steps[-1].inputs if i.name == "user")
    assert (user.origin, user.from_step) == ("step", 0)


def test_a_change_verb_s_english_verb_is_not_given_to_a_noun_of_its_stem() -> None:
    """«ответь» (reply) says "reply"; the noun «ответ» (an answer, a response: «ответ сервера») shares its
    stem but is no verb (before: it read as "reply" too, and «покажи ответ сервера для пода …» went to the
    replication controllers)."""
    said = [RequestWord(w, frozenset({stem(w)}), 0.0) for w in ("ответь", "ответ", "ответы")]
    assert [stem("reply") in w.stems for w in verbs_across(said)] == [True, False, False]
