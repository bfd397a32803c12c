"""Lookups that turn what the user says into ids (issue 18 point 3), on a real compile of a spec that
declares its ids loosely: object alternatives written as a list of ``items``, optional id inputs named
as the thing (``channel``, ``user``), ``{name}`` path items and fields naming another kind's item."""

from __future__ import annotations

import pytest

from apiatlas.planning.planner import Planner
from apiatlas.planning.steps import asked_fed
from apiatlas.snapshot import Snapshot
from test_rest_loose_ids import compiled_spec, fed_into

SPEC = """\
openapi: 3.0.0
info: {title: Loose lookups, version: '1'}
components:
  schemas:
    conversation:
      items:
        - type: object
          properties: {id: {type: string}, name: {type: string}, is_archived: {type: boolean}}
        - type: object
          properties: {id: {type: string}, user: {type: string}, is_im: {type: boolean}}
paths:
  /conversations.list:
    get:
      summary: Lists all channels
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  channels: {type: array, items: {$ref: '#/components/schemas/conversation'}}
  /conversations.members:
    get:
      summary: Retrieve members of a conversation
      parameters:
        - {name: channel, in: query, description: Conversation ID, schema: {type: string}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: object, properties: {members: {type: array, items: {type: string}}}}
  /admin.conversations.archive:
    post:
      summary: Archive a public or private channel
      parameters: [{name: channel_id, in: query, required: true, schema: {type: string}}]
      responses: {'200': {description: ok}}
  /users.lookupByEmail:
    get:
      summary: Find a user with an email address
      parameters: [{name: email, in: query, required: true, schema: {type: string}}]
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  user: {type: object, properties: {id: {type: string}, name: {type: string}}}
  /users.getPresence:
    get:
      summary: Gets user presence information (online or away)
      parameters: [{name: user, in: query, description: User to get presence info on, schema: {type: string}}]
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: object, properties: {presence: {type: string}, online: {type: boolean}}}
  /admin.users.remove:
    post:
      summary: Remove a user from a workspace
      parameters: [{name: user_id, in: query, required: true, schema: {type: string}}]
      responses: {'200': {description: ok}}
  /namespaces/{namespace}/machines/{name}:
    get:
      summary: Read the specified machine
      parameters:
        - {name: namespace, in: path, required: true, schema: {type: string}}
        - {name: name, in: path, required: true, schema: {type: string}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  metadata: {type: object, properties: {name: {type: string}}}
                  spec: {type: object, properties: {hostName: {type: string}}}
  /namespaces/{namespace}/crews/{name}:
    get:
      summary: Read the specified crew
      parameters:
        - {name: namespace, in: path, required: true, schema: {type: string}}
        - {name: name, in: path, required: true, schema: {type: string}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  spec:
                    type: object
                    properties:
                      selector: {type: object, properties: {matchLabels: {type: object}}}
  /namespaces/{namespace}/machines:
    get:
      summary: List the machines of a namespace
      parameters:
        - {name: namespace, in: path, required: true, schema: {type: string}}
        - {name: labelSelector, in: query, schema: {type: string}}
        - {name: fieldSelector, in: query, schema: {type: string}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  items:
                    type: array
                    items:
                      type: object
                      properties: {metadata: {type: object, properties: {name: {type: string}}}}
  /hosts/{name}:
    get:
      summary: Read the specified host
      parameters: [{name: name, in: path, required: true, schema: {type: string}}]
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  metadata: {type: object, properties: {name: {type: string}}}
                  status: {type: object, properties: {capacity: {type: string}}}
"""


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "lookups", SPEC)


def test_object_alternatives_written_as_a_list_of_items_are_read_as_one_of(snap: Snapshot) -> None:
    api = snap.get_api("GET /conversations.list")
    assert api is not None
    columns = {c.name for t in api.output_tables for c in t.columns}
    assert {"channels[].id", "channels[].name", "channels[].user", "channels[].is_im"} <= columns


def test_kinds_come_from_id_inputs_and_path_items(snap: Snapshot) -> None:
    vocabulary = snap.vocabulary()
    assert {"channel", "user", "machine", "host"} <= set(vocabulary.kinds)
    assert {"channel", "user", "machine", "host"} <= set(vocabulary.named_inputs)
    assert "email" in vocabulary.required_inputs


