"""Retrieval over a compiled code snapshot (an SDK): requests with gold ``Type.Member`` names, run through
the exact structural lookup and the snapshot's search in each mode, as the ``search`` tool does.

A hit matches a solution when its documentation ID without the prefix letter and parameter list equals it
(``M:Gtk.Window.SetDefaultSize(System.Int32,System.Int32)`` -> ``Gtk.Window.SetDefaultSize``; any overload
counts, constructors are ``Type.#ctor``). Queries split into dev and test halves by the hash of their id
(``EvalQuery.split``); Russian requests (any Cyrillic letter) are also reported apart."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from apiatlas.code.keys import path_of
from apiatlas.errors import Location, ReasonCode, SourceError
from apiatlas.evals.dataset import EvalQuery
from apiatlas.evals.metrics import mean, ndcg_at, percentile, recall_at, reciprocal_rank
from apiatlas.evals.restbench import read_json
from apiatlas.search.outcome import SearchMode
from apiatlas.search.structural import OVERLOAD_DEPTH, StructuralNames, with_structural
from apiatlas.snapshot import Snapshot

_CYRILLIC = re.compile(r"[А-Яа-яЁё]")
LIMIT = 10


def load_code_requests(path: Path, snapshot: Snapshot) -> list[EvalQuery]:
    """``[{"query", "solution": ["Type.Member", ...]}]``; a solution the snapshot lacks is an error."""
    where = Location(file=str(path))
    data = read_json(path, "the requests")
    if not isinstance(data, list):
        raise SourceError(
            "expected a JSON list of {query, solution}", code=ReasonCode.MALFORMED_PAGE, location=where
        )
    paths = {path_of(k) for k in snapshot.all_api_keys()}
    queries: list[EvalQuery] = []
    for n, item in enumerate(data):
        text = item.get("query") if isinstance(item, dict) else None
        solution = item.get("solution") if isinstance(item, dict) else None
        if not isinstance(text, str) or not text.strip() or not isinstance(solution, list) or not solution:
            raise SourceError(
                f"request {n}: needs a 'query' string and a non-empty 'solution' list",
                code=ReasonCode.MALFORMED_PAGE,
                location=where,
            )
        unknown = [s for s in solution if s not in paths]
        if unknown:
            raise SourceError(
                f"request {n} ({text!r}): the snapshot has no {', '.join(map(str, unknown))}",
                code=ReasonCode.MALFORMED_PAGE,
                location=where,
            )
        queries.append(
            EvalQuery(qid=f"{path.stem}:{n}", text=text.strip(), gold=frozenset(map(str, solution)))
        )
    return queries


def _figures(runs: list[tuple[EvalQuery, list[str], float]]) -> dict[str, float]:
    return {
        "queries": len(runs),
        "recall@1": mean([recall_at(r, q.gold, 1) for q, r, _ in runs]),
        "recall@5": mean([recall_at(r, q.gold, 5) for q, r, _ in runs]),
        "recall@10": mean([recall_at(r, q.gold, 10) for q, r, _ in runs]),
        "ndcg@5": mean([ndcg_at(r, q.gold, 5) for q, r, _ in runs]),
        "mrr": mean([reciprocal_rank(r, q.gold) for q, r, _ in runs]),
        "latency_p50_ms": percentile([s * 1000 for _, _, s in runs], 50),
        "latency_p95_ms": percentile([s * 1000 for _, _, s in runs], 95),
    }


def ranked_paths(keys: list[str]) -> list[str]:
    """Hits as solution names, each once, in rank order."""
    return list(dict.fromkeys(path_of(k) for k in keys))


def run_code_retrieval(snapshot_path: Path, requests: Path, embedding: str | None = None) -> dict[str, Any]:
    from apiatlas.search.hybrid import HybridSearch
    from apiatlas.search.providers import query_provider

    with Snapshot.open(snapshot_path) as snapshot:
        queries = load_code_requests(requests, snapshot)
        search = HybridSearch(snapshot, query_provider(snapshot, embedding))
        names = StructuralNames(snapshot.all_api_keys())
        modes = (
            [SearchMode.HYBRID, SearchMode.LEXICAL, SearchMode.DENSE]
            if search.has_vectors
            else [SearchMode.LEXICAL]
        )
        search.search(
            queries[0].text, limit=LIMIT, mode=modes[0]
        ) if queries else None  # warm: models, arrays
        report: dict[str, Any] = {"snapshot": str(snapshot_path), "requests": str(requests), "modes": {}}
        for mode in modes:
            runs: list[tuple[EvalQuery, list[str], float]] = []
            for q in queries:
                start = time.perf_counter()
                outcome = search.search(q.text, limit=LIMIT * OVERLOAD_DEPTH, mode=mode)
                named = names.lookup(q.text, limit=LIMIT)
                outcome = with_structural(outcome, named, snapshot.api_titles(named) if named else {}, LIMIT)
                seconds = time.perf_counter() - start
                runs.append((q, ranked_paths([h.api_key for h in outcome.hits or outcome.ranked]), seconds))
            report["modes"][mode.value] = _split_figures(runs)
            if mode is modes[0]:
                report["dev_misses@5"] = [
                    {"query": q.text, "gold": sorted(q.gold), "top5": r[:5]}
                    for q, r, _ in runs
                    if q.split == "dev" and recall_at(r, q.gold, 5) < 1.0
                ]
        report["queries"] = len(queries)
        report["russian"] = sum(1 for q in queries if _CYRILLIC.search(q.text))
        return report


def _split_figures(runs: list[tuple[EvalQuery, list[str], float]]) -> dict[str, dict[str, float]]:
    russian = [r for r in runs if _CYRILLIC.search(r[0].text)]
    return {
        "all": _figures(runs),
        "dev": _figures([r for r in runs if r[0].split == "dev"]),
        "test": _figures([r for r in runs if r[0].split == "test"]),
        "russian": _figures(russian),
        "russian_dev": _figures([r for r in russian if r[0].split == "dev"]),
        "russian_test": _figures([r for r in russian if r[0].split == "test"]),
        "english": _figures([r for r in runs if not _CYRILLIC.search(r[0].text)]),
    }
