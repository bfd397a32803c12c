"""Qualified twins (issue 18, chains): an operation named as another with a leading namespace
(``staff.boards.archive`` beside ``boards.archive``) is not preferred over the plain one, unless the
request says the namespace. A real compile of a small spec."""

from __future__ import annotations

import pytest

from apiatlas.planning.planner import Planner
from apiatlas.planning.twins import plain_twins, qualified_twin, twin_spaces
from apiatlas.snapshot import Snapshot
from test_plan_members import OK, _of, _op
from test_rest_loose_ids import compiled_spec

BOARD = "{type: object, properties: {id: {type: string}, name: {type: string}}}"
BOARDS = _of("boards", "{type: array, items: " + BOARD + "}")
SPEC = "openapi: 3.0.0\ninfo: {title: Boards, version: '1'}\npaths:\n" + "".join(
    [
        _op("/boards.list", "get", "List all boards", [], BOARDS),
        _op("/staff.boards.archive", "post", "Archive a board", [("board_id", True)], OK),
        _op("/boards.archive", "post", "Stores a board away", [("board", True)], OK),
        _op("/boards.info", "get", "Get a board", [("board", True)], _of("board", BOARD)),
        _op("/staff.boards.rename", "post", "Rename a board", [("board_id", True), ("name", True)], OK),
        _op("/boards.rename", "post", "Rename a board", [("board", True), ("name", True)], OK),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def boards(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "twins_boards", SPEC)


def test_a_twin_is_the_plain_name_after_a_leading_namespace() -> None:
    assert qualified_twin("POST /staff.boards.archive", "POST /boards.archive") == "staff"
    assert qualified_twin("GET /internal/boards/{id}", "GET /boards/{id}") == "internal"
    assert qualified_twin("GET /users/{user}/boards", "GET /boards") == ""  # a parameter: a narrower list
    assert qualified_twin("POST /staff.boards.archive", "GET /boards.archive") == ""  # another method
    assert qualified_twin("POST /boards.unarchive", "POST /boards.archive") == ""  # not at a dot
    keys = ["POST /staff.boards.archive", "POST /boards.archive", "POST /staff.boards.delete"]
    assert plain_twins(keys, {"staff"}) == keys[1:]
    assert plain_twins(keys, {"staff"}, ["staff"]) == keys  # the request says the namespace
    assert plain_twins(keys, set()) == keys  # no namespace in the catalog


def test_a_namespace_is_put_before_several_operations() -> None:
    keys = [
        "POST /staff.boards.archive", "POST /boards.archive", "POST /staff.boards.rename",
        "POST /boards.rename", "GET /teams.members.list", "GET /members.list", "GET /v1/boards/{id}",
        "GET /boards/{id}", "GET /v1/boards",
    ]  # fmt: skip
    # "teams" is before one list only (the members of a team); "v1" before one path of its own twins
    assert twin_spaces(keys) == {"staff"}


def test_the_plain_operation_wins_over_its_qualified_twin(boards: Snapshot) -> None:
    result = Planner(boards, allow=None).plan("Archive the board roadmap")
    assert result.chains and result.chains[0].steps[-1].api == "POST /boards.archive"
    said = Planner(boards, allow=None).plan("As staff, archive the board roadmap")
    assert said.chains and said.chains[0].steps[-1].api == "POST /staff.boards.archive"
