"""Run a retrieval eval: index a dataset, run every query in hybrid, BM25 and dense modes, score them.

Ranking figures come from the full snapshot. Abstention is measured on ``OOC_FOLDS`` reduced
snapshots: requests with gold fall into folds by a hash of their id; the snapshot of fold ``k``
lacks the gold APIs of fold ``k``'s requests (and copies of the same operation published under
another name). On it, fold ``k``'s requests are out of catalog, and every other request whose gold
is all still there is in catalog; the dataset's own out-of-catalog requests run on the snapshot of
their fold. So both kinds of request always meet the same catalog (no signal can tell them apart by
the catalog's size or statistics), and removed APIs are deleted, not marked as dropped by the
funnel, so no search signal can see them. ``OutOfCatalog.OBJECT`` removes every API of the gold's
business objects instead (a whole service absent, none of its siblings left to look alike).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from apiatlas.catalog.model import Api, Catalog
from apiatlas.evals.dataset import EvalQuery, EvalSet, OutOfCatalog
from apiatlas.evals.full_catalog import full_catalog_figures
from apiatlas.evals.metrics import mean, ndcg_at, percentile, recall_at, reciprocal_rank
from apiatlas.evals.runs import ModeRuns, QueryRun, Runs, abstained, probability
from apiatlas.language.casing import as_read
from apiatlas.passes.index import SearchIndexing, index_and_write
from apiatlas.search.embedding import EmbeddingProvider
from apiatlas.search.hybrid import HybridSearch
from apiatlas.search.outcome import SearchMode
from apiatlas.search.tuning import FusionSettings
from apiatlas.search.vector_cache import default_cache_path
from apiatlas.snapshot.reader import Snapshot

MODES = (SearchMode.HYBRID, SearchMode.LEXICAL, SearchMode.DENSE)
OOC_FOLDS = 5  # requests with gold are split in five folds; each fold's gold is removed from its own pool


def fold_of(query: EvalQuery) -> int:
    """The fold whose snapshot lacks this request's gold (a stable hash of the id, apart from the split)."""
    return int(hashlib.sha256(query.qid.encode()).hexdigest()[8:16], 16) % OOC_FOLDS


def _operation(api: Api) -> tuple[str, str, tuple[str, ...]]:
    return (
        api.title.strip().casefold(),
        " ".join(api.description.split()).casefold(),
        tuple(sorted(p.name for p in api.params)),
    )


def removed_for(
    catalog: Catalog, queries: list[EvalQuery], scope: OutOfCatalog = OutOfCatalog.GOLD
) -> frozenset[str]:
    """The gold APIs of ``queries`` and every API of the same operation under another name (same title,
    same non-empty description, same parameter names: StableToolBench has tools copied under new names);
    with ``OutOfCatalog.OBJECT``, every API of those APIs' business objects as well."""
    gold = {k for q in queries for k in q.gold if k in catalog.apis}
    same = {_operation(catalog.apis[k]) for k in gold if catalog.apis[k].description.strip()}
    copies = {k for k, a in catalog.apis.items() if a.description.strip() and _operation(a) in same}
    removed = gold | copies
    if scope is OutOfCatalog.OBJECT:
        objects = {catalog.apis[k].object_key for k in removed}
        removed |= {k for k, a in catalog.apis.items() if a.object_key in objects}
    return frozenset(removed)


def build_eval_snapshot(
    evalset: EvalSet,
    out: Path,
    provider: EmbeddingProvider | None,
    settings: FusionSettings,
    exclude: frozenset[str] = frozenset(),
    cache: Path | None = None,
) -> Path:
    """Index the dataset's catalog, with the APIs of ``exclude`` deleted, into the snapshot ``out``."""
    catalog: Catalog = evalset.catalog.model_copy(deep=True)
    for key in exclude:
        catalog.apis.pop(key, None)
    for obj in catalog.objects.values():
        obj.api_keys = [k for k in obj.api_keys if k not in exclude]
    catalog.edges = [e for e in catalog.edges if e.producer not in exclude and e.consumer not in exclude]
    index = SearchIndexing(provider, settings, cache=cache)
    index_and_write(catalog, out, options={"source": evalset.name, "source_kind": "eval"}, index=index)
    return out


