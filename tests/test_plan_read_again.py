"""An action pointing back at what a question before it read (issue 18, chains): "Which berth does the
dock d-1 use? Show that berth" reads the berth once, the question's read being the thing shown; a write
pointing back is still done. A real compile of a small spec."""

from __future__ import annotations

import pytest

from apiatlas.planning.planner import Planner
from apiatlas.planning.pointing import said_again
from apiatlas.snapshot import Snapshot
from test_plan_members import OK
from test_plan_review_cases import _by_path
from test_rest_loose_ids import compiled_spec

META = "metadata: {type: object, properties: {name: {type: string}}}"


def _thing(spec: str) -> str:
    return "{type: object, properties: {" + META + ", spec: {type: object, properties: {" + spec + "}}}}"


DOCK, BERTH = _thing("berthName: {type: string}"), _thing("depth: {type: integer}")
_DELETE = _by_path("/berths/{name}", "delete", "delete a Berth", "name", OK)
SPEC = "openapi: 3.0.0\ninfo: {title: Harbour, version: '1'}\npaths:\n" + "".join(
    [
        _by_path("/docks/{name}", "get", "read the specified Dock", "name", DOCK),
        _by_path("/berths/{name}", "get", "read the specified Berth", "name", BERTH),
        _DELETE.replace("  /berths/{name}:\n", "", 1),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def harbour(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "read_again_harbour", SPEC)


def test_a_read_pointing_back_at_the_same_read_is_done_once(harbour: Snapshot) -> None:
    result = Planner(harbour).plan("Which berth does the dock d-1 use? Show that berth")
    assert result.chains and result.chains[0].api_keys == ["GET /docks/{name}", "GET /berths/{name}"]


def test_a_write_pointing_back_is_still_done(harbour: Snapshot) -> None:
    result = Planner(harbour, allow=None).plan("Which berth does the dock d-1 use? Delete that berth")
    assert result.chains and result.chains[0].api_keys[-1] == "DELETE /berths/{name}"


def test_a_bare_definite_noun_points_back_at_the_thing_named_before(harbour: Snapshot) -> None:
    assert said_again("Show the berth", ["Which berth does the dock d-1 use?"])
    assert not said_again("Show the berths", ["Which berth does the dock d-1 use?"])  # all of them
    assert not said_again("Show the dock", ["Which berth does the pier p-1 use?"])  # nothing said before
    result = Planner(harbour).plan("Which berth does the dock d-1 use? Show the berth")
    assert result.chains and result.chains[0].api_keys == ["GET /docks/{name}", "GET /berths/{name}"]
