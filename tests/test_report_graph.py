"""The report's compact dependency graph: the strongest link per pair, in first-appearance order, both ways;
and the snapshot's edges read as integer arrays."""

from __future__ import annotations

import random
from collections import deque
from pathlib import Path

from apiatlas.catalog.model import EDGE_LEVEL_RANK, EdgeLevel
from apiatlas.report.chains import (
    CHAIN_MAX_RANK,
    MAX_DEPTH,
    Chain,
    DependencyGraph,
    Link,
    chains_to,
    deepest_chains,
)
from apiatlas.snapshot import Snapshot, write_snapshot
from apiatlas.snapshot.edge_arrays import EdgeColumns
from test_snapshot_catalog import mini_catalog

Ordered = list[tuple[str, list[tuple[str, Link]]]]  # a dict of dicts as lists: its order compared too


def _ordered(graph: dict[str, dict[str, Link]]) -> Ordered:
    return sorted((node, list(links.items())) for node, links in graph.items())


def _reference(links: list[Link], max_rank: int = CHAIN_MAX_RANK) -> tuple[Ordered, Ordered]:
    """The graph as dicts of dicts (what the report built before the compact arrays)."""
    into: dict[str, dict[str, Link]] = {}
    out_of: dict[str, dict[str, Link]] = {}
    for link in links:
        if EDGE_LEVEL_RANK[link.level] > max_rank or link.producer == link.consumer:
            continue
        best = into.get(link.consumer, {}).get(link.producer)
        if best is None or EDGE_LEVEL_RANK[link.level] < EDGE_LEVEL_RANK[best.level]:
            into.setdefault(link.consumer, {})[link.producer] = link
            out_of.setdefault(link.producer, {})[link.consumer] = link
    return _ordered(into), _ordered(out_of)


def _compact(graph: DependencyGraph) -> tuple[Ordered, Ordered]:
    into: dict[str, dict[str, Link]] = {}
    out_of: dict[str, dict[str, Link]] = {}
    for node, name in enumerate(graph.names):
        if graph.producers(node):
            into[name] = {graph.link(p).producer: graph.link(p) for p in graph.producers(node)}
        if graph.consumers(node):
            out_of[name] = {graph.link(p).consumer: graph.link(p) for p in graph.consumers(node)}
    return _ordered(into), _ordered(out_of)


def _random_links(rng: random.Random, apis: int, count: int) -> list[Link]:
    levels = list(EdgeLevel)
    return [
        Link(
            f"A{rng.randrange(apis)}",
            f"A{rng.randrange(apis)}",
            f"f{rng.randrange(4)}",
            f"g{rng.randrange(4)}",
            rng.choice(levels),
        )
        for _ in range(count)
    ]


def test_strongest_link_per_pair_keeps_first_appearance_order() -> None:
    links = [
        Link("A", "B", "x", "x", EdgeLevel.ALIAS),
        Link("A", "C", "y", "y", EdgeLevel.NAME_TYPE),
        Link("A", "B", "z", "z", EdgeLevel.DECLARED),  # stronger: replaces the link, B stays first
        Link("A", "C", "w", "w", EdgeLevel.NAME_TYPE),  # as strong: the first one stays
        Link("A", "A", "s", "s", EdgeLevel.DECLARED),  # self link: dropped
        Link("C", "D", "t", "t", EdgeLevel.TYPE_ONLY),  # too loose for chains: dropped
    ]
    graph = DependencyGraph.from_links(links)
    ((node, links_out),) = _compact(graph)[1]
    assert node == "A"
    assert [(c, link.producer_field) for c, link in links_out] == [("B", "z"), ("C", "y")]
    assert (graph.fan_out("A"), graph.fan_out("C"), graph.fan_out("nowhere")) == (2, 0, 0)


def test_compact_graph_matches_the_dict_graph_on_random_links() -> None:
    rng = random.Random(7)
    for apis, count in [(3, 10), (12, 80), (40, 600), (200, 400)]:
        links = _random_links(rng, apis, count)
        assert _compact(DependencyGraph.from_links(links)) == _reference(links)
        assert _compact(DependencyGraph.from_links(links, max_rank=5)) == _reference(links, max_rank=5)


def test_empty_graph_has_no_chains() -> None:
    graph = DependencyGraph.from_links([])
    assert graph.fan_out("A") == 0
    assert chains_to(graph, "A", {"B"}) == []
    assert deepest_chains(graph, {"A", "B"}) == []


