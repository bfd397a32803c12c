"""Markdown (the compile and drift reports) as HTML: tables, Mermaid blocks drawn as SVG, API names linked."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from apiatlas.web.graph_svg import render_svg
from apiatlas.web.mermaid import mermaid_drawing

Link = Callable[[str], str | None]


def markdown_html(text: str, link: Link | None = None) -> str:
    """``text`` rendered (CommonMark with tables, raw HTML escaped); a ```` ```mermaid ```` block the
    report's subset covers becomes an inline SVG with its source under it; inline code naming something
    ``link`` knows (an API key) becomes a link to its page."""
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    drawn = [0]

    def fence(renderer: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        token = tokens[idx]
        if token.info.strip() != "mermaid":
            return f"<pre><code>{escape(token.content)}</code></pre>\n"
        drawn[0] += 1
        drawing = mermaid_drawing(token.content, key=f"mermaid-{drawn[0]}", link=link)
        source = f"<pre><code>{escape(token.content)}</code></pre>"
        if drawing is None:
            return f'<figure class="mermaid-source">{source}</figure>\n'
        return (
            f'<figure class="diagram">{render_svg(drawing)}'
            f"<details><summary>Mermaid source</summary>{source}</details></figure>\n"
        )

    def code_inline(renderer: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
        content = tokens[idx].content
        href = link(content) if link is not None else None
        code = f"<code>{escape(content)}</code>"
        return f'<a href="{escape(href)}">{code}</a>' if href else code

    md.add_render_rule("fence", fence)
    md.add_render_rule("code_inline", code_inline)
    html: str = md.render(text)
    return html
