"""The sample bank: examples/bank/docs compiled (kept APIs) and examples/bank/eval/retrieval.yaml."""

from __future__ import annotations

from pathlib import Path

from apiatlas.catalog.model import Overlay
from apiatlas.evals.bank_data import load_retrieval_set
from apiatlas.evals.dataset import EvalQuery, EvalSet
from apiatlas.passes import BuildConfig, run_passes
from apiatlas.sources import load_source
from apiatlas.sources.overlay_files import read_overlays


def load_bank(root: Path) -> EvalSet:
    """``root`` = examples/bank: docs parsed, overlays merged, passes run; eval/retrieval.yaml requests.

    Out-of-catalog requests of the file get no gold (they must abstain); ``EvalDataError`` for a bad file.
    """
    requests = load_retrieval_set(root / "eval" / "retrieval.yaml")
    catalog = load_source(root / "docs")
    overlays: dict[str, Overlay] = {}
    if (root / "overlays").is_dir():
        overlays, _findings = read_overlays(root / "overlays")
    run_passes(catalog, BuildConfig.for_source(catalog.source_kind), overlays=overlays)
    queries = [EvalQuery(qid=r.id, text=r.query, gold=frozenset(r.gold)) for r in requests.requests]
    queries += [
        EvalQuery(qid=r.id, text=r.query, gold=frozenset(), kind=r.kind) for r in requests.out_of_catalog
    ]
    return EvalSet(name="bank", catalog=catalog, queries=queries)