def run_queries(
    search: HybridSearch,
    queries: list[EvalQuery],
    mode: SearchMode,
    vectors: dict[str, npt.NDArray[np.float32]],
    embed_seconds: dict[str, float],
    limit: int = 10,
    out_of_catalog: bool = False,
) -> ModeRuns:
    """Every query through one mode; time = search time + the query's embedding time when it uses one."""
    out = ModeRuns(mode)
    for q in queries:
        start = time.perf_counter()
        outcome = search.search(q.text, limit=limit, mode=mode, query_vector=vectors.get(q.qid))
        seconds = time.perf_counter() - start
        if mode is not SearchMode.LEXICAL:
            seconds += embed_seconds.get(q.qid, 0.0)
        out.runs.append(QueryRun(q, outcome, seconds, out_of_catalog or not q.gold))
    return out


def embed_queries(
    provider: EmbeddingProvider | None, queries: list[EvalQuery]
) -> tuple[dict[str, npt.NDArray[np.float32]], dict[str, float]]:
    """One vector per query, embedded one at a time (as at run time: as the search reads it,
    ``language.casing.as_read``) and timed."""
    vectors: dict[str, npt.NDArray[np.float32]] = {}
    seconds: dict[str, float] = {}
    if provider is None:
        return vectors, seconds
    for q in queries:
        start = time.perf_counter()
        vectors[q.qid] = provider.embed_queries([as_read(q.text)])[0]
        seconds[q.qid] = time.perf_counter() - start
    return vectors, seconds


@dataclass
class EvalContext:
    """What a run needs besides the dataset: the provider, settings, a work folder, the vector cache."""

    provider: EmbeddingProvider | None
    settings: FusionSettings
    work: Path
    cache: Path | None = field(default_factory=default_cache_path)
    out_of_catalog: OutOfCatalog = OutOfCatalog.GOLD


@dataclass
class Fold:
    """The requests of one fold and the snapshot without their gold."""

    number: int
    queries: list[EvalQuery]
    path: Path
    removed: frozenset[str]


@dataclass
class Prepared:
    """The full snapshot, one snapshot per fold (with that fold's gold removed) and the query vectors."""

    evalset: EvalSet
    full: Path
    folds: list[Fold]
    vectors: dict[str, npt.NDArray[np.float32]]
    seconds: dict[str, float]
    out_of_catalog: OutOfCatalog = OutOfCatalog.GOLD

    @property
    def removed(self) -> int:
        return sum(len(f.removed) for f in self.folds)


def prepare(evalset: EvalSet, ctx: EvalContext) -> Prepared:
    name = evalset.name
    full = build_eval_snapshot(
        evalset, ctx.work / f"{name}.atlas", ctx.provider, ctx.settings, cache=ctx.cache
    )
    folds: list[Fold] = []
    for k in range(OOC_FOLDS):
        queries = [q for q in evalset.queries if q.gold and fold_of(q) == k]
        if not queries:
            continue
        removed = removed_for(evalset.catalog, queries, ctx.out_of_catalog)
        path = ctx.work / f"{name}-ooc{k}.atlas"
        build_eval_snapshot(evalset, path, ctx.provider, ctx.settings, removed, ctx.cache)
        folds.append(Fold(k, queries, path, removed))
    vectors, seconds = embed_queries(ctx.provider, evalset.queries)
    return Prepared(evalset, full, folds, vectors, seconds, ctx.out_of_catalog)


