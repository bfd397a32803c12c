"""Optional inputs naming one thing several ways (issue 18, chains): a list taking a user, a channel or a
folder, all optional, is filtered by the one a chain feeds; the others are no inputs it leaves unfed
("Which files did X upload?" ends at the files list, not at a list of marks that takes only the user).
A real compile of a small spec."""

from __future__ import annotations

import pytest

from apiatlas.planning.planner import Planner
from apiatlas.snapshot import Snapshot
from test_plan_members import _of, _op
from test_rest_loose_ids import compiled_spec

USER = "{type: object, properties: {id: {type: string}, name: {type: string}}}"
FILE = "{type: object, properties: {id: {type: string}, name: {type: string}, uploaded: {type: integer}}}"
FILES = _of("files", "{type: array, items: " + FILE + "}")
MARKS = _of("items", "{type: array, items: {type: object, properties: {file: " + FILE + "}}}")
SPEC = "openapi: 3.0.0\ninfo: {title: Drive, version: '1'}\npaths:\n" + "".join(
    [
        _op("/users.lookupByEmail", "get", "Find a user with an email address", [("email", True)],
            _of("user", USER)),
        _op("/users.info", "get", "Get a user", [("user_id", False)], _of("user", USER)),
        _op("/channels.info", "get", "Get a channel", [("channel_id", False)], _of("channel", USER)),
        _op("/folders.info", "get", "Get a folder", [("folder_id", False)], _of("folder", USER)),
        _op("/files.list", "get", "List files of a user, a channel or a folder",
            [("user", False), ("channel", False), ("folder", False)], FILES),
        _op("/marks.list", "get", "Lists the marks a user made on uploaded files", [("user", False)], MARKS),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def drive(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "alternative_inputs_drive", SPEC)


def test_one_optional_input_of_a_thing_fed_leaves_no_other_unfed(drive: Snapshot) -> None:
    result = Planner(drive).plan("Which files did quinn@example.com upload?")
    assert result.chains and result.chains[0].api_keys == ["GET /users.lookupByEmail", "GET /files.list"]
