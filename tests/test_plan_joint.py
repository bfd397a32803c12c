"""Actions planned together: of each action's best few chains, the combination whose scores plus one
step's cost per step shared with an earlier action is highest ("details and offers for X" both from X's
search when that beats a details API of another kind by less than the step it saves)."""

from __future__ import annotations

from apiatlas.planning.combined import _coherent
from apiatlas.planning.model import CandidateChain, InputSource, PlannedStep
from apiatlas.planning.weights import Weights

STEP_COST = Weights().step  # the planner's price of one more step
SEARCH = PlannedStep(api="ProductSearch", inputs=[InputSource(name="q", origin="request", value="Sony")])


def _fed(api: str) -> PlannedStep:
    return PlannedStep(api=api, inputs=[InputSource(name="id", origin="step", from_step=0, from_field="id")])


def _chain(steps: list[PlannedStep], score: float) -> CandidateChain:
    return CandidateChain(
        steps=steps, score=score, entry_point=steps[0].api, target=steps[-1].api, confidence=1
    )


def _ends(candidates: list[list[CandidateChain]], back: list[bool] | None = None) -> list[str]:
    return [chains[0].target for chains in _coherent(candidates, back, STEP_COST)]


def test_a_chain_sharing_an_earlier_actions_step_wins_by_less_than_the_step() -> None:
    other_kind = _chain([PlannedStep(api="CountryDetails")], 1.0)
    offers = _chain([SEARCH, _fed("ProductOffers")], 1.0)
    close = _chain([SEARCH, _fed("ProductDetails")], 1.0 - STEP_COST / 2)
    assert _ends([[other_kind, close], [offers]]) == ["ProductDetails", "ProductOffers"]
    far = _chain([SEARCH, _fed("ProductDetails")], 1.0 - STEP_COST * 2)
    assert _ends([[other_kind, far], [offers]]) == [
        "CountryDetails",
        "ProductOffers",
    ]  # the saving is too small
    elsewhere = PlannedStep(
        api="ProductSearch", inputs=[InputSource(name="q", origin="request", value="Dyson")]
    )
    unshared = _chain([elsewhere, _fed("ProductDetails")], 1.0 - STEP_COST / 2)
    assert _ends([[other_kind, unshared], [offers]]) == ["CountryDetails", "ProductOffers"]  # another search
    assert _ends([[other_kind, close], [offers]], back=[True, False]) == ["CountryDetails", "ProductOffers"]
