"""The entry points near the stated values are found by binding only those a stated value may fill an
input of (``SnapshotCache.entries_stating``): the same entry points, and the same APIs one step on, as
binding every entry point of the catalog."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiatlas.planning.binding import bind
from apiatlas.planning.context import PlanContext
from apiatlas.planning.draft import hint_fit
from apiatlas.planning.evaluation import bank_cases
from apiatlas.planning.planner import Planner
from apiatlas.snapshot import Snapshot
from test_plan_lookups import SPEC
from test_rest_loose_ids import compiled_spec

_BANK_CHAINS = Path(__file__).resolve().parents[1] / "examples" / "bank" / "eval" / "chains.yaml"


def _every_entry_bound(ctx: PlanContext) -> dict[str, int]:
    """``near_values`` as it was: every entry point bound."""
    distance: dict[str, int] = {}
    kinds = ctx.cache.vocabulary.kind_set
    for key in sorted(ctx.entries()):
        api = ctx.api(key)
        if api is None:
            continue
        looked_up = (lambda a: lambda name: ctx.looked_up(a, name))(api)
        bound = bind(api, ctx.found, ctx.known, ctx.words, kinds, ctx.request, looked_up).values()
        fit = sum(1.0 + hint_fit(ctx.found[b.index].hint, api, kinds) for b in bound if b.index >= 0)
        if fit > 0.5 or any(b.known_as for b in bound):
            distance[key] = 0
    for key in [k for k, d in distance.items() if d == 0]:
        for consumer in ctx.cache.consumers_of(key):
            distance.setdefault(consumer, 1)
    return distance


def _same_near_values(planner: Planner, request: str) -> int:
    ctx = planner._read(request, None, dict)
    near = ctx.near_values()
    assert list(near.items()) == list(_every_entry_bound(ctx).items()), request
    return sum(1 for d in near.values() if d == 0)


def test_the_bank_requests_find_the_same_entry_points(bank_snapshot: Path) -> None:
    with Snapshot.open(bank_snapshot) as snap:
        planner = Planner(snap)
        near = [_same_near_values(planner, case.text) for case in bank_cases(_BANK_CHAINS)]
    assert sum(near) > len(near)  # most requests state a value some entry point takes


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "entry-inputs", SPEC)


def test_names_and_known_values_find_the_same_entry_points(snap: Snapshot) -> None:
    planner = Planner(snap)
    for request in (
        "Who are the members of the channel releases?",
        "Is carol@example.com online?",
        "Show the host of machine m-1 in namespace shop",
        "List the machines",
    ):
        _same_near_values(planner, request)
    ctx = planner._read("Show the machines", {"namespace": "shop"}, dict)
    assert ctx.near_values() == _every_entry_bound(ctx)
    assert 0 in ctx.near_values().values()  # the known namespace makes an entry point
