"""A name said before its kind (issue 18, chains): "… out of the core team" names the team core, as "the
team core" does; describing, newest and ordinal words before a kind name nothing."""

from __future__ import annotations

import pytest

from apiatlas.planning import values as v
from apiatlas.planning.planner import Planner
from apiatlas.planning.said_names import said_names
from apiatlas.snapshot import Snapshot
from test_plan_members import SPEC
from test_rest_loose_ids import compiled_spec


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "names_before", SPEC)


def _names(snap: Snapshot, text: str) -> list[tuple[str, str]]:
    found = said_names(text, snap.vocabulary(), [], frozenset())
    return [(str(f.value), f.hint) for f in found if f.kind == v.NAME]


def test_a_name_before_its_kind_after_a_place(snap: Snapshot) -> None:
    assert _names(snap, "Add dana@example.com to the core team") == [("core", "team")]
    assert _names(snap, "Rename the q3-planning team") == []  # no place before "the"
    for describing in ("same", "latest", "first", "bigger"):
        assert _names(snap, f"Add dana@example.com to the {describing} team") == []
    assert ("core", "team") not in _names(snap, "Add dana to the core team members")  # not ending the phrase


def test_the_team_named_before_its_kind_is_picked_from_the_list(snap: Snapshot) -> None:
    chains = Planner(snap).plan("Add dana@example.com to the core team").chains
    assert chains and [s.api for s in chains[0].steps][-2:] == ["GET /teams.list", "POST /teams.users.set"]
    inputs = {i.name: i for i in chains[0].steps[-1].inputs}
    assert (inputs["team"].pick_field, inputs["team"].pick_value) == ("teams[].name", "core")


def test_a_name_ending_like_a_participle_is_one_where_the_phrase_ends(snap: Snapshot) -> None:
    assert _names(snap, "Show the team marketing") == [("marketing", "team")]
    assert _names(snap, "Show the team marketing, then rename it") == [("marketing", "team")]
    assert _names(snap, "Show the team owning the project x-1") == []  # a participle: more follows