def test_an_input_named_as_a_resource_is_fed_by_that_resource_s_ids(snap: Snapshot) -> None:
    assert ("GET /conversations.list", "channels[].id") in fed_into(
        snap, "GET /conversations.members", "channel"
    )
    assert ("GET /users.lookupByEmail", "user.id") in fed_into(snap, "GET /users.getPresence", "user")


def test_a_field_naming_another_kind_s_item_feeds_its_path_name(snap: Snapshot) -> None:
    fed = fed_into(snap, "GET /hosts/{name}", "name")
    assert ("GET /namespaces/{namespace}/machines/{name}", "spec.hostName") in fed


def test_a_name_said_of_a_thing_is_picked_from_the_list_that_gives_its_id(snap: Snapshot) -> None:
    best = Planner(snap).plan("Who are the members of the channel releases?").chains[0]
    assert [s.api for s in best.steps] == ["GET /conversations.list", "GET /conversations.members"]
    channel = next(i for i in best.steps[1].inputs if i.name == "channel")
    assert (channel.origin, channel.from_field) == ("step", "channels[].id")
    assert (channel.pick_field, channel.pick_value) == ("channels[].name", "releases")
    mapped = best.chain_steps()[1].param_mapping["channel"]  # what ``execute_chain`` runs
    assert (mapped.column, mapped.pick_column, mapped.pick_value) == (
        "channels[].id",
        "channels[].name",
        "releases",
    )


def test_an_email_is_looked_up_for_the_user_id(snap: Snapshot) -> None:
    best = Planner(snap).plan("Is carol@example.com online?").chains[0]
    assert [s.api for s in best.steps] == ["GET /users.lookupByEmail", "GET /users.getPresence"]
    assert best.steps[0].inputs[0].value == "carol@example.com"


def test_a_path_item_takes_the_name_said_beside_its_kind(snap: Snapshot) -> None:
    """The machine's own read answers "the host" too (its ``spec.hostName``), so the chain reading the
    host on is a candidate, not always the best."""
    chains = Planner(snap).plan("Show the host of machine m-1 in namespace shop").chains
    first = chains[0].steps[0]
    assert first.api == "GET /namespaces/{namespace}/machines/{name}"
    assert {i.name: i.value for i in first.inputs} == {"name": "m-1", "namespace": "shop"}
    on = next(c for c in chains if [s.api for s in c.steps][-1] == "GET /hosts/{name}")
    assert on.steps[0].api == first.api and on.steps[1].inputs[0].from_field == "spec.hostName"


def test_the_machines_of_a_named_crew_are_selected_by_the_crew_s_selector(snap: Snapshot) -> None:
    fed = fed_into(snap, "GET /namespaces/{namespace}/machines", "labelSelector")
    assert fed == {("GET /namespaces/{namespace}/crews/{name}", "spec.selector.matchLabels")}
    assert fed_into(snap, "GET /namespaces/{namespace}/machines", "fieldSelector") == set()  # says no label
    best = Planner(snap).plan("List the machines of crew blue in namespace shop").chains[0]
    assert [s.api for s in best.steps] == [
        "GET /namespaces/{namespace}/crews/{name}",
        "GET /namespaces/{namespace}/machines",
    ]
    selector = next(i for i in best.steps[1].inputs if i.name == "labelSelector")
    assert (selector.origin, selector.from_field) == ("step", "spec.selector.matchLabels")


def test_what_a_named_thing_s_read_feeds_is_a_target_of_the_kind_asked(snap: Snapshot) -> None:
    """Asked "Which machines …": the machines list, which the crew's read feeds (its selector), joins
    the targets whatever the search ranks (``steps.asked_fed``), and the plan ends there."""
    planner = Planner(snap)
    request = "Which machines does crew blue in namespace shop run?"
    fed = asked_fed(planner._read(request, None, dict), planner.cache)
    assert fed == ["GET /namespaces/{namespace}/machines"]
    best = planner.plan(request).chains[0]
    assert [s.api for s in best.steps][-1] == "GET /namespaces/{namespace}/machines"
