"""A planned chain (what the plan_chain tool answers) drawn as a path: the request's values and the user feed
the steps that take them, each step feeds the next through its field mapping."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from apiatlas.errors import ConfigError
from apiatlas.server.tools.plan_chain import PlannedChain
from apiatlas.web.graph_svg import GraphDrawing, GraphEdge, GraphNode


def _short_value(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    return text if len(text) <= 24 else text[:23] + "…"


def chain_drawing(chain: PlannedChain, href: Callable[[str], str]) -> GraphDrawing:
    """One chain top to bottom: a node per step (a link to its API's page) in order, an edge per mapping
    between steps; beside each step's in-edge, the values stated for it and what must be asked."""
    drawing = GraphDrawing(direction="TD", title=f"chain {chain.rank}: {' → '.join(chain.apis)}",
                           key=f"chain-{chain.rank}")  # fmt: skip
    asked: dict[int, list[str]] = {}
    for ask in chain.ask_user:
        asked.setdefault(ask.step, []).append(ask.input)
    for index, step in enumerate(chain.steps):
        node = GraphNode(id=f"s{index}", label=step.api, note=f"step {index}", layer=2 * index + 1, row=0,
                         href=href(step.api), kind="step")  # fmt: skip
        drawing.node(node)
        literal = [f"{k}={_short_value(v)}" for k, v in step.args.items()]
        literal += [f"{t}: {len(rows)} row(s)" for t, rows in step.input_tables.items()]
        sources = [("stated values", ", ".join(literal), "source")] if literal else []
        if index in asked:
            sources.append(("ask the user", ", ".join(asked[index]), "ask"))
        for column, (label, what, kind) in enumerate(sources, 1):
            drawing.node(GraphNode(id=f"{kind}{index}", label=label, note=what, layer=2 * index, row=column,
                                   kind=kind))  # fmt: skip
            drawing.edges.append(GraphEdge(f"{kind}{index}", node.id, kind=kind))
        for arg, ref in step.param_mapping.items():
            label = f"{ref.column} → {arg}"
            drawing.edges.append(GraphEdge(f"s{ref.source_step}", node.id, label, kind="mapped"))
        for mapping in step.input_table_mapping.values():
            label = ", ".join(f"{src} → {dst}" for dst, src in mapping.column_mapping.items())
            drawing.edges.append(GraphEdge(f"s{mapping.source_step}", node.id, label, kind="mapped"))
    return drawing


def parse_known(text: str) -> dict[str, Any]:
    """Known values from the plan form: one ``name=value`` a line, the value JSON when it parses as JSON."""
    known: dict[str, Any] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        name, sep, raw = line.partition("=")
        if not sep or not name.strip():
            raise ConfigError(f"known values, line {number}: write name=value, not {line.strip()!r}")
        try:
            known[name.strip()] = json.loads(raw)
        except ValueError:
            known[name.strip()] = raw.strip()
    return known
