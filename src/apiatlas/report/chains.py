"""Chains through the dependency graph for the report: from entry points to a target, and the deepest ones."""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from apiatlas.catalog.model import EDGE_LEVEL_RANK, Edge, EdgeLevel
from apiatlas.snapshot.edge_arrays import EdgeArrays

# Edges the report draws chains with: declared, name + type, alias (type-only links are too loose).
CHAIN_MAX_RANK = 3
MAX_DEPTH = 8
_LEVEL_OF_RANK = {rank: level for level, rank in EDGE_LEVEL_RANK.items()}


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


@dataclass(frozen=True)
class DependencyGraph:
    """Strongest link per (producer, consumer) pair, indexed both ways.

    Compact, for graphs of hundreds of thousands of edges: APIs (``names``) and field names are numbered,
    pair ``p`` is one row across the ``pair_*`` arrays, and node ``n``'s consumers are the pairs
    ``out_pair[out_start[n]:out_start[n + 1]]`` (its producers likewise ``in_*``), in the order the pairs
    first appeared. A ``Link`` is built only for a pair a chain shows.
    """

    names: list[str]
    fields: list[str]
    nodes: dict[str, int]
    pair_producer: array[int]
    pair_consumer: array[int]
    pair_producer_field: array[int]
    pair_consumer_field: array[int]
    pair_rank: array[int]
    out_start: array[int]
    out_pair: array[int]
    in_start: array[int]
    in_pair: array[int]

    @classmethod
    def from_arrays(cls, edges: EdgeArrays, max_rank: int = CHAIN_MAX_RANK) -> DependencyGraph:
        """From edges in order: each pair's link is its strongest edge (the first among equals), and the
        pairs keep the order of their first edge (self-links and links weaker than ``max_rank`` dropped)."""
        producer, consumer, rank = edges.producer, edges.consumer, edges.rank
        at = np.flatnonzero((rank <= max_rank) & (producer != consumer))
        key = producer[at].astype(np.int64) * max(len(edges.apis), 1) + consumer[at]
        by_key = np.lexsort((at, rank[at], key))  # each pair's edges together, strongest then first
        keys = key[by_key]
        heads = np.ones(len(keys), dtype=bool)
        heads[1:] = keys[1:] != keys[:-1]
        chosen = at[by_key[heads]]  # per pair (by key): its link
        _, first = np.unique(key, return_index=True)  # per pair (by key): where its first edge is
        chosen = chosen[np.argsort(first, kind="stable")]
        pair_producer, pair_consumer = producer[chosen], consumer[chosen]
        size = len(edges.apis)
        return cls(
            names=edges.apis,
            fields=edges.fields,
            nodes={name: n for n, name in enumerate(edges.apis)},
            pair_producer=_ints(pair_producer),
            pair_consumer=_ints(pair_consumer),
            pair_producer_field=_ints(edges.producer_field[chosen]),
            pair_consumer_field=_ints(edges.consumer_field[chosen]),
            pair_rank=_ints(rank[chosen]),
            out_start=_ints(_starts(pair_producer, size)),
            out_pair=_ints(np.argsort(pair_producer, kind="stable")),
            in_start=_ints(_starts(pair_consumer, size)),
            in_pair=_ints(np.argsort(pair_consumer, kind="stable")),
        )

    @classmethod
    def from_links(cls, links: Iterable[Link], max_rank: int = CHAIN_MAX_RANK) -> DependencyGraph:
        apis: dict[str, int] = {}
        fields: dict[str, int] = {}
        columns: list[array[int]] = [array("i") for _ in range(5)]
        for link in links:
            row = (
                apis.setdefault(link.producer, len(apis)),
                apis.setdefault(link.consumer, len(apis)),
                fields.setdefault(link.producer_field, len(fields)),
                fields.setdefault(link.consumer_field, len(fields)),
                EDGE_LEVEL_RANK[link.level],
            )
            for column, value in zip(columns, row, strict=True):
                column.append(value)
        p, c, pf, cf, rank = (np.frombuffer(column, dtype=np.int32) for column in columns)
        return cls.from_arrays(EdgeArrays(p, c, pf, cf, rank, list(apis), list(fields)), max_rank)

    @classmethod
    def from_edges(cls, edges: Iterable[Edge], max_rank: int = CHAIN_MAX_RANK) -> DependencyGraph:
        links = (Link(e.producer, e.consumer, e.producer_field, e.consumer_field, e.level) for e in edges)
        return cls.from_links(links, max_rank)

    def fan_out(self, api: str) -> int:
        """How many APIs ``api`` feeds."""
        node = self.nodes.get(api)
        return 0 if node is None else self._fan_out(node)

    def _fan_out(self, node: int) -> int:
        return self.out_start[node + 1] - self.out_start[node]

    def consumers(self, node: int) -> array[int]:
        """The pairs whose producer is ``node``, in the order they first appeared."""
        return self.out_pair[self.out_start[node] : self.out_start[node + 1]]

    def producers(self, node: int) -> array[int]:
        """The pairs whose consumer is ``node``, in the order they first appeared."""
        return self.in_pair[self.in_start[node] : self.in_start[node + 1]]

    def link(self, pair: int) -> Link:
        return Link(
            self.names[self.pair_producer[pair]],
            self.names[self.pair_consumer[pair]],
            self.fields[self.pair_producer_field[pair]],
            self.fields[self.pair_consumer_field[pair]],
            _LEVEL_OF_RANK[self.pair_rank[pair]],
        )


