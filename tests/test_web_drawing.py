"""The server-side drawings of the web pages: the report's Mermaid subset read into a graph, layers, SVG."""

from __future__ import annotations

import re

from apiatlas.web.graph_svg import GraphDrawing, GraphEdge, GraphNode, longest_path_layers, render_svg
from apiatlas.web.mermaid import mermaid_drawing
from apiatlas.web.plan_view import parse_known

CHAINS = """graph LR
    a0["Entry_A"]
    a1["Middle"]
    a2["Target"]
    a3["Entry_B"]
    a0 -->|"id → id (declared)"| a1
    a1 -->|"ref → ref (name_type)"| a2
    a3 -->|"ref → ref (alias)"| a2
"""


def test_the_reports_flowchart_is_read_with_labels_and_layers_towards_the_target() -> None:
    drawing = mermaid_drawing(CHAINS, link=lambda label: f"/api?key={label}" if label != "Middle" else None)
    assert drawing is not None and drawing.direction == "LR"
    layers = {n.label: n.layer for n in drawing.nodes}
    # Entry_B feeds the target directly: it sits just before it, not in the first layer
    assert layers == {"Entry_A": 0, "Middle": 1, "Entry_B": 1, "Target": 2}
    assert drawing.edges[0].label == "id → id (declared)"
    svg = render_svg(drawing)
    assert svg.startswith("<svg") and len(re.findall(r'<a href="/api\?key=', svg)) == 3
    assert "<script" not in svg


def test_entities_and_line_breaks_of_a_funnel_label() -> None:
    drawing = mermaid_drawing('flowchart TD\n    s0["parsed<br/>265 APIs"]\n    s1["name #quot;x#quot;"]\n'
                              '    s0 -->|"key matches #lt;rule#gt; (−140)"| s1')  # fmt: skip
    assert drawing is not None and drawing.direction == "TD"
    assert [(n.label, n.note) for n in drawing.nodes] == [("parsed", "265 APIs"), ('name "x"', "")]
    assert drawing.edges[0].label == "key matches <rule> (−140)"
    assert "&lt;rule&gt;" in render_svg(drawing)  # escaped in the SVG


def test_a_block_outside_the_subset_is_not_guessed_at() -> None:
    assert mermaid_drawing("sequenceDiagram\n    A->>B: hi") is None
    assert mermaid_drawing("graph LR\n    a --> b\n    click a callback") is None


def test_layers_ignore_a_cycle_s_back_edge() -> None:
    assert longest_path_layers("abc", [("a", "b"), ("b", "c"), ("c", "a")]) == {"a": 0, "b": 1, "c": 2}


def test_labels_and_hrefs_are_escaped() -> None:
    drawing = GraphDrawing(key="x y")
    drawing.node(GraphNode(id="n", label='<b>"API"</b>', href='/api?key=a"b'))
    drawing.node(GraphNode(id="m", label="other", layer=1))
    drawing.edges.append(GraphEdge("n", "m", "a & b"))
    svg = render_svg(drawing)
    assert "<b>" not in svg and "&lt;b&gt;" in svg and 'href="/api?key=a&quot;b"' in svg
    assert 'id="arrow-x-y"' in svg and "a &amp; b" in svg


def test_known_values_of_the_plan_form() -> None:
    assert parse_known("id=42\nname = Smith \n\nflags=[1, 2]\ncode=007") == {
        "id": 42, "name": "Smith", "flags": [1, 2], "code": "007",
    }  # fmt: skip
