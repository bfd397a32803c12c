"""Chains through the dependency graph for the report: from entry points to a target, and the deepest ones."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from apiatlas.catalog.model import EDGE_LEVEL_RANK, Edge, EdgeLevel

# Edges the report draws chains with: declared, name + type, alias (type-only links are too loose).
CHAIN_MAX_RANK = 3
MAX_DEPTH = 8


class Link(NamedTuple):
    """The fields of an edge a chain shows (cheaper than an ``Edge`` over hundreds of thousands)."""

    producer: str
    consumer: str
    producer_field: str
    consumer_field: str
    level: EdgeLevel


@dataclass(frozen=True)
class Chain:
    """A path of APIs, each fed by the previous one through ``edges[i]``."""

    apis: tuple[str, ...]
    edges: tuple[Link, ...]


@dataclass
class DependencyGraph:
    """Strongest link per (producer, consumer) pair, indexed both ways."""

    into: dict[str, dict[str, Link]] = field(default_factory=dict)  # consumer -> producer -> link
    out_of: dict[str, dict[str, Link]] = field(default_factory=dict)  # producer -> consumer -> link

    @classmethod
    def from_links(cls, links: Iterable[Link], max_rank: int = CHAIN_MAX_RANK) -> DependencyGraph:
        graph = cls()
        for link in links:
            if EDGE_LEVEL_RANK[link.level] > max_rank or link.producer == link.consumer:
                continue
            best = graph.into.get(link.consumer, {}).get(link.producer)
            if best is None or EDGE_LEVEL_RANK[link.level] < EDGE_LEVEL_RANK[best.level]:
                graph.into.setdefault(link.consumer, {})[link.producer] = link
                graph.out_of.setdefault(link.producer, {})[link.consumer] = link
        return graph

    @classmethod
    def from_edges(cls, edges: Iterable[Edge], max_rank: int = CHAIN_MAX_RANK) -> DependencyGraph:
        links = (Link(e.producer, e.consumer, e.producer_field, e.consumer_field, e.level) for e in edges)
        return cls.from_links(links, max_rank)

    def fan_out(self, api: str) -> int:
        return len(self.out_of.get(api, {}))


def chains_to(
    graph: DependencyGraph,
    target: str,
    entry_points: set[str],
    limit: int = 10,
    object_of: dict[str, str] | None = None,
) -> list[Chain]:
    """Shortest chains from the nearest entry points to ``target`` (strongest edge at each step).

    With ``object_of`` (API -> business object) only the nearest entry point of each object is
    taken, so the chains show different ways in rather than siblings of one object.
    """
    dist = {target: 0}
    queue = deque([target])
    while queue:
        node = queue.popleft()
        if dist[node] >= MAX_DEPTH:
            continue
        for producer in graph.into.get(node, {}):
            if producer not in dist:
                dist[producer] = dist[node] + 1
                queue.append(producer)
    # nearest first; among equals, the entry point feeding the most APIs
    starts = sorted(((d, -graph.fan_out(k), k) for k, d in dist.items() if k in entry_points and k != target))
    if object_of is not None:
        first_of_object: dict[str, tuple[int, int, str]] = {}
        for ranked in starts:
            first_of_object.setdefault(object_of.get(ranked[2], ranked[2]), ranked)
        starts = sorted(first_of_object.values())
    chains = []
    for _, _, start in starts[:limit]:
        apis, edges = [start], []
        node = start
        while node != target:
            step = min(
                (e for c, e in graph.out_of.get(node, {}).items() if dist.get(c) == dist[node] - 1),
                key=lambda e: (EDGE_LEVEL_RANK[e.level], e.consumer),
            )
            apis.append(step.consumer)
            edges.append(step)
            node = step.consumer
        chains.append(Chain(tuple(apis), tuple(edges)))
    return chains


def deepest_chains(graph: DependencyGraph, entry_points: set[str], limit: int = 3) -> list[Chain]:
    """From the most-connected entry points, the path to the farthest API they reach (BFS depth)."""
    ranked = sorted(entry_points, key=lambda k: (-graph.fan_out(k), k))
    chains = []
    for start in ranked[: limit * 3]:
        parent: dict[str, Link | None] = {start: None}
        depth = {start: 0}
        queue = deque([start])
        far = start
        while queue:
            node = queue.popleft()
            if depth[node] > depth[far] or (depth[node] == depth[far] and node < far):
                far = node
            if depth[node] >= MAX_DEPTH:
                continue
            for consumer, edge in graph.out_of.get(node, {}).items():  # insertion order: deterministic
                if consumer not in parent:
                    parent[consumer] = edge
                    depth[consumer] = depth[node] + 1
                    queue.append(consumer)
        if far != start:
            chains.append(_walk_back(far, parent))
    chains.sort(key=lambda c: (-len(c.apis), c.apis))
    return chains[:limit]


def _walk_back(node: str, parent: dict[str, Link | None]) -> Chain:
    apis, edges = [node], []
    edge = parent[node]
    while edge is not None:
        edges.append(edge)
        apis.append(edge.producer)
        edge = parent[edge.producer]
    return Chain(tuple(reversed(apis)), tuple(reversed(edges)))
