"""Fit and measure the plan-confidence model (``planning.confidence``) on the chain sets' development
halves: each case's top chain is right or not (exact match of the gold chain; NESTFUL: the gold
sequence), the plan's signals say how it looked. Held-out halves are measured with the fitted model,
never fitted on; a development set marked ``fitted=False`` is measured only (a never-fitted check).

The model is a weighted logistic regression (``evals.calibrate.logistic_regression``, each dataset
weighing the same) over ``MODEL_SIGNALS``, each weight held to the direction the signal is read in (a
longer lead says surer, a longer chain than the runner-up less sure): a signal the fit would weigh the
other way is left out of that fit (weight 0) and the rest refitted, so a refit never turns a signal's
meaning round on a few cases. Its threshold is chosen on plans the model never saw: each catalog's
development cases are scored by the model fitted on the other catalogs (leave one catalog out), and the
threshold is the lowest at which at most ``MAX_WRONG_CONFIDENT`` of all the development cases (pooled) are
wrong and still confident, and no catalog more than ``MAX_CATALOG_WRONG_CONFIDENT`` of its own, under those
scores and under the fitted model's own. Chosen on the fitted cases alone, the threshold held on them and
not on catalogs never fitted: the planner is tuned on its development sets, so their plans look surer than
new ones. The bound is on the pooled share, each catalog only capped: bounding each catalog at 10% let the
one whose wrong chains look most like its right ones (TMDB: gold chains that stop earlier than the request
reads) set the threshold for all, and three right chains in four were held back (threshold 0.880, 204 of
270); the pooled bound with the cap holds back one in three at 0.060 wrong and confident (docs/planning.md,
session 24). A bound on each 8–15-case set moved the threshold by one case, and a bound on the sets' average
let one catalog's new requests be wrong and confident one time in eight.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from apiatlas.evals.calibrate import logistic_regression
from apiatlas.planning.confidence import PlanConfidenceModel, plan_signals
from apiatlas.planning.planner import Planner

MAX_WRONG_CONFIDENT = 0.07  # a wrong top chain returned as confident: at most this share of all the cases
MAX_CATALOG_WRONG_CONFIDENT = 0.15  # … and at most this share of any one catalog's cases
# the signals the model weighs (of ``PLAN_SIGNALS``), each with the direction its weight is held to (+1: a
# higher value says surer): read from how the plan's chains stand to each other, the sign of the top chain's
# score and how many of the request's words it leaves uncovered, not from a catalog's score scale; chosen
# on catalogs left out of the fit (docs/planning.md)
MODEL_SIGNALS: dict[str, int] = {
    "margin": 1,
    "lead_other": 1,
    "longer": -1,
    "below_zero": -1,
    "uncovered": -1,
}


@dataclass(frozen=True)
class PlanSample:
    """One planned case: its set, split, signals and whether the top chain was right; ``catalog``: the
    catalog it was planned over (sets of one catalog are left out together; "" = its own), ``fitted``:
    False for a development set only measured, never fitted on."""

    dataset: str
    qid: str
    held_out: bool
    signals: dict[str, float]
    right: bool
    catalog: str = ""
    fitted: bool = True

    @property
    def group(self) -> str:
        return self.catalog or self.dataset


def plan_sample(
    planner: Planner, dataset: str, qid: str, text: str, held_out: bool,
    right: Callable[[tuple[str, ...]], bool], catalog: str = "", fitted: bool = True,
) -> PlanSample:  # fmt: skip
    """Plan ``text`` and judge its top chain with ``right`` (over the planned API keys)."""
    result = planner.plan(text)
    planned = tuple(result.chains[0].api_keys) if result.chains else ()
    right_plan = bool(planned) and right(planned)
    return PlanSample(dataset, qid, held_out, plan_signals(result), right_plan, catalog, fitted)


def fit_plan_confidence(samples: Sequence[PlanSample], fitted_on: str) -> PlanConfidenceModel:
    """The model fitted on the fitted development samples (each dataset the same total weight), with the
    threshold of ``threshold_for`` over their leave-one-catalog-out scores (``out_of_fold``), or over their
    own scores when that is higher."""
    dev = _fitted(samples)
    model = _fit(dev, fitted_on)
    threshold = threshold_for([(model.probability(s.signals), s) for s in dev])
    if len({s.group for s in dev}) > 1:
        threshold = max(threshold, threshold_for(out_of_fold(dev)))
    return model.model_copy(update={"threshold": math.floor(threshold * 1e6) / 1e6})


def _fitted(samples: Sequence[PlanSample]) -> list[PlanSample]:
    return [s for s in samples if s.fitted and not s.held_out]


def _fit(dev: Sequence[PlanSample], fitted_on: str) -> PlanConfidenceModel:
    names = list(MODEL_SIGNALS)
    x = np.array([[s.signals[n] for n in names] for s in dev], dtype=np.float64)
    y = np.array([1.0 if s.right else 0.0 for s in dev])
    count = {d: sum(1 for s in dev if s.dataset == d) for d in {s.dataset for s in dev}}
    weight = np.array([1.0 / count[s.dataset] for s in dev])
    weight *= len(dev) / weight.sum()
    center, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    coef, bias = directed_regression((x - center) / scale, y, weight, [MODEL_SIGNALS[n] for n in names])
    return PlanConfidenceModel(
        signals=names,
        weights=[round(float(c), 6) for c in coef],
        center=[round(float(c), 6) for c in center],
        scale=[round(float(s), 6) for s in scale],
        bias=round(bias, 6),
        fitted_on=fitted_on,
    )


def directed_regression(
    x: npt.NDArray[np.float64],
    y: npt.NDArray[np.float64],
    weight: npt.NDArray[np.float64],
    signs: Sequence[int],
) -> tuple[npt.NDArray[np.float64], float]:
    """``logistic_regression`` with each coefficient of sign ``signs[i]`` or 0: while some weight has the
    other sign, the column whose weight is furthest the wrong way is left out and the rest refitted."""
    active = list(range(x.shape[1]))
    while True:
        coef = np.zeros(x.shape[1])
        fitted, bias = logistic_regression(x[:, active], y, weight)
        coef[active] = fitted
        wrong = [i for i in active if signs[i] * coef[i] < 0]
        if not wrong:
            return coef, bias
        active.remove(min(wrong, key=lambda i: signs[i] * coef[i]))


def out_of_fold(dev: Sequence[PlanSample]) -> list[tuple[float, PlanSample]]:
    """Each development sample scored by the model fitted on the other catalogs' samples."""
    out: list[tuple[float, PlanSample]] = []
    for group in dict.fromkeys(s.group for s in dev):
        model = _fit([s for s in dev if s.group != group], "")
        out.extend((model.probability(s.signals), s) for s in dev if s.group == group)
    return out


