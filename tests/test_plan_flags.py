"""Verbs a catalog says with a flag of its things (issue 18, chains): "Halt the machine m-1" where the
machine's update writes a boolean ``spec.halt`` ends at that update; a flag naming a state ("paused",
"ready") or a part of a kind's name says no verb. A real compile of a small spec."""

from __future__ import annotations

import pytest

from apiatlas.planning.flags import flag_verbs, item_updates
from apiatlas.planning.planner import Planner
from apiatlas.snapshot import Snapshot
from test_plan_members import OK
from test_plan_review_cases import _by_path
from test_rest_loose_ids import compiled_spec

_FLAGS = "halt: {type: boolean}, paused: {type: boolean}, ready: {type: boolean}, rack: {type: boolean}"
MACHINE = (
    "{type: object, properties: {metadata: {type: object, properties: {name: {type: string}}}, "
    "spec: {type: object, properties: {" + _FLAGS + ", cores: {type: integer}}}}}"
)


def _more(path: str, method: str, summary: str, out: str) -> str:
    return _by_path(path, method, summary, "name", out).replace(f"  {path}:\n", "", 1)


SPEC = "openapi: 3.0.0\ninfo: {title: Fleet, version: '1'}\npaths:\n" + "".join(
    [
        _by_path("/machines/{name}", "get", "read the specified Machine", "name", MACHINE),
        _more("/machines/{name}", "patch", "partially update the specified Machine", MACHINE),
        _more("/machines/{name}", "delete", "delete a Machine", OK),
        _by_path("/rackslots/{name}", "get", "read the specified RackSlot", "name", MACHINE),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "flags_fleet", SPEC)


def test_the_flags_an_item_update_writes_say_verbs(fleet: Snapshot) -> None:
    keys = fleet.all_api_keys()
    assert item_updates(keys) == ["PATCH /machines/{name}"]
    # "paused" and "ready" name states; "rack" is a part of the kind ``rackslot``
    assert flag_verbs([fleet.get_api(k) for k in item_updates(keys)], ["machine", "rackslot"]) == {"halt"}


def test_a_request_ordering_a_flag_ends_at_the_item_update(fleet: Snapshot) -> None:
    result = Planner(fleet, allow=None).plan("Halt the machine m-1")
    assert result.chains and result.chains[0].api_keys == ["PATCH /machines/{name}"]
    read = Planner(fleet, allow=None).plan("Show the machine m-1")
    assert read.chains and read.chains[0].api_keys == ["GET /machines/{name}"]
