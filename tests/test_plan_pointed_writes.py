"""A later action pointing back with a verb and no kind of its own ("Find the box b-1 and delete it"): its
targets are also the writes saying that verb to the kind the action before ends at (``KindWrites.
_pointed``), those at that API's own path first: the box's delete, not another kind's delete that the
word "delete" alone finds, nor the delete of a part of the box."""

from __future__ import annotations

import pytest

from apiatlas.planning.planner import Planner
from apiatlas.snapshot import Snapshot
from test_plan_members import _of, _op
from test_plan_review_cases import _by_path
from test_rest_loose_ids import compiled_spec

BOX = "{type: object, properties: {name: {type: string}, size: {type: integer}}}"
LABEL = "{type: object, properties: {name: {type: string}, text: {type: string}}}"
OK = "{type: object, properties: {ok: {type: boolean}}}"
SPEC = "openapi: 3.0.0\ninfo: {title: Store, version: '1'}\npaths:\n" + "".join(
    [
        _op("/boxes", "get", "List boxes", [], _of("items", "{type: array, items: " + BOX + "}")),
        _by_path("/boxes/{name}", "get", "Read a box", "name", BOX),
        _by_path("/boxes/{name}", "delete", "Remove a box", "name", OK).replace("  /boxes/{name}:\n", "", 1),
        _by_path("/boxes/{name}/lid", "delete", "Delete the lid of a box", "name", OK),
        _op("/labels", "get", "List labels", [], _of("items", "{type: array, items: " + LABEL + "}")),
        _by_path("/labels/{name}", "delete", "Delete a label; deletes it for good", "name", OK),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "pointed_writes", SPEC)


def test_delete_it_deletes_the_thing_the_action_before_found(store: Snapshot) -> None:
    result = Planner(store, allow=None).plan("Find the box b-1 and delete it")
    assert result.chains and result.chains[0].api_keys == ["GET /boxes/{name}", "DELETE /boxes/{name}"]


def test_a_kind_said_by_the_later_action_is_still_its_own(store: Snapshot) -> None:
    result = Planner(store, allow=None).plan("Find the box b-1 and delete its label l-2")
    assert result.chains and result.chains[0].api_keys[-1] == "DELETE /labels/{name}"
