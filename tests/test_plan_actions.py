"""Requests of several actions and writes as targets: the split, the request's order, one entry step
shared by two actions, and a write API at the end of a chain fed by the lookup of its input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client
from typer.testing import CliRunner

import apiatlas.commands.plan  # noqa: F401  (registers `plan`)
from apiatlas.catalog.model import Edge, EdgeLevel, Param, SideEffect
from apiatlas.cli_app import app
from apiatlas.planning import values as v
from apiatlas.planning.actions import split_actions
from apiatlas.planning.planner import Planner, reads_only
from apiatlas.planning.write_choice import collection_write, says_every
from apiatlas.snapshot import Snapshot, write_snapshot
from plan_catalogs import catalog_of, http_get
from spec_snapshots import compile_spec
from test_rest_loose_ids import compiled_spec
from test_server_catalog import structured
from test_server_navigation import run_in_process

FIND = "GET /teams"
MEMBERS = "GET /teams/{team_id}/members"
NOTES = "GET /teams/{team_id}/notes"
ARCHIVE = "POST /teams/{team_id}/archive"
POST = "POST /teams/{team_id}/notes"


@pytest.fixture(scope="module")
def teams(tmp_path_factory: pytest.TempPathFactory) -> Path:
    archive = http_get(ARCHIVE, "team_id", "out", "archived", title="Archive a team")
    post = http_get(POST, "team_id", "out", "note_id", title="Post a note to a team")
    post.params.append(Param(name="text", domain_type="string", required=False))
    for write in (archive, post):
        write.side_effect = SideEffect.WRITE
    apis = [
        http_get(FIND, "name", "out", "teams[].team_id", "teams[].name", title="Find teams by name"),
        http_get(MEMBERS, "team_id", "out", "members[].user_id", "members[].email",
                 title="Members of a team"),
        http_get(NOTES, "team_id", "out", "notes[].note_id", "notes[].text", title="Notes of a team"),
        archive,
        post,
    ]  # fmt: skip
    catalog = catalog_of(apis)
    catalog.edges = [
        Edge(producer=FIND, producer_table="out", producer_field="teams[].team_id", consumer=key,
             consumer_field="team_id", domain_type="integer", level=EdgeLevel.NAME_TYPE, reason="test")
        for key in (MEMBERS, NOTES, ARCHIVE, POST)
    ]  # fmt: skip
    path = tmp_path_factory.mktemp("teams") / "teams.atlas"
    write_snapshot(catalog, path, options={"source": "test"})
    return path


def _actions(request: str) -> list[tuple[str, str, bool]]:
    return [(a.text, a.verb, a.writes) for a in split_actions(request, v.extract_values(request))]


def test_a_request_splits_before_each_action_verb_and_nowhere_else() -> None:
    assert _actions("Archive the team Rockets and post 'bye' in it") == [
        ("Archive the team Rockets", "archive", True),
        ("post 'bye' in it", "post", True),
    ]
    assert _actions("найди команду Ракета, затем покажи её участников") == [
        ("найди команду Ракета", "найди", False),
        ("покажи её участников", "покажи", False),
    ]
    assert [a[0] for a in _actions("Create the team X, then delete it")] == ["Create the team X", "delete it"]
    assert [a[1] for a in _actions("создай команду X, а потом удали её")] == ["создай", "удали"]
    # a write done to two things: the verb carried to the second
    assert _actions("Delete the team X and the notes of it") == [
        ("Delete the team X", "delete", True),
        ("delete the notes of it", "delete", True),
    ]
    # "and" inside a stated value, between two things of one read, after a phrase with no verb
    assert len(_actions("Show the members of Tom and Jerry")) == 1
    assert len(_actions("Post 'fix and show' in the team Rockets")) == 1
    assert len(_actions("Show the members and the notes of the team Rockets")) == 1
    assert len(_actions("In the team Rockets, post a note")) == 1


def test_a_question_joined_by_and_to_a_question_is_asked_apart() -> None:
    assert [a[0] for a in _actions("Who are the members of team Rockets, and what notes has it sent?")] == [
        "Who are the members of team Rockets",
        "what notes has it sent?",
    ]
    assert [a[0] for a in _actions("How many notes are there and which team wrote the most?")] == [
        "How many notes are there",
        "which team wrote the most?",
    ]
    # not after a part that asks nothing, nor without "and"
    assert len(_actions("The notes of the team Rockets and what they say")) == 1
    assert len(_actions("Who wrote the notes, what team is it?")) == 1


def test_questions_sharing_one_predicate_or_a_bare_question_word_are_one_action() -> None:
    """"What notes and which teams are in Rockets?" asks one thing of two kinds; "… and when?" asks
    nothing of its own."""
    assert len(_actions("What notes and which teams are in the league Rockets?")) == 1
    assert len(_actions("How many notes and how many teams are in the league Rockets?")) == 1
    assert len(_actions("Who wrote the note Hello and when?")) == 1
    assert len(_actions("What notes has team Rockets sent and who read them?")) == 2


def test_the_actions_are_planned_in_the_request_order_sharing_the_lookup(teams: Path) -> None:
    with Snapshot.open(teams) as snap:
        planner = Planner(snap, allow=reads_only)
        plan = planner.plan("Show the notes of the team Rockets and then show its members")
        assert len(plan.parts) == 2
        best = plan.chains[0]
        assert best.api_keys == [FIND, NOTES, MEMBERS]  # the lookup of Rockets done once
        for step in best.steps[1:]:
            (team,) = [i for i in step.inputs if i.name == "team_id"]
            assert (team.origin, team.from_step, team.from_field) == ("step", 0, "teams[].team_id")
        other = planner.plan("Show the members of the team Rockets and then show its notes")
        assert other.chains[0].api_keys == [FIND, MEMBERS, NOTES]
        assert len(other.chains[0].chain_steps()) == 3
        twice = planner.plan("Show the notes of the team Rockets and show the members of the team Rockets")
        assert [p.chains[0].api_keys for p in twice.parts] == [[FIND, NOTES], [FIND, MEMBERS]]
        assert twice.chains[0].api_keys == [FIND, NOTES, MEMBERS]  # one lookup feeds both
        one = planner.plan("Show the members of the team Rockets")
        assert one.parts == [] and one.chains[0].api_keys == [FIND, MEMBERS]


def test_an_action_ordering_a_write_ends_at_a_write_when_the_caller_may_write(teams: Path) -> None:
    request = "Post the note 'deploy finished' to the team Rockets"
    with Snapshot.open(teams) as snap:
        plan = Planner(snap).plan(request)
        assert plan.chains[0].api_keys == [FIND, POST]  # the lookup feeds the write's team_id
        (team,) = [i for i in plan.chains[0].steps[1].inputs if i.name == "team_id"]
        assert (team.origin, team.from_step) == ("step", 0)
        reads = Planner(snap, allow=reads_only).plan(request)
        assert all(k not in (POST, ARCHIVE) for c in reads.chains for k in c.api_keys)
        both = Planner(snap).plan("Archive the team Rockets and post a note 'bye' in it")
        assert both.chains[0].api_keys == [FIND, ARCHIVE, POST]


def test_the_cli_and_the_plan_tool_answer_with_the_joined_chain(teams: Path) -> None:
    request = "Show the notes of the team Rockets and then show its members"
    out = CliRunner().invoke(app, ["plan", str(teams), request, "--json"])
    assert out.exit_code == 0, out.output
    plan = json.loads(out.output)
    assert [s["api"] for s in plan["execute_chain_steps"]] == [FIND, NOTES, MEMBERS]
    assert [p["request"] for p in plan["parts"]] == ["Show the notes of the team Rockets", "show its members"]
    write = "Archive the team Rockets and post a note 'bye' in it"
    reads = json.loads(CliRunner().invoke(app, ["plan", str(teams), write, "--json"]).output)
    assert all(ARCHIVE not in c["steps"][-1]["api"] for c in reads["chains"])
    writes = json.loads(CliRunner().invoke(app, ["plan", str(teams), write, "--json", "--writes"]).output)
    assert [s["api"] for s in writes["execute_chain_steps"]] == [FIND, ARCHIVE, POST]

    async def body(client: Client) -> None:
        answer = structured(await client.call_tool("atlas_plan_chain", {"request": request}))
        assert answer["chains"][0]["apis"] == [FIND, NOTES, MEMBERS]

    run_in_process(teams, body)


def _kind_paths(kind: str) -> dict[str, Any]:
    """A kind's list, read, partial update and status read, as a Kubernetes-style spec writes them."""
    ref = {"$ref": f"#/definitions/{kind}"}
    name = {
        "name": "name",
        "in": "path",
        "required": True,
        "type": "string",
        "description": f"name of the {kind}",
    }
    body = {"name": "body", "in": "body", "required": True, "schema": {"type": "object"}}

    def op(op_id: str, summary: str, params: list[dict[str, Any]], schema: dict[str, Any]) -> dict[str, Any]:
        return {"operationId": op_id, "summary": summary, "parameters": params,
                "responses": {"200": {"description": "OK", "schema": schema}}}  # fmt: skip

    listed = {"type": "object", "properties": {"items": {"type": "array", "items": ref}}}
    return {
        f"/{kind}s": {"get": op(f"list{kind}", f"list objects of kind {kind}", [], listed)},
        f"/{kind}s/{{name}}": {
            "get": op(f"read{kind}", f"read the specified {kind}", [name], ref),
            "patch": op(f"patch{kind}", f"partially update the specified {kind}", [name, body], ref),
        },
        f"/{kind}s/{{name}}/status": {
            "get": op(f"read{kind}Status", f"read status of the specified {kind}", [name], ref)
        },
    }


