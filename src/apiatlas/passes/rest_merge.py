"""Merging the REST edges into the graph pass's edges, and the graph figures recomputed over them."""

from __future__ import annotations

from typing import Any

from apiatlas.catalog.model import EDGE_LEVEL_RANK, Catalog, Edge, EdgeLevel
from apiatlas.passes.config import BuildConfig
from apiatlas.passes.graph import edge_order, input_fields
from apiatlas.passes.rest_names import PAGINATION
from apiatlas.passes.types import is_user_value_type


def merge_edges(existing: list[Edge], added: list[Edge]) -> list[Edge]:
    """One edge per (producer field, consumer field), the strongest level kept; in ``edge_order``.

    Pagination fields (``page``, ``limit``, ...) found by the generic graph pass are dropped: the page
    number of one listing says nothing about another's.
    """
    best: dict[tuple[str, str | None, str, str, str | None, str], Edge] = {}
    for e in [*existing, *added]:
        if e.level is not EdgeLevel.DECLARED and e.consumer_field.casefold() in PAGINATION:
            continue
        key = (e.producer, e.producer_table, e.producer_field, e.consumer, e.consumer_table, e.consumer_field)
        if key not in best or EDGE_LEVEL_RANK[e.level] < EDGE_LEVEL_RANK[best[key].level]:
            best[key] = e
    return sorted(best.values(), key=edge_order)


def graph_stats(catalog: Catalog, config: BuildConfig, previous: dict[str, Any]) -> dict[str, Any]:
    """The graph pass's figures recomputed over the merged edges (its other counters kept)."""
    kept = catalog.kept_apis()
    edges = catalog.edges
    fed = {(e.consumer, e.consumer_table, e.consumer_field) for e in edges}
    inputs = [f for a in kept for f in input_fields(a)]
    unfed = [f for f in inputs if f.required and (f.api, f.table, f.name) not in fed]
    touched = {e.consumer for e in edges} | {e.producer for e in edges}
    return {
        **previous,
        "edges": len(edges),
        "by_level": {lvl.value: sum(1 for e in edges if e.level is lvl) for lvl in EdgeLevel},
        "kept_apis": len(kept),
        "apis_fed": len({e.consumer for e in edges}),
        "apis_with_unfed_inputs": len({f.api for f in unfed}),
        "unfed_required_inputs": len(unfed),
        "apis_unreachable": len(
            {f.api for f in unfed if not is_user_value_type(catalog, config, f.domain_type)}
        ),
        "apis_isolated": sum(1 for a in kept if a.key not in touched),
    }
