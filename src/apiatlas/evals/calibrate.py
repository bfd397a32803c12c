"""Fit the fusion weights and the abstention models on the dev half of a dataset (never on the test half)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from apiatlas.evals.metrics import mean, ndcg_at, recall_at
from apiatlas.evals.runner import Prepared, run_queries
from apiatlas.evals.runs import QueryRun, Runs
from apiatlas.search.confidence import DENSE_SIGNALS, HYBRID_SIGNALS, LEXICAL_SIGNALS, AbstentionModel
from apiatlas.search.embedding import EmbeddingProvider
from apiatlas.search.hybrid import HybridSearch
from apiatlas.search.outcome import SearchMode
from apiatlas.search.tuning import FusionSettings
from apiatlas.snapshot.reader import Snapshot

MAX_DROP = 0.03  # in-catalog Recall@5 may fall by at most 3 points
DROP_QUANTILE = 0.9  # ... in 90% of bootstrap resamples of the dev half's in-catalog requests
RESAMPLES = 200
L2 = 1.0  # ridge penalty of the logistic regression (on standardised signals)
MODE_SIGNALS = {
    SearchMode.HYBRID: HYBRID_SIGNALS,
    SearchMode.LEXICAL: LEXICAL_SIGNALS,
    SearchMode.DENSE: DENSE_SIGNALS,
}


def fit_weights(prep: Prepared, provider: EmbeddingProvider, settings: FusionSettings) -> FusionSettings:
    """The lexical weight (0, 0.1, ... 1) maximising dev nDCG@5 + Recall@5 of the hybrid on the full pool."""
    dev = [q for q in prep.evalset.queries if q.split == "dev" and q.gold]
    best_w, best_score = settings.lexical_weight, -1.0
    with Snapshot.open(prep.full) as snap:
        for step in range(11):
            w = step / 10
            trial = settings.model_copy(update={"lexical_weight": w, "dense_weight": 1 - w})
            search = HybridSearch(snap, provider, trial)
            runs = run_queries(search, dev, SearchMode.HYBRID, prep.vectors, prep.seconds).runs
            score = mean(
                [ndcg_at(r.ranked, r.query.gold, 5) + recall_at(r.ranked, r.query.gold, 5) for r in runs]
            )
            if score > best_score:
                best_w, best_score = w, score
    return settings.model_copy(update={"lexical_weight": best_w, "dense_weight": round(1 - best_w, 4)})


def logistic_regression(
    x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], weight: npt.NDArray[np.float64], l2: float = L2
) -> tuple[npt.NDArray[np.float64], float]:
    """Weighted, ridge-penalised logistic regression by Newton steps: (coefficients, bias)."""
    n, d = x.shape
    design = np.hstack([x, np.ones((n, 1))])
    beta = np.zeros(d + 1)
    penalty = np.eye(d + 1) * l2
    penalty[d, d] = 0.0  # the bias is not penalised
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(design @ beta, -50, 50)))
        grad = design.T @ (weight * (p - y)) + penalty @ beta
        hess = (design * (weight * p * (1 - p))[:, None]).T @ design + penalty + np.eye(d + 1) * 1e-9
        step = np.linalg.solve(hess, grad)
        beta -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    return beta[:d], float(beta[d])


def best_threshold(
    parts: Sequence[Runs], confidence: Callable[[QueryRun], float], quantile: float | None = DROP_QUANTILE
) -> tuple[float, float]:
    """The highest threshold keeping the in-catalog Recall@5 lost within ``MAX_DROP`` on every part
    (one part per dataset): (threshold, share of all out-of-catalog runs below it). With ``quantile``,
    the loss is that quantile of the loss over ``RESAMPLES`` bootstrap resamples of each part's
    in-catalog runs (a threshold that only just fits the dev half overshoots on unseen requests)."""
    parts = [p for p in parts if p.inside and p.outside]
    if not parts:
        return 0.0, 0.0
    rng = np.random.default_rng(0)
    losses: list[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.int64]]] = []
    for p in parts:
        conf = np.array([confidence(r) for r in p.inside])
        gain = np.array([recall_at(r.ranked, r.query.gold, 5) for r in p.inside])
        n = len(p.inside)
        draws = rng.integers(0, n, size=(RESAMPLES, n)) if quantile is not None else np.arange(n)[None, :]
        losses.append((conf, gain, draws))
    outside = [confidence(r) for p in parts for r in p.outside]
    best = (0.0, 0.0)
    for t in sorted({float(c) for conf, _, _ in losses for c in conf} | set(outside)):
        lost = [((conf[d] < t) * gain[d]).mean(axis=1) for conf, gain, d in losses]
        if any(float(np.quantile(x, quantile if quantile is not None else 1.0)) > MAX_DROP for x in lost):
            break
        best = (t, sum(1 for c in outside if c < t) / len(outside))
    return best


def fit_model(parts: Sequence[Runs], names: Sequence[str]) -> AbstentionModel:
    """Logistic regression of 'served by the catalog' over the runs' signals ``names``: in-catalog runs
    weighed by their Recall@5 (abstaining on a miss costs nothing), the two classes of every part (one
    per dataset) given equal total weight; then the threshold of ``best_threshold`` over the parts."""
    xs: list[list[float]] = []
    ys: list[float] = []
    ws: list[float] = []
    for part in parts:
        inside = [r for r in part.inside if _fits(r)]
        outside = [r for r in part.outside if _fits(r)]
        gain = np.array([recall_at(r.ranked, r.query.gold, 5) for r in inside])
        if not outside or gain.sum() == 0:
            continue
        xs += [[r.outcome.signals.get(n, 0.0) for n in names] for r in [*inside, *outside]]
        ys += [1.0] * len(inside) + [0.0] * len(outside)
        ws += [*(gain / gain.sum()).tolist(), *[1.0 / len(outside)] * len(outside)]
    if not xs:
        return AbstentionModel()
    x = np.array(xs, dtype=np.float64)
    center, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    weight = np.array(ws) * len(ws) / sum(ws)
    coef, bias = logistic_regression((x - center) / scale, np.array(ys), weight)
    model = AbstentionModel(
        signals=list(names),
        weights=[round(float(c), 6) for c in coef],
        center=[round(float(c), 6) for c in center],
        scale=[round(float(s), 6) for s in scale],
        bias=round(bias, 6),
    )
    threshold, _ = best_threshold(parts, lambda r: _probability(model, r))
    # rounded down: a run the fit kept (confidence == threshold) must not abstain once rounded
    return model.model_copy(update={"threshold": math.floor(threshold * 1e6) / 1e6})


def _fits(run: QueryRun) -> bool:
    """Whether a run can teach its mode's model: hits, no exact name, judged by its own mode's model."""
    ranked = run.outcome.ranked
    return bool(ranked) and not ranked[0].exact and run.outcome.judged_as is None


def _probability(model: AbstentionModel, run: QueryRun) -> float:
    ranked = run.outcome.ranked
    if not ranked:
        return 0.0
    return 1.0 if ranked[0].exact else model.probability(run.outcome.signals)


def fit_abstention(
    runs: Sequence[dict[SearchMode, Runs]], settings: FusionSettings, fitted_on: str
) -> FusionSettings:
    """One abstention model per mode, fitted on the dev halves of ``runs`` (one mapping per dataset)."""
    modes = [m for m in MODE_SIGNALS if all(m in r for r in runs)]
    models = {m.value: fit_model([r[m].split("dev") for r in runs], MODE_SIGNALS[m]) for m in modes}
    inside = sum(len(r[modes[0]].split("dev").inside) for r in runs) if modes else 0
    outside = sum(len(r[modes[0]].split("dev").outside) for r in runs) if modes else 0
    return settings.model_copy(
        update={
            "abstention": models,
            "fitted_on": f"{fitted_on} ({inside} requests with gold, {outside} out of catalog)",
        }
    )
