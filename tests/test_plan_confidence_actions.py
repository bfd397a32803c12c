"""Plan confidence of a request of several actions: each action's signals are read from the chain the
joined plan takes for it (``combined._coherent`` may take an action's second chain, sharing a step with
another action), not from the chain ranked first for that action alone."""

from __future__ import annotations

import pytest

from apiatlas.planning.actions import RequestAction
from apiatlas.planning.combined import combined_plan
from apiatlas.planning.confidence import plan_signals, unclear
from apiatlas.planning.model import CandidateChain, InputSource, PlannedStep, PlanResult
from apiatlas.planning.snapshot_reads import SnapshotCache
from apiatlas.planning.weights import Weights
from apiatlas.snapshot import Snapshot
from test_plan_members import _of, _op
from test_plan_review_cases import _by_path
from test_rest_loose_ids import compiled_spec

STEP_COST = Weights().step
ITEM = "{type: object, properties: {id: {type: string}, name: {type: string}}}"
_ITEMS = "{type: array, items: " + ITEM + "}"
SPEC = "openapi: 3.0.0\ninfo: {title: Shop, version: '1'}\npaths:\n" + "".join(
    [
        _op("/products", "get", "Search products", [("q", True)], _of("items", _ITEMS)),
        _by_path("/products/{id}", "get", "Product details", "id", ITEM),
        _by_path("/products/{id}/offers", "get", "Offers for a product", "id", _of("offers", _ITEMS)),
        _by_path("/countries/{name}", "get", "Country details", "name", ITEM),
    ]
)  # fmt: skip
SEARCH = PlannedStep(api="GET /products", inputs=[InputSource(name="q", origin="request", value="Sony")])


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "confidence_actions", SPEC)


def _fed(api: str) -> PlannedStep:
    return PlannedStep(api=api, inputs=[InputSource(name="id", origin="step", from_step=0, from_field="id")])


def _chain(steps: list[PlannedStep], score: float) -> CandidateChain:
    return CandidateChain(
        steps=steps, score=score, entry_point=steps[0].api, target=steps[-1].api, confidence=1
    )


def _action(text: str, chains: list[CandidateChain]) -> tuple[RequestAction, PlanResult]:
    return RequestAction(text, "get", False), PlanResult(request=text, chains=chains)


def test_an_action_s_signals_are_those_of_the_chain_the_joined_plan_takes(shop: Snapshot) -> None:
    country = _chain([PlannedStep(api="GET /countries/{name}", inputs=[
        InputSource(name="name", origin="request", value="Sony")])], 1.0)  # fmt: skip
    details = _chain([SEARCH, _fed("GET /products/{id}")], 1.0 - STEP_COST / 2)  # shares the search
    offers = _chain([SEARCH, _fed("GET /products/{id}/offers")], 1.0)
    parts = [_action("Get details for Sony", [country, details]), _action("Get offers for Sony", [offers])]
    plan = combined_plan("Get details and offers for Sony", parts, SnapshotCache(shop), STEP_COST)
    assert plan.chains[0].api_keys == ["GET /products", "GET /products/{id}", "GET /products/{id}/offers"]
    signals = plan_signals(plan)
    # the details action takes its second chain: two steps where the country's takes one, scoring below it
    assert signals["longer"] == 1.0 and signals["lead_other"] == 0.0 and signals["margin"] == 0.0
    said = unclear(plan, signals)  # chain 1 and 2 of the action named: the plan shows its joined chain only
    assert "'Get details for Sony': chain 2 (GET /countries/{name}) scores 0.10 above chain 1" in said
    assert "'Get details for Sony': chain 1 takes 1 step(s) more than chain 2 (GET /countries/{name})" in said