def collect(
    prep: Prepared, provider: EmbeddingProvider | None, settings: FusionSettings, modes: list[SearchMode]
) -> dict[SearchMode, Runs]:
    """Every request on the full snapshot (the dataset's own out-of-catalog ones too); on each fold's
    snapshot, the fold's requests (out of catalog), the other requests whose gold is all there (in
    catalog) and the dataset's own out-of-catalog requests of that fold; in every mode of ``modes``."""
    out = {m: Runs() for m in modes}
    gold = [q for q in prep.evalset.queries if q.gold]
    own = [q for q in prep.evalset.queries if not q.gold]
    v, s = prep.vectors, prep.seconds
    with Snapshot.open(prep.full) as snap:
        search = HybridSearch(snap, provider, settings)
        search.search("warm up", mode=modes[0], query_vector=next(iter(v.values()), None))
        for m in modes:
            out[m].full = run_queries(search, gold, m, v, s).runs
            out[m].own_full = run_queries(search, own, m, v, s, out_of_catalog=True).runs
    numbers = [f.number for f in prep.folds]
    for fold in prep.folds:
        intact = [q for q in gold if fold_of(q) != fold.number and not (q.gold & fold.removed)]
        mine = [q for q in own if numbers[fold_of(q) % len(numbers)] == fold.number]
        with Snapshot.open(fold.path) as snap:
            search = HybridSearch(snap, provider, settings)
            for m in modes:
                out[m].inside += run_queries(search, intact, m, v, s).runs
                out[m].outside += run_queries(search, fold.queries + mine, m, v, s, out_of_catalog=True).runs
    return out


def ranking_figures(runs: list[QueryRun]) -> dict[str, float]:
    scored = [r for r in runs if r.query.gold]
    return {
        "queries": len(scored),
        "recall@1": mean([recall_at(r.ranked, r.query.gold, 1) for r in scored]),
        "recall@5": mean([recall_at(r.ranked, r.query.gold, 5) for r in scored]),
        "recall@10": mean([recall_at(r.ranked, r.query.gold, 10) for r in scored]),
        "ndcg@5": mean([ndcg_at(r.ranked, r.query.gold, 5) for r in scored]),
        "ndcg@10": mean([ndcg_at(r.ranked, r.query.gold, 10) for r in scored]),
        "mrr": mean([reciprocal_rank(r.ranked, r.query.gold) for r in scored]),
        "latency_p50_ms": percentile([r.seconds * 1000 for r in runs], 50),
        "latency_p95_ms": percentile([r.seconds * 1000 for r in runs], 95),
    }


def abstention_figures(
    runs: Runs, settings: FusionSettings, threshold: float | None = None
) -> dict[str, float]:
    """Out-of-catalog runs should abstain; in-catalog ones should keep their Recall@5."""
    caught = [r for r in runs.outside if abstained(r, settings, threshold)]
    lost = [r for r in runs.inside if abstained(r, settings, threshold)]
    before = mean([recall_at(r.ranked, r.query.gold, 5) for r in runs.inside])
    drop = sum(recall_at(r.ranked, r.query.gold, 5) for r in lost) / len(runs.inside) if runs.inside else 0.0
    return {
        "out_of_catalog": len(runs.outside),
        "in_catalog": len(runs.inside),
        "abstention_precision": len(caught) / (len(caught) + len(lost)) if caught or lost else 0.0,
        "abstention_recall": len(caught) / len(runs.outside) if runs.outside else 0.0,
        "in_catalog_recall@5": before,
        "in_catalog_recall@5_with_abstention": before - drop,
        "recall@5_drop": drop,
    }


def by_kind(runs: Runs, settings: FusionSettings) -> dict[str, dict[str, float]]:
    """Share of out-of-catalog runs that abstain, per kind (``gold_removed`` and the dataset's own kinds)."""
    kinds = sorted({r.kind for r in runs.outside})
    out: dict[str, dict[str, float]] = {}
    for kind in kinds:
        mine = [r for r in runs.outside if r.kind == kind]
        out[kind] = {
            "requests": len(mine),
            "abstained": sum(1 for r in mine if abstained(r, settings)),
        }
    return out


