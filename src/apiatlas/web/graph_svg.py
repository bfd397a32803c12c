"""Graphs drawn on the server as SVG: nodes in layers (left to right or top to bottom), edges with labels.

Every page that shows a graph (an API's neighbourhood, a plan's chains, the report's Mermaid diagrams)
builds a ``GraphDrawing`` and renders it here, so no script runs in the browser: a node with an ``href``
is an SVG link (focusable, followed with Enter), which is how a reader moves through the graph.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from html import escape
from typing import Literal

NODE_WIDTH = 250
NODE_HEIGHT = 46
LAYER_GAP = {"LR": 240, "TD": 64}  # between the facing sides of two layers (room for an edge label)
ROW_GAP = 18
MARGIN = 16
CHARS_PER_LINE = 30  # what fits in NODE_WIDTH at the node font size
NOTE_CHARS = 35
LABEL_CHARS = 38


@dataclass
class GraphNode:
    """One box: ``label`` on top, ``note`` under it; ``kind`` picks its colours (a CSS class)."""

    id: str
    label: str
    layer: int = 0
    note: str = ""
    href: str | None = None
    kind: str = "api"
    title: str = ""  # the tooltip (full label, when it is shortened)
    row: int | None = None  # its place within the layer; None: the layer's nodes are centred in order


@dataclass
class GraphEdge:
    source: str
    target: str
    label: str = ""
    kind: str = ""  # a CSS class, e.g. the edge level
    label_at: Literal["middle", "source", "target"] = "middle"  # next to the less crowded end


@dataclass
class GraphDrawing:
    """Nodes (each in a layer) and edges; ``direction`` LR puts layers side by side, TD one under another."""

    nodes: list[GraphNode] = field(default_factory=list)
    edges: list[GraphEdge] = field(default_factory=list)
    direction: Literal["LR", "TD"] = "LR"
    title: str = ""
    key: str = "g"  # unique on its page: names the arrow marker
    layer_gap: int | None = None  # None: LAYER_GAP of the direction

    def node(self, node: GraphNode) -> GraphNode:
        """Add ``node`` unless one with its id is there; returns the node kept."""
        for existing in self.nodes:
            if existing.id == node.id:
                return existing
        self.nodes.append(node)
        return node


def _forward_edges(order: list[str], edges: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """The edges without the back edge of each cycle (found walking forward from the nodes in order)."""
    out: dict[str, list[str]] = {n: [] for n in order}
    for source, target in edges:
        if source in out and target in out and source != target:
            out[source].append(target)
    state: dict[str, int] = {}  # 1 on the walk's path, 2 done
    kept: list[tuple[str, str]] = []

    def walk(node: str) -> None:
        state[node] = 1
        for target in out[node]:
            if state.get(target) == 1:  # back to a node on the path: the edge closing a cycle
                continue
            kept.append((node, target))
            if target not in state:
                walk(target)
        state[node] = 2

    for node in order:
        if node not in state:
            walk(node)
    return kept


def longest_path_layers(
    nodes: Iterable[str], edges: Iterable[tuple[str, str]], *, towards_sinks: bool = False
) -> dict[str, int]:
    """Each node's layer: the length of the longest path reaching it (a cycle's back edge is ignored).

    ``towards_sinks``: measured from the end instead, so every node sits just before the nodes it feeds
    (chains of different lengths that end at one API then join it without an edge across a layer)."""
    order = list(dict.fromkeys(nodes))
    before: dict[str, list[str]] = {n: [] for n in order}  # the nodes whose layer pushes this one's
    for source, target in _forward_edges(order, edges):
        before[source if towards_sinks else target].append(target if towards_sinks else source)
    layers: dict[str, int] = {}

    def layer_of(node: str) -> int:
        if node not in layers:
            layers[node] = 1 + max((layer_of(p) for p in before[node]), default=-1)
        return layers[node]

    for node in order:
        layer_of(node)
    if towards_sinks:
        deepest = max(layers.values(), default=0)
        return {node: deepest - layer for node, layer in layers.items()}
    return layers


def order_by_neighbours(drawing: GraphDrawing) -> None:
    """Reorder each layer's nodes by the mean place of the nodes they feed in the next layer (one sweep from
    the last layer back), which removes most crossings of a drawing of converging chains."""
    by_layer: dict[int, list[GraphNode]] = {}
    for node in drawing.nodes:
        by_layer.setdefault(node.layer, []).append(node)
    feeds: dict[str, list[str]] = {}
    for edge in drawing.edges:
        feeds.setdefault(edge.source, []).append(edge.target)
    place: dict[str, float] = {}
    for layer in sorted(by_layer, reverse=True):
        members = by_layer[layer]

        def key(item: tuple[int, GraphNode]) -> float:
            index, node = item
            known = [place[t] for t in feeds.get(node.id, []) if t in place]
            return sum(known) / len(known) if known else float(index)

        members[:] = [n for _, n in sorted(enumerate(members), key=key)]
        place.update({n.id: float(i) for i, n in enumerate(members)})
    drawing.nodes = [n for layer in sorted(by_layer) for n in by_layer[layer]]


def _lines(text: str, width: int, most: int) -> list[str]:
    """``text`` wrapped at spaces, slashes or underscores into at most ``most`` lines of ``width``."""
    words: list[str] = []
    current = ""
    for char in text:
        current += char
        if char in " /_." and len(current) > 1:
            words.append(current)
            current = ""
    if current:
        words.append(current)
    lines = [""]
    for word in words:
        while len(word) > width:  # a word longer than a line is cut
            if lines[-1]:
                lines.append("")
            lines[-1], word = word[:width], word[width:]
            lines.append("")
        if len(lines[-1]) + len(word) > width and lines[-1]:
            lines.append("")
        lines[-1] += word
    lines = [line.strip() for line in lines if line.strip()]
    if len(lines) > most:
        lines = lines[:most]
        lines[-1] = lines[-1][: width - 1] + "…"
    return lines


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _short_middle(text: str, width: int) -> str:
    """``text`` cut in the middle, keeping both ends (an edge label's counts are at its end)."""
    if len(text) <= width:
        return text
    head = (width - 1) // 2
    return text[:head] + "…" + text[len(text) - (width - 1 - head) :]


@dataclass(frozen=True)
class _Box:
    x: float
    y: float


def _place(drawing: GraphDrawing) -> tuple[dict[str, _Box], float, float]:
    """Top-left corner of every node, and the picture's width and height."""
    by_layer: dict[int, list[GraphNode]] = {}
    for node in drawing.nodes:
        by_layer.setdefault(node.layer, []).append(node)
    layers = sorted(by_layer)
    rows = max((len(v) for v in by_layer.values()), default=0)
    rows = max([rows, *(n.row + 1 for n in drawing.nodes if n.row is not None)])
    gap = drawing.layer_gap if drawing.layer_gap is not None else LAYER_GAP[drawing.direction]
    across = NODE_HEIGHT + ROW_GAP if drawing.direction == "LR" else NODE_WIDTH + ROW_GAP
    along = NODE_WIDTH + gap if drawing.direction == "LR" else NODE_HEIGHT + gap
    span = rows * across - ROW_GAP
    boxes: dict[str, _Box] = {}
    for step, layer in enumerate(layers):
        members = by_layer[layer]
        start = (span - (len(members) * across - ROW_GAP)) / 2  # each layer centred
        for index, node in enumerate(members):
            offset = node.row * across if node.row is not None else start + index * across
            a, b = MARGIN + step * along, MARGIN + offset
            boxes[node.id] = _Box(a, b) if drawing.direction == "LR" else _Box(b, a)
    count = len(layers)
    length = count * along - (along - (NODE_WIDTH if drawing.direction == "LR" else NODE_HEIGHT))
    if drawing.direction == "LR":
        return boxes, length + 2 * MARGIN, span + 2 * MARGIN
    return boxes, span + 2 * MARGIN, length + 2 * MARGIN


def _marker_id(drawing: GraphDrawing) -> str:
    return "arrow-" + "".join(c if c.isalnum() else "-" for c in drawing.key)


def _edge_path(a: _Box, b: _Box, direction: str) -> tuple[str, tuple[float, float], tuple[float, float]]:
    """A curve from the out side of box ``a`` to the in side of box ``b``, and its two ends."""
    if direction == "LR":
        x1, y1 = a.x + NODE_WIDTH, a.y + NODE_HEIGHT / 2
        x2, y2 = b.x, b.y + NODE_HEIGHT / 2
        if x2 <= x1:  # backwards (a cycle): leave from the bottom, come in from the bottom
            y1, y2 = a.y + NODE_HEIGHT, b.y + NODE_HEIGHT
            x1, x2 = a.x + NODE_WIDTH / 2, b.x + NODE_WIDTH / 2
        bend = max(40.0, abs(x2 - x1) / 2)
        path = f"M{x1:.0f},{y1:.0f} C{x1 + bend:.0f},{y1:.0f} {x2 - bend:.0f},{y2:.0f} {x2:.0f},{y2:.0f}"
    else:
        x1, y1 = a.x + NODE_WIDTH / 2, a.y + NODE_HEIGHT
        x2, y2 = b.x + NODE_WIDTH / 2, b.y
        bend = max(30.0, abs(y2 - y1) / 2)
        path = f"M{x1:.0f},{y1:.0f} C{x1:.0f},{y1 + bend:.0f} {x2:.0f},{y2 - bend:.0f} {x2:.0f},{y2:.0f}"
    return path, (x1, y1), (x2, y2)


def _label_svg(edge: GraphEdge, start: tuple[float, float], end: tuple[float, float], direction: str) -> str:
    """The edge's label: in the middle, or just off the end the edge says (where the curve is flat)."""
    label = escape(_short_middle(edge.label, LABEL_CHARS))
    if edge.label_at == "source" and direction == "LR":
        x, y, anchor = start[0] + 8, start[1] - 5, "start"
    elif edge.label_at == "target" and direction == "LR":
        x, y, anchor = end[0] - 12, end[1] - 5, "end"
    else:
        x, y, anchor = (start[0] + end[0]) / 2, (start[1] + end[1]) / 2 - 4, "middle"
    return f'<text x="{x:.0f}" y="{y:.0f}" text-anchor="{anchor}">{label}</text>'


def _node_svg(node: GraphNode, box: _Box) -> str:
    lines = _lines(node.label, CHARS_PER_LINE, 2) if not node.note else [_short(node.label, CHARS_PER_LINE)]
    text = [
        f'<text x="{box.x + 10:.0f}" y="{box.y + 18 + 14 * i:.0f}" class="label">{escape(line)}</text>'
        for i, line in enumerate(lines)
    ]
    if node.note:
        note = escape(_short(node.note, NOTE_CHARS))
        text.append(f'<text x="{box.x + 10:.0f}" y="{box.y + 36:.0f}" class="note">{note}</text>')
    tip = escape(node.title or (node.label + (f" — {node.note}" if node.note else "")))
    body = (
        f"<title>{tip}</title>"
        f'<rect x="{box.x:.0f}" y="{box.y:.0f}" width="{NODE_WIDTH}" height="{NODE_HEIGHT}" rx="6"/>'
        + "".join(text)
    )
    group = f'<g class="node {escape(node.kind)}">{body}</g>'
    if node.href is None:
        return group
    return f'<a href="{escape(node.href)}" class="node-link" aria-label="{tip}">{group}</a>'


def render_svg(drawing: GraphDrawing) -> str:
    """The drawing as one inline ``<svg>`` element (styled by the page's CSS classes)."""
    if not drawing.nodes:
        return ""
    boxes, width, height = _place(drawing)
    marker = _marker_id(drawing)
    edges = []
    for edge in drawing.edges:
        a, b = boxes.get(edge.source), boxes.get(edge.target)
        if a is None or b is None:
            continue
        path, start, end = _edge_path(a, b, drawing.direction)
        parts = [f'<path d="{path}" marker-end="url(#{marker})"/>']
        if edge.label:
            parts.append(_label_svg(edge, start, end, drawing.direction))
        title = f"<title>{escape(edge.label)}</title>" if edge.label else ""
        edges.append(f'<g class="edge {escape(edge.kind)}">{title}{"".join(parts)}</g>')
    nodes = [_node_svg(n, boxes[n.id]) for n in drawing.nodes]
    label = escape(drawing.title or "graph")
    return (
        f'<svg class="graph" role="img" aria-label="{label}" xmlns="http://www.w3.org/2000/svg" '
        f'width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}">'
        f'<defs><marker id="{marker}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" '
        'markerHeight="8" orient="auto-start-reverse">'
        '<path d="M0,0 L10,5 L0,10 z" class="arrow"/></marker></defs>'
        + "".join(edges)
        + "".join(nodes)
        + "</svg>"
    )
