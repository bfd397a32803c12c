"""Where a later action puts a thing (issue 18, chains): "Create a team core and put dana@example.com in it"
puts her in the team the first action made (the users of a team, ``teams.users.set``), "in it" read as "to
the team"; a new thing made "in it" is no thing put there. A real compile of a small spec."""

from __future__ import annotations

import pytest

from apiatlas.planning.planner import Planner
from apiatlas.planning.pointing import named_destination
from apiatlas.snapshot import Snapshot
from test_plan_members import SET, SPEC
from test_rest_loose_ids import compiled_spec


def test_in_it_is_the_one_kind_the_action_before_names() -> None:
    kinds = lambda text: {"team"} if "team" in text else set()  # noqa: E731
    earlier, put = ["Create a team core"], "put dana@example.com in it"
    assert named_destination(put, earlier, kinds) == "put dana@example.com to the team"
    assert named_destination(put, ["Create x"], kinds) == put  # no kind named before
    assert named_destination("create a note n-1 in it", earlier, kinds) == "create a note n-1 in it"  # new


@pytest.fixture(scope="module")
def teams(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "destination_teams", SPEC)


def test_a_thing_put_in_what_the_action_before_made_goes_to_its_members(teams: Snapshot) -> None:
    result = Planner(teams, allow=None).plan("Create a team core and put dana@example.com in it")
    assert result.chains
    assert result.chains[0].api_keys == ["POST /teams.create", "GET /users.lookupByEmail", SET]