def test_an_action_pointing_back_ends_beneath_what_the_action_before_acted_on(tmp_path: Path) -> None:
    """ "… and check its status": the status of the widget just updated, not of another kind's item
    (every item's read takes the name the update returns; the gadget's comes first by its key)."""
    thing = {"type": "object", "properties": {
        "metadata": {"type": "object", "properties": {"name": {"type": "string"}}},
        "spec": {"type": "object", "properties": {"color": {"type": "string"}}},
        "status": {"type": "object", "properties": {"ready": {"type": "boolean"}}},
    }}  # fmt: skip
    spec = {
        "swagger": "2.0", "info": {"title": "things", "version": "1"},
        "paths": {**_kind_paths("gadget"), **_kind_paths("widget")},
        "definitions": {"gadget": thing, "widget": thing},
    }  # fmt: skip
    with Snapshot.open(compile_spec(tmp_path, spec)) as snap:
        plan = Planner(snap, allow=None).plan("Update the color of widget w1 and check its status")
    assert [s.api for s in plan.chains[0].steps] == ["PATCH /widgets/{name}", "GET /widgets/{name}/status"]


def test_a_copy_is_a_read_then_a_create() -> None:
    request = "Copy the configmap app-config from namespace staging to namespace prod"
    actions = split_actions(request, [])
    assert [(a.verb, a.writes) for a in actions] == [("get", False), ("create", True)]
    assert actions[1].text == "create the configmap app-config from namespace staging to namespace prod"
    russian = split_actions("скопируй секрет creds в неймспейс ci", [])
    assert [a.verb for a in russian] == ["получи", "создай"]
    for verb in ("duplicate", "clone"):  # every copy verb, not only "copy"
        assert [a.verb for a in split_actions(f"{verb} the report Q3", [])] == ["get", "create"]
    for verb in ("клонируй", "продублируй"):
        assert [a.verb for a in split_actions(f"{verb} отчёт Q3", [])] == ["получи", "создай"]


