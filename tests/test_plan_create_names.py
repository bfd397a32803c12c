"""The name of a new thing (issue 18, chains): "Create a board roadmap" gives "roadmap" to the ``name`` of
the board's create (``POST /boards.create``), not a name read from another list. A real compile of a small
spec."""

from __future__ import annotations

import pytest

from apiatlas.catalog.model import Api
from apiatlas.planning.lookups import creates
from apiatlas.planning.planner import Planner
from apiatlas.snapshot import Snapshot
from test_plan_members import _of, _op
from test_rest_loose_ids import compiled_spec

BOARD = "{type: object, properties: {id: {type: string}, name: {type: string}}}"
NOTES = _of("notes", "{type: array, items: " + BOARD + "}")
SPEC = "openapi: 3.0.0\ninfo: {title: Boards, version: '1'}\npaths:\n" + "".join(
    [
        _op("/boards.info", "get", "Get a board", [("board_id", False)], _of("board", BOARD)),
        _op("/boards.create", "post", "Creates a board", [("name", False), ("description", False)],
            _of("board", BOARD)),
        _op("/notes.history", "get", "Fetches the notes of a board", [("board", False)], NOTES),
    ]
)  # fmt: skip


def test_a_create_makes_one_of_its_kind() -> None:
    assert creates(_api("POST /boards.create")) == "board"
    assert creates(_api("POST /v1/boards")) == "board"
    assert creates(_api("POST /boards.archive")) == ""  # another write
    assert creates(_api("POST /boards/{id}")) == ""  # an item's


def _api(key: str) -> Api:
    return Api(key=key, object_key="")


@pytest.fixture(scope="module")
def boards(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "create_names_boards", SPEC)


def test_the_name_of_a_new_thing_fills_its_create(boards: Snapshot) -> None:
    result = Planner(boards, allow=None).plan("Create a board roadmap")
    assert result.chains and result.chains[0].api_keys == ["POST /boards.create"]
    step = result.chains[0].steps[0]
    assert [(i.name, i.value) for i in step.inputs if i.name == "name"] == [("name", "roadmap")]
