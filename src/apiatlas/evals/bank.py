"""The sample bank: examples/bank/docs compiled (kept APIs) and examples/bank/eval/retrieval.yaml."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from apiatlas.catalog.model import Overlay
from apiatlas.errors import Location, ReasonCode, SourceError
from apiatlas.evals.dataset import EvalQuery, EvalSet
from apiatlas.passes import BuildConfig, run_passes
from apiatlas.sources import load_source
from apiatlas.sources.overlay_files import read_overlays


def load_bank(root: Path) -> EvalSet:
    """``root`` = examples/bank: docs parsed, overlays merged, passes run; eval/retrieval.yaml requests."""
    requests = root / "eval" / "retrieval.yaml"
    where = Location(file=str(requests))
    if not requests.is_file():
        raise SourceError(
            "bank retrieval requests not found", code=ReasonCode.INVALID_ARGUMENT, location=where
        )
    try:
        data: Any = yaml.safe_load(requests.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise SourceError(f"cannot read requests: {exc}", location=where) from exc
    items = data.get("requests", data) if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise SourceError("expected a list of {query, gold}", location=where)
    catalog = load_source(root / "docs")
    overlays: dict[str, Overlay] = {}
    if (root / "overlays").is_dir():
        overlays, _findings = read_overlays(root / "overlays")
    run_passes(catalog, BuildConfig(), overlays=overlays)
    kept = {a.key for a in catalog.kept_apis()}
    queries: list[EvalQuery] = []
    for n, item in enumerate(items):
        if not isinstance(item, dict) or not item.get("query"):
            raise SourceError(f"request {n}: expected a mapping with 'query'", location=where)
        gold = frozenset(str(g) for g in item.get("gold") or [] if str(g) in kept)
        queries.append(EvalQuery(qid=f"bank:{n}", text=str(item["query"]), gold=gold))
    return EvalSet(name="bank", catalog=catalog, queries=queries)