def test_a_word_that_also_names_a_parameter_orders_no_write() -> None:
    """"limit" is the commonest paging parameter: "… and limit the output to 5" is still one read."""
    actions = split_actions("List the pods of namespace shop and limit the output to 5", [])
    assert [(a.verb, a.writes) for a in actions] == [("list", False)]


def test_a_write_to_every_item_is_the_collection_write() -> None:
    assert collection_write("DELETE /api/v1/namespaces/{namespace}/pods/{name}") == (
        "DELETE /api/v1/namespaces/{namespace}/pods"
    )
    assert collection_write("GET /api/v1/namespaces/{namespace}/pods/{name}") == ""  # a read
    assert collection_write("POST /api/v1/namespaces/{namespace}/pods/{name}/eviction") == ""
    assert collection_write("PATCH /v1/boxes/{box}") == "PATCH /v1/boxes"
    assert collection_write("POST /v1/accounts/{account}") == ""  # a POST to the collection creates
    assert says_every(["Restart", "all", "pods"]) and says_every(["удали", "все", "поды"])
    assert not says_every(["Restart", "the", "pod"])


def test_a_word_an_object_pronoun_follows_is_a_verb_and_orders_a_change_unless_it_asks() -> None:
    """In "… and limit it to 5 GB with a quota" a verb the language does not know, read by the pronoun
    after it, opens an action that changes the thing; "… and see it" asks; "limit the output" (no pronoun) is
    no verb of its own (above)."""
    request = "Create the folder f-1 and limit it to 5 GB with a storage quota"
    actions = split_actions(request, v.extract_values(request))
    assert [(a.verb, a.writes) for a in actions] == [("create", True), ("limit", True)]
    assert actions[1].text == "limit it to 5 GB with a storage quota"
    assert [(a.verb, a.writes) for a in split_actions("Create the folder f-1 and see it", [])] == [
        ("create", True),
        ("see", False),
    ]
    russian = split_actions("создай папку f-1 и ограничь её квотой", [])
    assert [(a.verb, a.writes) for a in russian] == [("создай", True), ("ограничь", True)]
    assert [a.verb for a in split_actions("Show the folder f-1 and all of it", [])] == ["show"]


