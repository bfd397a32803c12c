"""Fit and measure the plan-confidence model (``planning.confidence``) on the chain sets' development
halves: each case's top chain is right or not (exact match of the gold chain; NESTFUL: the gold
sequence), the plan's signals say how it looked. Held-out halves are measured with the fitted model,
never fitted on.

The model is a weighted logistic regression (``evals.calibrate.logistic_regression``, each dataset
weighing the same); its threshold is the lowest that keeps, on every dataset's development half, the
cases whose wrong top chain is still confident at or below ``MAX_WRONG_CONFIDENT`` of its cases.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from apiatlas.evals.calibrate import logistic_regression
from apiatlas.planning.confidence import PLAN_SIGNALS, PlanConfidenceModel, plan_signals
from apiatlas.planning.planner import Planner

MAX_WRONG_CONFIDENT = 0.10  # a wrong top chain returned as confident: at most this share of a set's cases


@dataclass(frozen=True)
class PlanSample:
    """One planned case: its set, split, signals and whether the top chain was right."""

    dataset: str
    qid: str
    held_out: bool
    signals: dict[str, float]
    right: bool


def plan_sample(
    planner: Planner, dataset: str, qid: str, text: str, held_out: bool,
    right: Callable[[tuple[str, ...]], bool],
) -> PlanSample:  # fmt: skip
    """Plan ``text`` and judge its top chain with ``right`` (over the planned API keys)."""
    result = planner.plan(text)
    planned = tuple(result.chains[0].api_keys) if result.chains else ()
    return PlanSample(dataset, qid, held_out, plan_signals(result), bool(planned) and right(planned))


def fit_plan_confidence(samples: Sequence[PlanSample], fitted_on: str) -> PlanConfidenceModel:
    """The model over every signal, fitted on the development samples (each dataset the same total
    weight), and its threshold (``threshold_for``)."""
    dev = [s for s in samples if not s.held_out]
    names = list(PLAN_SIGNALS)
    x = np.array([[s.signals[n] for n in names] for s in dev], dtype=np.float64)
    y = np.array([1.0 if s.right else 0.0 for s in dev])
    count = {d: sum(1 for s in dev if s.dataset == d) for d in {s.dataset for s in dev}}
    weight = np.array([1.0 / count[s.dataset] for s in dev])
    weight *= len(dev) / weight.sum()
    center, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    coef, bias = logistic_regression((x - center) / scale, y, weight)
    model = PlanConfidenceModel(
        signals=names,
        weights=[round(float(c), 6) for c in coef],
        center=[round(float(c), 6) for c in center],
        scale=[round(float(s), 6) for s in scale],
        bias=round(bias, 6),
        fitted_on=fitted_on,
    )
    threshold = threshold_for(dev, model)
    return model.model_copy(update={"threshold": math.floor(threshold * 1e6) / 1e6})


def threshold_for(dev: Sequence[PlanSample], model: PlanConfidenceModel) -> float:
    """The lowest probability at which no dataset has more than ``MAX_WRONG_CONFIDENT`` of its cases
    wrong and confident."""
    scored = [(model.probability(s.signals), s) for s in dev]
    for t in [0.0, *sorted({p for p, _ in scored})]:
        worst = max(_wrong_confident([(p, s) for p, s in scored if s.dataset == d], t) for d in _sets(dev))
        if worst <= MAX_WRONG_CONFIDENT:
            return t
    return 1.0


def _sets(samples: Sequence[PlanSample]) -> list[str]:
    return list(dict.fromkeys(s.dataset for s in samples))


def _wrong_confident(scored: Sequence[tuple[float, PlanSample]], threshold: float) -> float:
    if not scored:
        return 0.0
    return sum(1 for p, s in scored if not s.right and p >= threshold) / len(scored)


def confidence_figures(samples: Sequence[PlanSample], model: PlanConfidenceModel) -> dict[str, Any]:
    """Per dataset: cases, right top chains, the share of cases answered confident, the share whose
    wrong top chain is confident (the figure to drive down) and the share of right ones lost to
    ``NO_CONFIDENT_PLAN``."""
    scored = [(model.probability(s.signals), s) for s in samples]
    right = [x for x in scored if x[1].right]
    return {
        "cases": len(scored),
        "right": len(right),
        "confident": _share(sum(1 for p, _ in scored if p >= model.threshold), len(scored)),
        "wrong_confident": round(_wrong_confident(scored, model.threshold), 4),
        "right_lost": _share(sum(1 for p, _ in right if p < model.threshold), len(right)),
        "right_when_confident": _share(
            sum(1 for p, s in scored if s.right and p >= model.threshold),
            sum(1 for p, _ in scored if p >= model.threshold),
        ),
    }


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def confidence_report(samples: Sequence[PlanSample], model: PlanConfidenceModel) -> dict[str, Any]:
    """The figures per dataset and split (development, held-out), with the model."""
    out: dict[str, Any] = {"model": model.model_dump(), "sets": {}}
    for name in _sets(samples):
        mine = [s for s in samples if s.dataset == name]
        out["sets"][name] = {
            "development": confidence_figures([s for s in mine if not s.held_out], model),
            "held_out": confidence_figures([s for s in mine if s.held_out], model),
        }
    dev = [s for s in samples if not s.held_out]
    out["development"] = confidence_figures(dev, model)
    return out
