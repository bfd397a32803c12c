"""The Mermaid flowcharts apiatlas writes (the compile report's funnel and chains) drawn as SVG on the server.

Only the subset the report emits is read: a ``flowchart``/``graph`` header with a direction, nodes
``id["label"]`` and edges ``a -->|"label"| b`` (``#quot;``-style entities and ``<br/>`` in labels). A
block holding anything else is not guessed at: ``mermaid_drawing`` returns None and the page shows
the Mermaid source as text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape

from apiatlas.web.graph_svg import (
    GraphDrawing,
    GraphEdge,
    GraphNode,
    longest_path_layers,
    order_by_neighbours,
)

_HEADER = re.compile(r"^(?:flowchart|graph)\s+(LR|RL|TD|TB|BT)\s*$")
_NODE = re.compile(r'^([A-Za-z_][\w-]*)\["(.*)"\]$')
_EDGE = re.compile(r'^([A-Za-z_][\w-]*)\s*-->\s*(?:\|"(.*)"\|\s*)?([A-Za-z_][\w-]*)$')
_ENTITY = re.compile(r"#(\w+);")


def _text(label: str) -> str:
    """A Mermaid label as plain text: entities decoded, ``<br/>`` a line break."""
    decoded = _ENTITY.sub(lambda m: unescape(f"&{m.group(1)};"), label)
    return re.sub(r"<br\s*/?>", "\n", decoded)


def mermaid_drawing(
    source: str, key: str = "mermaid", link: Callable[[str], str | None] | None = None
) -> GraphDrawing | None:
    """The drawing of a Mermaid flowchart in the report's subset, or None for anything else; ``link``
    gives the page a node's label leads to (an API's page), if any."""
    lines = [line.strip() for line in source.strip().splitlines() if line.strip()]
    header = _HEADER.match(lines[0]) if lines else None
    if header is None:
        return None
    labels: dict[str, str] = {}
    links: list[tuple[str, str, str]] = []
    for line in lines[1:]:
        node, edge = _NODE.match(line), _EDGE.match(line)
        if node:
            labels[node.group(1)] = _text(node.group(2))
        elif edge:
            links.append((edge.group(1), edge.group(3), _text(edge.group(2) or "")))
        else:
            return None
    for source_id, target_id, _ in links:
        labels.setdefault(source_id, source_id)
        labels.setdefault(target_id, target_id)
    layers = longest_path_layers(labels, ((s, t) for s, t, _ in links), towards_sinks=True)
    drawing = GraphDrawing(direction="LR" if header.group(1) in ("LR", "RL") else "TD", key=key)
    for node_id, label in labels.items():
        first, _, rest = label.partition("\n")
        box = GraphNode(id=node_id, label=first, note=rest.replace("\n", " "), layer=layers[node_id])
        box.href = link(first) if link is not None else None
        drawing.nodes.append(box)
    drawing.edges = [GraphEdge(source=s, target=t, label=label) for s, t, label in links]
    order_by_neighbours(drawing)
    return drawing