CURVE_POINTS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0)


def tradeoff_curve(runs: Runs, settings: FusionSettings, mode: SearchMode) -> list[dict[str, Any]]:
    """Abstention vs in-catalog Recall@5 drop at thresholds read off the dev half (where the dev
    out-of-catalog share abstaining reaches each of ``CURVE_POINTS``), scored on both halves; the
    settings' own threshold is the row with ``chosen``."""
    dev, test = runs.split("dev"), runs.split("test")
    probs = sorted(probability(r, settings) for r in dev.outside)
    thresholds: list[float] = []
    for share in CURVE_POINTS:
        if probs:
            n = min(len(probs), max(1, round(share * len(probs))))
            thresholds.append(round(probs[n - 1] + 1e-6, 6))
    chosen = settings.model_for(mode.value).threshold
    rows: list[dict[str, Any]] = []
    for t in sorted({*thresholds, chosen}):
        d, h = abstention_figures(dev, settings, t), abstention_figures(test, settings, t)
        rows.append(
            {
                "threshold": t,
                "chosen": t == chosen,
                "dev_abstention": d["abstention_recall"],
                "dev_recall@5_drop": d["recall@5_drop"],
                "test_abstention": h["abstention_recall"],
                "test_recall@5_drop": h["recall@5_drop"],
            }
        )
    return rows


def report_of(
    prep: Prepared, runs: dict[SearchMode, Runs], settings: FusionSettings, provider: EmbeddingProvider | None
) -> dict[str, Any]:
    evalset = prep.evalset
    report: dict[str, Any] = {
        "dataset": evalset.name,
        "apis": len(evalset.catalog.apis),
        "queries": sum(1 for q in evalset.queries if q.gold),
        "out_of_catalog_requests": sum(1 for q in evalset.queries if not q.gold),
        "embedding_model": provider.model_id if provider else None,
        "settings": settings.model_dump(mode="json"),
        "held_out_apis": prep.removed,
        "ooc_folds": len(prep.folds),
        "out_of_catalog": prep.out_of_catalog.value,
        "modes": {},
    }
    for mode, mine in runs.items():
        figures: dict[str, Any] = {}
        for name, part in (("all", mine), ("dev", mine.split("dev")), ("test", mine.split("test"))):
            figures[name] = ranking_figures(part.full) | abstention_figures(part, settings)
        figures["by_kind"] = {
            name: by_kind(part, settings)
            for name, part in (("dev", mine.split("dev")), ("test", mine.split("test")))
        }
        figures["curve"] = tradeoff_curve(mine, settings, mode)
        figures["full_catalog"] = full_catalog_figures(mine, settings)
        figures["full_catalog_by_half"] = {
            half: full_catalog_figures(mine.split(half), settings, listed=False) for half in ("dev", "test")
        }
        report["modes"][mode.value] = figures
    return report


def run_eval(evalset: EvalSet, ctx: EvalContext, fit: bool = False) -> dict[str, Any]:
    """Figures per mode (all requests, dev and test halves), abstention with its trade-off curve;
    with ``fit``, the fusion weights and the abstention models are fitted on the dev half first."""
    from apiatlas.evals.calibrate import fit_abstention, fit_weights

    prep = prepare(evalset, ctx)
    modes = [m for m in MODES if ctx.provider is not None or m is SearchMode.LEXICAL]
    settings = ctx.settings
    if fit and ctx.provider is not None:
        settings = fit_weights(prep, ctx.provider, settings)
    runs = collect(prep, ctx.provider, settings, modes)
    if fit:
        settings = fit_abstention(
            [runs], settings, f"{evalset.name} dev half, `apiatlas eval retrieval --fit`"
        )
    report = report_of(prep, runs, settings, ctx.provider)
    report["fitted"] = fit
    return report
