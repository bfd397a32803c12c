"""What a user of the whole catalog gets: the requests with gold and the dataset's own out-of-catalog
requests (unrelated, dropped, ...) searched on the full snapshot, nothing removed, with the settings the
search tool uses; how many related requests abstain wrongly, how many unrelated ones abstain."""

from __future__ import annotations

from typing import Any

from apiatlas.evals.metrics import mean, recall_at
from apiatlas.evals.runs import QueryRun, Runs, abstained, probability
from apiatlas.search.tuning import FusionSettings


def full_catalog_figures(runs: Runs, settings: FusionSettings, listed: bool = True) -> dict[str, Any]:
    """Related requests: Recall@5, how many abstained (wrongly) and Recall@5 with those counted as
    misses; per kind of out-of-catalog request: how many abstained and how many were answered with
    hits. With ``listed``, the wrongly abstained and the wrongly answered requests one by one."""
    related = runs.full
    wrong = [r for r in related if abstained(r, settings)]
    recall = [recall_at(r.ranked, r.query.gold, 5) for r in related]
    kept = [0.0 if abstained(r, settings) else rec for r, rec in zip(related, recall, strict=True)]
    kinds: dict[str, dict[str, int]] = {}
    answered: list[QueryRun] = []
    for run in runs.own_full:
        mine = kinds.setdefault(run.kind, {"requests": 0, "abstained": 0, "answered": 0})
        mine["requests"] += 1
        if abstained(run, settings):
            mine["abstained"] += 1
        else:
            mine["answered"] += 1
            answered.append(run)
    out: dict[str, Any] = {
        "related": len(related),
        "related_abstained": len(wrong),
        "related_recall@5": mean(recall),
        "related_recall@5_with_abstention": mean(kept),
        "out_of_catalog": dict(sorted(kinds.items())),
    }
    if listed:
        out["related_abstained_requests"] = [_row(r, settings) for r in wrong]
        out["out_of_catalog_answered"] = [_row(r, settings) for r in answered]
    return out


def _row(run: QueryRun, settings: FusionSettings) -> dict[str, Any]:
    top = run.outcome.ranked[0] if run.outcome.ranked else None
    return {
        "id": run.query.qid,
        "query": run.query.text,
        "kind": run.kind if not run.query.gold else "",
        "top": top.api_key if top else None,
        "confidence": round(probability(run, settings), 4),
    }
