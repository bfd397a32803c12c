"""Plan confidence: the signals read from a real plan, NO_CONFIDENT_PLAN below the threshold (the
candidate chains kept, what is unclear said), and the fit's threshold holding the wrong-confident share."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apiatlas.build import compile_docs
from apiatlas.errors import ReasonCode
from apiatlas.evals.plan_confidence import (
    MAX_WRONG_CONFIDENT,
    PlanSample,
    confidence_figures,
    fit_plan_confidence,
)
from apiatlas.planning.calibrated import SHIPPED_PLAN_CONFIDENCE
from apiatlas.planning.confidence import PLAN_SIGNALS, PlanConfidenceModel, plan_signals
from apiatlas.planning.planner import Planner
from apiatlas.snapshot import Snapshot
from test_nestful import SPEC


@pytest.fixture(scope="module")
def music(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    folder = tmp_path_factory.mktemp("plan_confidence")
    spec = folder / "spec.json"
    spec.write_text(json.dumps(SPEC), encoding="utf-8")
    out = folder / "music.atlas"
    compile_docs(spec, overlays_dir=None, config_path=None, out=out, write_report=False)
    return Snapshot.open(out)


def _bias_only(bias: float, threshold: float) -> PlanConfidenceModel:
    return PlanConfidenceModel(
        signals=["score"], weights=[0.0], center=[0.0], scale=[1.0], bias=bias, threshold=threshold
    )


def test_signals_are_read_from_the_plan(music: Snapshot) -> None:
    result = Planner(music, confidence=None).plan("List the albums of the artist Adele")
    signals = plan_signals(result)
    assert set(signals) == set(PLAN_SIGNALS)
    assert signals["steps"] == len(result.chains[0].steps) and signals["actions"] == 1.0
    assert 0.0 <= signals["unused"] <= 1.0 and 0.0 < signals["edges"] <= 1.0
    assert result.confidence is None  # no model: nothing judged


def test_typed_is_the_share_of_taken_values_whose_form_says_their_kind(
    music: Snapshot, bank_snapshot: Path
) -> None:
    named = Planner(music, confidence=None).plan("List the albums of the artist Adele")
    assert named.chains[0].steps[0].inputs[0].value == "Adele" and plan_signals(named)["typed"] == 0.0
    with Snapshot.open(bank_snapshot) as bank:
        result = Planner(bank, confidence=None).plan("сделки по брокерскому счёту 30601810900122000004")
    taken = [i.value for s in result.chains[0].steps for i in s.inputs if i.origin == "request"]
    assert "30601810900122000004" in taken and plan_signals(result)["typed"] == 1.0


def test_below_the_threshold_the_plan_is_not_confident_and_says_why(music: Snapshot) -> None:
    sure = Planner(music, confidence=_bias_only(4.0, 0.5)).plan("List the albums of the artist Adele")
    assert sure.reason is ReasonCode.OK and sure.confidence is not None and sure.confidence > 0.9
    assert sure.unclear == []
    unsure = Planner(music, confidence=_bias_only(-4.0, 0.5)).plan("List the albums of the artist Adele")
    assert (unsure.status, unsure.reason) == ("partial", ReasonCode.NO_CONFIDENT_PLAN)
    assert unsure.chains and unsure.chains[0].api_keys == sure.chains[0].api_keys  # candidates kept
    assert unsure.unclear and "no confident plan" in unsure.message


def _samples(dataset: str, rights: list[bool], scores: list[float]) -> list[PlanSample]:
    base = dict.fromkeys(PLAN_SIGNALS, 0.0)
    return [
        PlanSample(dataset, f"{dataset}:{n}", False, {**base, "score": score}, right)
        for n, (right, score) in enumerate(zip(rights, scores, strict=True))
    ]


def test_the_fitted_threshold_keeps_wrong_confident_plans_within_the_bound() -> None:
    # right plans score high, wrong ones low, with an overlap: the threshold must cut into the overlap
    first = _samples("a", [True] * 6 + [False] * 4, [3, 3, 2.5, 2, 1.5, 1, 1.4, 1.2, 0.5, 0])
    second = _samples("b", [True] * 3 + [False] * 7, [2, 1.5, 1, 1.3, 0.8, 0.6, 0.4, 0.2, 0.1, 0])
    model = fit_plan_confidence(first + second, "test")
    assert model.weights[model.signals.index("score")] > 0
    for part in (first, second):
        figures = confidence_figures(part, model)
        assert figures["wrong_confident"] <= MAX_WRONG_CONFIDENT
    assert confidence_figures(first, model)["right_lost"] < 1.0


def test_the_shipped_model_is_a_fitted_one() -> None:
    assert SHIPPED_PLAN_CONFIDENCE.signals and 0.0 < SHIPPED_PLAN_CONFIDENCE.threshold < 1.0
    assert SHIPPED_PLAN_CONFIDENCE.fitted_on
    with pytest.raises(ValueError, match="unknown plan signals"):
        PlanConfidenceModel(signals=["nope"], weights=[1.0], center=[0.0], scale=[1.0])