def threshold_for(scored: Sequence[tuple[float, PlanSample]]) -> float:
    """The lowest probability at which at most ``MAX_WRONG_CONFIDENT`` of all the cases of ``scored`` (each
    case with its probability) are wrong and confident, and no catalog (``PlanSample.group``: its sets
    pooled) has more than ``MAX_CATALOG_WRONG_CONFIDENT`` of its cases so."""
    groups: dict[str, list[tuple[float, PlanSample]]] = {}  # each catalog's cases, split once
    for p, s in scored:
        groups.setdefault(s.group, []).append((p, s))
    for t in [0.0, *sorted({p for p, _ in scored})]:
        worst = max((_wrong_confident(cases, t) for cases in groups.values()), default=0.0)
        if _wrong_confident(scored, t) <= MAX_WRONG_CONFIDENT and worst <= MAX_CATALOG_WRONG_CONFIDENT:
            return t
    return 1.0


def _sets(samples: Sequence[PlanSample]) -> list[str]:
    return list(dict.fromkeys(s.dataset for s in samples))


def _wrong_confident(scored: Sequence[tuple[float, PlanSample]], threshold: float) -> float:
    if not scored:
        return 0.0
    return sum(1 for p, s in scored if not s.right and p >= threshold) / len(scored)


def confidence_figures(samples: Sequence[PlanSample], model: PlanConfidenceModel) -> dict[str, Any]:
    """``scored_figures`` of ``samples`` under ``model``."""
    return scored_figures([(model.probability(s.signals), s) for s in samples], model.threshold)


def scored_figures(scored: Sequence[tuple[float, PlanSample]], threshold: float) -> dict[str, Any]:
    """Of samples scored with a probability: cases, right top chains, the share of cases answered
    confident, the share whose wrong top chain is confident (the figure to drive down) and the share of
    right ones lost to ``NO_CONFIDENT_PLAN``."""
    right = [x for x in scored if x[1].right]
    confident = [x for x in scored if x[0] >= threshold]
    return {
        "cases": len(scored),
        "right": len(right),
        "confident": _share(len(confident), len(scored)),
        "wrong_confident": round(_wrong_confident(scored, threshold), 4),
        "right_lost": _share(sum(1 for p, _ in right if p < threshold), len(right)),
        "right_when_confident": _share(sum(1 for _, s in confident if s.right), len(confident)),
    }


def _share(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def confidence_report(samples: Sequence[PlanSample], model: PlanConfidenceModel) -> dict[str, Any]:
    """The figures per dataset and split with the model: ``development`` (a fitted set: the cases fitted
    on; ``fitted`` false: never fitted on), ``leave_one_out`` (a fitted set's development cases scored by
    the model fitted without its catalog, at the model's threshold) and ``held_out``."""
    out: dict[str, Any] = {"model": model.model_dump(), "sets": {}}
    dev = _fitted(samples)
    apart = out_of_fold(dev) if len({s.group for s in dev}) > 1 else []
    for name in _sets(samples):
        mine = [s for s in samples if s.dataset == name]
        out["sets"][name] = {
            "fitted": any(s.fitted for s in mine),
            "development": confidence_figures([s for s in mine if not s.held_out], model),
            "leave_one_out": scored_figures([x for x in apart if x[1].dataset == name], model.threshold),
            "held_out": confidence_figures([s for s in mine if s.held_out], model),
        }
    out["development"] = confidence_figures(dev, model)
    out["leave_one_out"] = scored_figures(apart, model.threshold)
    return out
