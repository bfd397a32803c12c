"""An API's neighbourhood in the dependency graph: the APIs feeding it and those it feeds, with the level and
field mapping of every edge, as rows for a table and as a drawing whose nodes lead to their own pages."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from apiatlas.catalog.model import EDGE_LEVEL_RANK, Edge, EdgeLevel
from apiatlas.snapshot import CatalogReader
from apiatlas.web.graph_svg import GraphDrawing, GraphEdge, GraphNode

DRAWN_PER_SIDE = 10  # neighbours drawn on each side (the strongest); the table lists more
LISTED_PER_SIDE = 60
MAPPINGS_PER_NEIGHBOUR = 6


def _field(table: str | None, name: str) -> str:
    return f"{table}.{name}" if table else name


@dataclass
class Neighbour:
    """One API next to the shown one, through its strongest edge level, with every field mapping."""

    api: str
    title: str
    level: EdgeLevel
    mappings: list[str] = field(default_factory=list)  # "table.field → table.field (level)"
    drawn: str = ""  # the strongest mapping without tables: "field → field" (the drawing's label)
    reasons: list[str] = field(default_factory=list)
    more: int = 0  # mappings not listed

    @property
    def rank(self) -> int:
        return EDGE_LEVEL_RANK[self.level]


@dataclass
class Neighbourhood:
    producers: list[Neighbour]
    consumers: list[Neighbour]
    producers_total: int
    consumers_total: int


def _group(edges: list[Edge], other: Callable[[Edge], str]) -> list[Neighbour]:
    """One row per neighbouring API, strongest edge first; neighbours ordered by strength, then name."""
    rows: dict[str, Neighbour] = {}
    for edge in sorted(edges, key=lambda e: (EDGE_LEVEL_RANK[e.level], other(e))):
        key = other(edge)
        row = rows.setdefault(key, Neighbour(api=key, title="", level=edge.level))
        if len(row.mappings) >= MAPPINGS_PER_NEIGHBOUR:
            row.more += 1
            continue
        mapping = (
            f"{_field(edge.producer_table, edge.producer_field)} → "
            f"{_field(edge.consumer_table, edge.consumer_field)} ({edge.level.value})"
        )
        row.mappings.append(mapping)
        row.drawn = row.drawn or f"{edge.producer_field} → {edge.consumer_field}"
        if edge.reason and edge.reason not in row.reasons:
            row.reasons.append(edge.reason)
    return sorted(rows.values(), key=lambda n: (n.rank, n.api))


def neighbourhood(reader: CatalogReader, api_key: str) -> Neighbourhood:
    """The producers and consumers of ``api_key`` the reader sees (every edge level)."""
    producers = _group([e for e in reader.edges_into(api_key) if e.producer != api_key], lambda e: e.producer)
    consumers = _group(
        [e for e in reader.edges_out_of(api_key) if e.consumer != api_key], lambda e: e.consumer
    )
    listed = producers[:LISTED_PER_SIDE] + consumers[:LISTED_PER_SIDE]
    titles = reader.api_titles([n.api for n in listed])
    for row in listed:
        row.title = titles.get(row.api, ("", ""))[1] if row.api in titles else ""
    return Neighbourhood(
        producers=producers[:LISTED_PER_SIDE],
        consumers=consumers[:LISTED_PER_SIDE],
        producers_total=len(producers),
        consumers_total=len(consumers),
    )


def _edge_label(row: Neighbour) -> str:
    extra = len(row.mappings) - 1 + row.more
    return row.drawn + (f" (+{extra})" if extra > 0 else "")


def neighbourhood_drawing(
    api_key: str, title: str, around: Neighbourhood, href: Callable[[str], str]
) -> GraphDrawing:
    """Producers on the left, the API in the middle, consumers on the right; each node a link."""
    drawing = GraphDrawing(direction="LR", title=f"dependency neighbourhood of {api_key}", key="around")
    centre = drawing.node(GraphNode(id="c", label=api_key, note=title, layer=1, kind="centre"))
    centre.href = href(api_key)
    for side, rows, layer in (("p", around.producers, 0), ("n", around.consumers, 2)):
        for index, row in enumerate(rows[:DRAWN_PER_SIDE]):
            node_id = f"{side}{index}"
            kind = "producer" if side == "p" else "consumer"
            drawing.node(GraphNode(id=node_id, label=row.api, note=row.title, layer=layer, href=href(row.api),
                                   kind=kind))  # fmt: skip
            source, target = (node_id, "c") if side == "p" else ("c", node_id)
            at: Literal["source", "target"] = "source" if side == "p" else "target"  # off the side's box
            drawing.edges.append(
                GraphEdge(source, target, _edge_label(row), kind=row.level.value, label_at=at)
            )
    return drawing
