"""Fit fusion weights and abstention thresholds on the dev half of a dataset (never on the test half)."""

from __future__ import annotations

from collections.abc import Callable

from apiatlas.evals.dataset import EvalSet
from apiatlas.evals.metrics import mean, ndcg_at, recall_at
from apiatlas.evals.runner import (
    EvalContext,
    QueryRun,
    build_eval_snapshot,
    embed_queries,
    is_held_out,
    run_queries,
)
from apiatlas.search.hybrid import HybridSearch, SearchMode
from apiatlas.search.tuning import FusionSettings
from apiatlas.snapshot.reader import Snapshot

MAX_DROP = 0.03  # in-catalog Recall@5 may fall by at most 3 points


def _features(run: QueryRun) -> tuple[float, float]:
    """(dense margin, rarity-weighted lexical coverage) of a run's first hit."""
    return run.outcome.margin, run.outcome.coverage


def best_threshold(
    runs: list[QueryRun], held: frozenset[str], confidence: Callable[[QueryRun], float]
) -> tuple[float, float]:
    """The highest threshold whose in-catalog Recall@5 drop stays within MAX_DROP; (threshold, OOC caught)."""
    inside = [r for r in runs if r.query.qid not in held]
    ooc = [r for r in runs if r.query.qid in held]
    if not inside or not ooc:
        return 0.0, 0.0
    gains = [(confidence(r), recall_at(r.ranked, r.query.gold, 5)) for r in inside]
    best = (0.0, 0.0)
    for t in sorted({round(confidence(r), 4) for r in runs}):
        lost = sum(g for c, g in gains if c < t) / len(inside)
        if lost > MAX_DROP:
            break
        caught = sum(1 for r in ooc if confidence(r) < t) / len(ooc)
        if caught >= best[1]:
            best = (t, caught)
    return best


def fit_settings(evalset: EvalSet, ctx: EvalContext) -> FusionSettings:
    """Weights maximising dev nDCG@5 + Recall@5, then thresholds catching most dev out-of-catalog queries."""
    dev = [q for q in evalset.queries if q.split == "dev"]
    held = frozenset(q.qid for q in dev if is_held_out(q))
    removed = frozenset(k for q in evalset.queries if is_held_out(q) for k in q.gold)
    ranked_q = [q for q in dev if q.gold]
    ooc_q = [q for q in dev if q.qid in held] + [
        q for q in dev if q.qid not in held and not (q.gold & removed)
    ]
    full = build_eval_snapshot(evalset, ctx.work / "fit.atlas", ctx.provider, ctx.settings, cache=ctx.cache)
    reduced = build_eval_snapshot(
        evalset, ctx.work / "fit-ooc.atlas", ctx.provider, ctx.settings, removed, ctx.cache
    )
    vectors, seconds = embed_queries(ctx.provider, dev)
    best_w, best_score = ctx.settings.lexical_weight, -1.0
    with Snapshot.open(full) as snap:
        for step in range(11):
            w = step / 10
            settings = ctx.settings.model_copy(update={"lexical_weight": w, "dense_weight": 1 - w})
            runs = run_queries(
                HybridSearch(snap, ctx.provider, settings), ranked_q, SearchMode.HYBRID, vectors, seconds
            ).runs
            score = mean(
                [ndcg_at(r.ranked, r.query.gold, 5) + recall_at(r.ranked, r.query.gold, 5) for r in runs]
            )
            if score > best_score:
                best_w, best_score = w, score
    weighted = ctx.settings.model_copy(update={"lexical_weight": best_w, "dense_weight": 1 - best_w})
    with Snapshot.open(reduced) as snap:
        search = HybridSearch(snap, ctx.provider, weighted)
        by_mode = {m: run_queries(search, ooc_q, m, vectors, seconds).runs for m in SearchMode}
    best_alpha, best_t, best_caught = 1.0, 0.0, -1.0
    for step in range(11):
        alpha = step / 10

        def conf(r: QueryRun, a: float = alpha) -> float:
            cos, cov = _features(r)
            return a * cos + (1 - a) * cov

        t, caught = best_threshold(by_mode[SearchMode.HYBRID], held, conf)
        if caught > best_caught:
            best_alpha, best_t, best_caught = alpha, t, caught
    lexical_t, _ = best_threshold(by_mode[SearchMode.LEXICAL], held, lambda r: _features(r)[1])
    dense_t, _ = best_threshold(by_mode[SearchMode.DENSE], held, lambda r: _features(r)[0])
    return weighted.model_copy(
        update={
            "confidence_dense": best_alpha,
            "abstain_below": best_t,
            "lexical_abstain_below": lexical_t,
            "dense_abstain_below": dense_t,
            "fitted_on": f"{evalset.name} dev half ({len(dev)} queries)",
        }
    )