def _ints(values: NDArray[np.integer[Any]]) -> array[int]:
    """A numpy vector as a Python ``array`` (its items read as plain ints, fast in Python loops)."""
    out = array("i")
    out.frombytes(values.astype(np.int32).tobytes())
    return out


def _starts(nodes: NDArray[np.int32], size: int) -> NDArray[np.int64]:
    """Where each node's run starts in ``nodes`` sorted (``size + 1`` offsets)."""
    return np.concatenate(([0], np.cumsum(np.bincount(nodes, minlength=size))))


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
    goal = graph.nodes.get(target)
    if goal is None:
        return []
    names, pair_producer, pair_consumer = graph.names, graph.pair_producer, graph.pair_consumer
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        node = queue.popleft()
        if dist[node] >= MAX_DEPTH:
            continue
        for pair in graph.producers(node):
            producer = pair_producer[pair]
            if producer not in dist:
                dist[producer] = dist[node] + 1
                queue.append(producer)
    # nearest first; among equals, the entry point feeding the most APIs
    starts = sorted(
        (d, -graph._fan_out(n), names[n]) for n, d in dist.items() if names[n] in entry_points and n != goal
    )
    if object_of is not None:
        first_of_object: dict[str, tuple[int, int, str]] = {}
        for ranked in starts:
            first_of_object.setdefault(object_of.get(ranked[2], ranked[2]), ranked)
        starts = sorted(first_of_object.values())
    chains = []
    for _, _, start in starts[:limit]:
        apis, edges = [start], []
        node = graph.nodes[start]
        while node != goal:
            step = min(
                (p for p in graph.consumers(node) if dist.get(pair_consumer[p]) == dist[node] - 1),
                key=lambda p: (graph.pair_rank[p], names[pair_consumer[p]]),
            )
            link = graph.link(step)
            apis.append(link.consumer)
            edges.append(link)
            node = pair_consumer[step]
        chains.append(Chain(tuple(apis), tuple(edges)))
    return chains


def deepest_chains(graph: DependencyGraph, entry_points: set[str], limit: int = 3) -> list[Chain]:
    """From the most-connected entry points, the path to the farthest API they reach (BFS depth; among the
    farthest, the first by name)."""
    ranked = sorted(entry_points, key=lambda k: (-graph.fan_out(k), k))
    chains = []
    for start in ranked[: limit * 3]:
        first = graph.nodes.get(start)
        if first is None:
            continue  # feeds nothing: no chain
        far, parent = _farthest(graph, first)
        if far != first:
            chains.append(_walk_back(graph, far, parent))
    chains.sort(key=lambda c: (-len(c.apis), c.apis))
    return chains[:limit]


def _farthest(graph: DependencyGraph, first: int) -> tuple[int, NDArray[np.int32]]:
    """A breadth-first walk from ``first`` down to ``MAX_DEPTH``, a level at a time: the farthest node (the
    first by name among the deepest) and, per node reached, the pair that reached it (-1: ``first``, or not
    reached). The same as a FIFO queue taking each node's consumers in first-appearance order: a level's
    nodes are in the order the level before them found them, each reached by the first pair that found it.
    """
    out_start = np.frombuffer(graph.out_start, dtype=np.int32)
    out_pair = np.frombuffer(graph.out_pair, dtype=np.int32)
    pair_consumer = np.frombuffer(graph.pair_consumer, dtype=np.int32)
    parent = np.full(len(graph.names), -1, dtype=np.int32)
    seen = np.zeros(len(graph.names), dtype=bool)
    seen[first] = True
    level = np.array([first], dtype=np.int32)
    deepest = level
    for _ in range(MAX_DEPTH):
        pairs = out_pair[_runs(out_start[level], out_start[level + 1])]  # the level's consumers, in order
        consumers = pair_consumer[pairs]
        new = ~seen[consumers]
        pairs, consumers = pairs[new], consumers[new]
        _, found = np.unique(consumers, return_index=True)
        found.sort()  # each node once, where it was first found: the queue's order
        if not len(found):
            break
        level = consumers[found]
        seen[level] = True
        parent[level] = pairs[found]
        deepest = level
    names = graph.names
    return min((int(n) for n in deepest), key=names.__getitem__), parent


def _runs(starts: NDArray[np.int32], ends: NDArray[np.int32]) -> NDArray[np.int64]:
    """The indexes ``starts[0]..ends[0]-1``, then ``starts[1]..ends[1]-1``, ... as one vector."""
    counts = (ends - starts).astype(np.int64)
    total = int(counts.sum())
    offsets = np.repeat(starts.astype(np.int64) - np.concatenate(([0], np.cumsum(counts)[:-1])), counts)
    return offsets + np.arange(total, dtype=np.int64)


def _walk_back(graph: DependencyGraph, node: int, parent: NDArray[np.int32]) -> Chain:
    edges = []
    pair = int(parent[node])
    while pair >= 0:
        edges.append(graph.link(pair))
        pair = int(parent[graph.pair_producer[pair]])
    edges.reverse()
    apis = [edges[0].producer, *(e.consumer for e in edges)]
    return Chain(tuple(apis), tuple(edges))