def _obj(*names: str) -> str:
    return "{type: object, properties: {" + ", ".join(f"{n}: {{type: string}}" for n in names) + "}}"


def _ok(schema: str) -> str:
    return "{'200': {description: ok, content: {application/json: {schema: " + schema + "}}}}"


_FOLDER = "{name: folder, in: path, required: true, schema: {type: string}}"
_NAME = "{name: name, in: path, required: true, schema: {type: string}}"
FOLDERS = f"""\
openapi: 3.0.0
info: {{title: Folders, version: '1'}}
paths:
  /folders:
    post:
      summary: Create a folder
      requestBody: {{content: {{application/json: {{schema: {_obj("name")}}}}}}}
      responses: {_ok(_obj("name", "id"))}
    get:
      summary: List the folders
      responses: {_ok("{type: object, properties: {items: {type: array, items: " + _obj("name") + "}}}")}
  /folders/{{folder}}:
    get:
      summary: Read the specified folder
      parameters: [{_FOLDER}]
      responses: {_ok(_obj("name", "size"))}
  /folders/{{folder}}/storagequotas:
    post:
      summary: Create a storage quota
      parameters: [{_FOLDER}]
      requestBody: {{content: {{application/json: {{schema: {_obj("limit")}}}}}}}
      responses: {_ok(_obj("name"))}
  /folders/{{folder}}/storagequotas/{{name}}:
    get:
      summary: Read the specified storage quota
      parameters: [{_FOLDER}, {_NAME}]
      responses: {_ok(_obj("name"))}
  /folders/{{folder}}/sizelimits:
    post:
      summary: Create a size limit
      parameters: [{_FOLDER}]
      responses: {{'200': {{description: ok}}}}
"""


def test_the_change_a_pronoun_s_verb_orders_is_planned_on_what_the_action_before_made(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    snap = compiled_spec(tmp_path_factory, "folders", FOLDERS)
    best = Planner(snap).plan("Create the folder f-1 and limit it to 5 GB with a storage quota").chains[0]
    apis = [s.api for s in best.steps]
    assert "POST /folders" in apis and apis[-1] == "POST /folders/{folder}/storagequotas"


def test_a_verb_before_a_dative_pronoun_opens_an_action() -> None:
    # «задай ему квоту»: set it a quota; the pronoun of whom it is done to, as «ограничь его …»
    assert _actions("Создай коробку box-1 и задай ей крышку") == [
        ("Создай коробку box-1", "создай", True),
        ("задай ей крышку", "задай", True),
    ]
    gives = [a.gives for a in split_actions("Создай коробку box-1 и задай ей крышку", [])]
    assert gives == [False, True]  # a lid given to the box
    assert not any(a.gives for a in split_actions("Get the invoices and sort them by amount", []))


def test_a_second_thing_found_through_the_first_is_a_second_read() -> None:
    # "… and the volume behind it": found through the claim, read after it; two things read apart are one
    assert _actions("Show the claim of box b-1 and the volume behind it") == [
        ("Show the claim of box b-1", "show", False),
        ("show the volume behind it", "show", False),
    ]
    assert len(_actions("Show the members and the notes of the team Rockets")) == 1
