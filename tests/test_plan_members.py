"""A write to the things inside where a thing goes ("Add dana@example.com to the team core": the users of
a team, ``teams.users.set``), its input fed by the step looking up the thing the request names when the
list of teams only holds the members each team has. A real compile of a small spec."""

from __future__ import annotations

import pytest

from apiatlas.catalog.model import Api
from apiatlas.planning.intent import destination_kinds, holds
from apiatlas.planning.planner import Planner
from apiatlas.snapshot import Snapshot
from test_rest_loose_ids import compiled_spec


def _op(path: str, method: str, summary: str, params: list[tuple[str, bool]], out: str) -> str:
    given = ", ".join(
        f"{{name: {n}, in: query, required: {str(r).lower()}, schema: {{type: string}}}}" for n, r in params
    )
    return f"""\
  {path}:
    {method}:
      summary: {summary}
      parameters: [{given}]
      responses: {{'200': {{description: ok, content: {{application/json: {{schema: {out}}}}}}}}}
"""


_ITEMS = "{type: array, items: {type: string}}"
TEAM = "{type: object, properties: {id: {type: string}, name: {type: string}, users: " + _ITEMS + "}}"
USER = "{type: object, properties: {id: {type: string}, name: {type: string}, email: {type: string}}}"
OK = "{type: object, properties: {ok: {type: boolean}}}"


def _of(name: str, schema: str) -> str:
    return "{type: object, properties: {" + name + ": " + schema + "}}"


SPEC = "openapi: 3.0.0\ninfo: {title: Teams, version: '1'}\npaths:\n" + "".join(
    [
        _op("/teams.list", "get", "List all teams", [], _of("teams", "{type: array, items: " + TEAM + "}")),
        _op("/teams.info", "get", "Get a team", [("team_id", True)], _of("team", TEAM)),
        _op("/users.lookupByEmail", "get", "Find a user with an email address", [("email", True)],
            _of("user", USER)),
        _op("/users.info", "get", "Get a user", [("user_id", True)], _of("user", USER)),
        _op("/teams.create", "post", "Create a team", [("name", True)], _of("team", TEAM)),
        _op("/teams.rename", "post", "Rename a team", [("team", True), ("name", True)], OK),
        _op("/admin.teams.addProjects", "post",
            "Associate one or more default projects with an organization-wide team",
            [("team", True), ("project_ids", True)], OK),
        _op("/teams.users.set", "post", "Update the list of users of a team",
            [("team", True), ("users", True)], OK),
    ]
)  # fmt: skip
SET = "POST /teams.users.set"


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "teams_members", SPEC)


def _api(snap: Snapshot, key: str) -> Api:
    api = snap.get_api(key)
    assert api is not None, key
    return api


def test_where_a_thing_goes_and_the_writes_to_what_is_in_it(snap: Snapshot) -> None:
    vocabulary = snap.vocabulary()
    assert destination_kinds(
        "Add dana@example.com to the team core", ["dana@example.com", "core"], vocabulary
    ) == {"team"}
    assert destination_kinds("Rename the team core to platform", ["core", "platform"], vocabulary) == set()
    assert holds(_api(snap, SET), "team", vocabulary)  # the users of a team
    assert not holds(_api(snap, "POST /teams.rename"), "team", vocabulary)  # the team itself
    assert not holds(_api(snap, SET), "user", vocabulary)


def test_the_write_to_the_team_s_users_is_a_target_fed_by_the_user_looked_up(snap: Snapshot) -> None:
    planner = Planner(snap)
    request = "Add dana@example.com to the team core"
    chains = planner.plan(request).chains
    fed = next(c for c in chains if c.steps[-1].api == SET)
    assert [s.api for s in fed.steps] == ["GET /users.lookupByEmail", "GET /teams.list", SET]
    assert not fed.missing
    inputs = {i.name: i for i in fed.steps[2].inputs}
    assert (inputs["users"].from_step, inputs["users"].from_field) == (0, "user.id")  # not a team's users[]
    assert (inputs["team"].pick_field, inputs["team"].pick_value) == ("teams[].name", "core")
    assert [s.api for s in chains[0].steps] == [s.api for s in fed.steps]


def test_no_write_to_the_things_in_it_when_another_kind_is_what_is_written(snap: Snapshot) -> None:
    planner = Planner(snap)
    ctx = planner._read("Copy the user dana to the team core", None, dict)
    assert planner._kind_writes.of_members(ctx, True) == []
    ctx = planner._read("Add dana@example.com to the team core", None, dict)
    assert planner._kind_writes.of_members(ctx, True) == [SET]
