"""Dependency edges as the navigation tools show them: the strongest few, as ``Dependency`` results."""

from __future__ import annotations

from typing import Literal

from apiatlas.catalog.model import EDGE_LEVEL_RANK, Edge
from apiatlas.server.results import Dependency

PRODUCERS_PER_FIELD = 3  # strongest producers shown per input field (the graph ranks them)


def strongest(edges: list[Edge], direction: Literal["upstream", "downstream"]) -> tuple[list[Edge], int]:
    """The strongest edges: upstream, a few producers per input field; downstream, one edge per consumer.

    Edges come from the snapshot strongest level first; returns the kept edges and how many were left out.
    """
    kept: list[Edge] = []
    counts: dict[tuple[str, str | None, str], int] = {}
    limit = PRODUCERS_PER_FIELD if direction == "upstream" else 1
    for edge in sorted(edges, key=lambda e: EDGE_LEVEL_RANK[e.level]):
        group = (
            (edge.consumer, edge.consumer_table, edge.consumer_field)
            if direction == "upstream"
            else (edge.consumer, None, "")
        )
        if counts.get(group, 0) < limit:
            counts[group] = counts.get(group, 0) + 1
            kept.append(edge)
    return kept, len(edges) - len(kept)


def edge_to_dependency(edge: Edge) -> Dependency:
    return Dependency(
        producer_api=edge.producer,
        producer_table=edge.producer_table,
        producer_field=edge.producer_field,
        consumer_api=edge.consumer,
        consumer_table=edge.consumer_table,
        consumer_field=edge.consumer_field,
        confidence=edge.level.value,
        reason=edge.reason,
    )