def test_snapshot_edge_arrays_are_its_edge_links(tmp_path: Path) -> None:
    cat = mini_catalog()
    path = tmp_path / "bank.atlas"
    write_snapshot(cat, path, options={})
    with Snapshot.open(path) as snap:
        for max_rank in (1, 3, 5):
            arrays = snap.edge_arrays(max_rank)
            rebuilt = [
                (
                    arrays.apis[arrays.producer[i]],
                    arrays.apis[arrays.consumer[i]],
                    arrays.fields[arrays.producer_field[i]],
                    arrays.fields[arrays.consumer_field[i]],
                    int(arrays.rank[i]),
                )
                for i in range(len(arrays.rank))
            ]
            links = snap.edge_links(max_rank)
            assert rebuilt == [(p, c, pf, cf, EDGE_LEVEL_RANK[lvl]) for p, c, pf, cf, lvl in links]
        assert len(snap.edge_links(5)) > len(snap.edge_links(1)) > 0
        from_arrays = DependencyGraph.from_arrays(snap.edge_arrays(CHAIN_MAX_RANK))
        from_links = DependencyGraph.from_links(Link(*row) for row in snap.edge_links(CHAIN_MAX_RANK))
        entry = set(snap.entry_points())
        for obj in snap.object_api_counts():
            for limit in (1, 50):
                listed = [a.key for a in snap.list_apis(obj, limit=limit)[0]]
                assert snap.object_api_keys(obj, limit) == listed
        assert any(snap.object_api_keys(obj) for obj in snap.object_api_counts())
    assert _compact(from_arrays) == _compact(from_links)
    target = "API_DealSecurity_FindListByID"
    assert chains_to(from_arrays, target, entry) == chains_to(from_links, target, entry) != []
    assert deepest_chains(from_arrays, entry) == deepest_chains(from_links, entry) != []


def _reference_deepest(graph: DependencyGraph, entry_points: set[str], limit: int = 3) -> list[Chain]:
    """The deepest chains by a FIFO queue, node by node (what the report did before the level-wise walk)."""
    ranked = sorted(entry_points, key=lambda k: (-graph.fan_out(k), k))
    names, chains = graph.names, []
    for start in ranked[: limit * 3]:
        first = graph.nodes.get(start)
        if first is None:
            continue
        parent, depth, queue, far = {first: -1}, {first: 0}, deque([first]), first
        while queue:
            node = queue.popleft()
            if depth[node] > depth[far] or (depth[node] == depth[far] and names[node] < names[far]):
                far = node
            if depth[node] >= MAX_DEPTH:
                continue
            for pair in graph.consumers(node):
                consumer = graph.pair_consumer[pair]
                if consumer not in parent:
                    parent[consumer], depth[consumer] = pair, depth[node] + 1
                    queue.append(consumer)
        if far != first:
            links, pair = [], parent[far]
            while pair >= 0:
                links.append(graph.link(pair))
                pair = parent[graph.pair_producer[pair]]
            links.reverse()
            chains.append(Chain((links[0].producer, *(e.consumer for e in links)), tuple(links)))
    chains.sort(key=lambda c: (-len(c.apis), c.apis))
    return chains[:limit]


def test_deepest_chains_match_a_node_by_node_walk_on_random_graphs() -> None:
    rng = random.Random(11)
    # sparse graphs too: chains longer than MAX_DEPTH
    for apis, count in [(5, 12), (30, 60), (60, 90), (200, 300), (400, 2_000)]:
        graph = DependencyGraph.from_links(_random_links(rng, apis, count))
        names = [f"A{n}" for n in range(apis)]
        for entry in [set(names), set(rng.sample(names, 3)), *({name} for name in names[:20])]:
            for limit in (1, 3, 50):
                assert deepest_chains(graph, entry, limit) == _reference_deepest(graph, entry, limit)
    long_path = [Link(f"P{n}", f"P{n + 1}", "x", "x", EdgeLevel.DECLARED) for n in range(MAX_DEPTH + 4)]
    (chain,) = deepest_chains(DependencyGraph.from_links(long_path), {"P0"})
    assert chain.apis == tuple(f"P{n}" for n in range(MAX_DEPTH + 1))


def test_the_writers_edge_columns_are_the_arrays_read_back(tmp_path: Path) -> None:
    path, columns = tmp_path / "bank.atlas", EdgeColumns()
    write_snapshot(mini_catalog(), path, options={}, edge_columns=columns)
    with Snapshot.open(path) as snap:
        for max_rank in (0, 1, 3, 5):
            kept, read = columns.arrays(max_rank), snap.edge_arrays(max_rank)
            assert (kept.apis, kept.fields) == (read.apis, read.fields)
            for name in ("producer", "consumer", "producer_field", "consumer_field", "rank"):
                assert getattr(kept, name).dtype == getattr(read, name).dtype
                assert getattr(kept, name).tolist() == getattr(read, name).tolist()
        assert len(columns.arrays(5).rank) == len(snap.edge_links(5)) > len(columns.arrays(1).rank) > 0
