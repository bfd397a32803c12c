"""Run a retrieval eval: index a dataset, run every query in hybrid, BM25 and dense modes, score them."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from apiatlas.catalog.model import Catalog, FunnelVerdict
from apiatlas.evals.dataset import EvalQuery, EvalSet
from apiatlas.evals.metrics import mean, ndcg_at, percentile, recall_at, reciprocal_rank
from apiatlas.passes.index import IndexPass, index_and_write
from apiatlas.search.embedding import EmbeddingProvider
from apiatlas.search.hybrid import HybridSearch, SearchMode, SearchOutcome
from apiatlas.search.tuning import FusionSettings
from apiatlas.search.vector_cache import default_cache_path
from apiatlas.snapshot.reader import Snapshot

MODES = (SearchMode.HYBRID, SearchMode.LEXICAL, SearchMode.DENSE)
OOC_SHARE = 5  # one query in five (by hash of its id) has its gold APIs removed for the abstention run


def is_held_out(query: EvalQuery) -> bool:
    """Out-of-catalog by construction: no gold, or picked (stably) to have its gold removed."""
    return not query.gold or int(hashlib.sha256(query.qid.encode()).hexdigest()[8:16], 16) % OOC_SHARE == 0


def build_eval_snapshot(
    evalset: EvalSet,
    out: Path,
    provider: EmbeddingProvider | None,
    settings: FusionSettings,
    exclude: frozenset[str] = frozenset(),
    cache: Path | None = None,
) -> Path:
    """Index the dataset's catalog (minus ``exclude``) into the snapshot ``out``."""
    catalog: Catalog = evalset.catalog.model_copy(deep=True)
    for key in exclude:
        if key in catalog.apis:
            catalog.apis[key].funnel = FunnelVerdict(kept=False, dropped_at="eval", reason="held out")
    index = IndexPass(provider, settings, cache=cache)
    index_and_write(catalog, out, options={"source": evalset.name, "source_kind": "eval"}, index=index)
    return out


@dataclass
class QueryRun:
    query: EvalQuery
    outcome: SearchOutcome
    seconds: float

    @property
    def ranked(self) -> list[str]:
        return [h.api_key for h in self.outcome.ranked]


@dataclass
class ModeRuns:
    mode: SearchMode
    runs: list[QueryRun] = field(default_factory=list)


def run_queries(
    search: HybridSearch,
    queries: list[EvalQuery],
    mode: SearchMode,
    vectors: dict[str, npt.NDArray[np.float32]],
    embed_seconds: dict[str, float],
    limit: int = 10,
) -> ModeRuns:
    """Every query through one mode; time = search time + the query's embedding time when it uses one."""
    out = ModeRuns(mode)
    for q in queries:
        start = time.perf_counter()
        outcome = search.search(q.text, limit=limit, mode=mode, query_vector=vectors.get(q.qid))
        seconds = time.perf_counter() - start
        if mode is not SearchMode.LEXICAL:
            seconds += embed_seconds.get(q.qid, 0.0)
        out.runs.append(QueryRun(q, outcome, seconds))
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


def abstention_figures(runs: list[QueryRun], held_out: frozenset[str]) -> dict[str, float]:
    """Held-out queries should abstain; in-catalog ones should keep their Recall@5."""
    ooc = [r for r in runs if r.query.qid in held_out]
    inside = [r for r in runs if r.query.qid not in held_out]
    abstained = [r for r in runs if r.outcome.abstained]
    right = [r for r in abstained if r.query.qid in held_out]
    before = mean([recall_at(r.ranked, r.query.gold, 5) for r in inside])
    after = mean([0.0 if r.outcome.abstained else recall_at(r.ranked, r.query.gold, 5) for r in inside])
    return {
        "out_of_catalog": len(ooc),
        "in_catalog": len(inside),
        "abstention_precision": len(right) / len(abstained) if abstained else 0.0,
        "abstention_recall": len(right) / len(ooc) if ooc else 0.0,
        "in_catalog_recall@5": before,
        "in_catalog_recall@5_with_abstention": after,
        "recall@5_drop": before - after,
    }


def embed_queries(
    provider: EmbeddingProvider | None, queries: list[EvalQuery]
) -> tuple[dict[str, npt.NDArray[np.float32]], dict[str, float]]:
    """One vector per query, embedded one at a time (as at run time) and timed."""
    vectors: dict[str, npt.NDArray[np.float32]] = {}
    seconds: dict[str, float] = {}
    if provider is None:
        return vectors, seconds
    for q in queries:
        start = time.perf_counter()
        vectors[q.qid] = provider.embed_queries([q.text])[0]
        seconds[q.qid] = time.perf_counter() - start
    return vectors, seconds


def split(runs: list[QueryRun], name: str) -> list[QueryRun]:
    return [r for r in runs if r.query.split == name]


@dataclass
class EvalContext:
    """What a run needs besides the dataset: the provider, settings, a work folder, the vector cache."""

    provider: EmbeddingProvider | None
    settings: FusionSettings
    work: Path
    cache: Path | None = field(default_factory=default_cache_path)


def run_eval(evalset: EvalSet, ctx: EvalContext) -> dict[str, Any]:
    """Figures per mode (all queries, dev and test halves) and the abstention run on a reduced pool."""
    queries = [q for q in evalset.queries if q.gold]
    held = frozenset(q.qid for q in evalset.queries if is_held_out(q))
    removed = frozenset(k for q in evalset.queries if q.qid in held for k in q.gold)
    ooc_queries = [q for q in evalset.queries if q.qid in held] + [
        q for q in evalset.queries if q.qid not in held and not (q.gold & removed)
    ]
    full = build_eval_snapshot(
        evalset, ctx.work / f"{evalset.name}.atlas", ctx.provider, ctx.settings, cache=ctx.cache
    )
    reduced = build_eval_snapshot(
        evalset, ctx.work / f"{evalset.name}-ooc.atlas", ctx.provider, ctx.settings, removed, ctx.cache
    )
    vectors, embed_s = embed_queries(ctx.provider, evalset.queries)
    modes = [m for m in MODES if ctx.provider is not None or m is SearchMode.LEXICAL]
    report: dict[str, Any] = {
        "dataset": evalset.name,
        "apis": len(evalset.catalog.apis),
        "queries": len(queries),
        "embedding_model": ctx.provider.model_id if ctx.provider else None,
        "settings": ctx.settings.model_dump(mode="json"),
        "held_out_apis": len(removed),
        "modes": {},
    }
    with Snapshot.open(full) as snap_full, Snapshot.open(reduced) as snap_ooc:
        search_full = HybridSearch(snap_full, ctx.provider, ctx.settings)
        search_ooc = HybridSearch(snap_ooc, ctx.provider, ctx.settings)
        search_full.search("warm up", mode=modes[0], query_vector=next(iter(vectors.values()), None))
        for mode in modes:
            ranked = run_queries(search_full, queries, mode, vectors, embed_s).runs
            abst = run_queries(search_ooc, ooc_queries, mode, vectors, embed_s).runs
            report["modes"][mode.value] = {
                "all": ranking_figures(ranked) | abstention_figures(abst, held),
                "dev": ranking_figures(split(ranked, "dev")) | abstention_figures(split(abst, "dev"), held),
                "test": ranking_figures(split(ranked, "test"))
                | abstention_figures(split(abst, "test"), held),
            }
    return report
