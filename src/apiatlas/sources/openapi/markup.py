"""Descriptions as plain text: the HTML some specs write in them (Stripe's ``<p>``, ``<code>``, links)
taken out, entities decoded. Only HTML's own tags are removed: Kubernetes writes placeholders such as
``<pool>`` in its prose, and those stay."""

from __future__ import annotations

import html
import re

_BLOCK = re.compile(
    r"</?(?:p|br|li|ul|ol|div|pre|h[1-6]|tr|table|thead|tbody|blockquote|hr|dl|dt|dd)\b[^<>]*>", re.I
)
_INLINE = re.compile(
    r"</?(?:a|code|em|strong|b|i|u|s|span|sup|sub|img|th|td|tt|kbd|var|abbr|small|mark)\b[^<>]*>", re.I
)
_SPACES = re.compile(r"[ \t]+")
_BLANK_LINES = re.compile(r"\n\s*\n\s*(\n\s*)+")


def plain_text(text: str) -> str:
    """``text`` without HTML tags (a block tag becomes a line break) and with ``&amp;`` … decoded."""
    if "<" not in text and "&" not in text:
        return text
    out = _INLINE.sub("", _BLOCK.sub("\n", text))
    if "&" in out:
        out = html.unescape(out)
    lines = [_SPACES.sub(" ", line).strip() for line in out.split("\n")]
    return _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()
