"""XML documentation elements (compiler ``<member>`` and ECMA ``<Docs>``) as plain text and ``MemberDocs``."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from apiatlas.sources.dotnet.model import MemberDocs

PLACEHOLDER = "To be added."  # what mdoc writes where nobody documented a member
_SPACES = re.compile(r"[ \t\r\f\v]+")
_LINES = re.compile(r"\n\s*\n+")


def _cref(ref: str) -> str:
    return re.sub(r"^[A-Z]:", "", ref)


def text_of(element: ET.Element | None) -> str:
    """The element's text: ``<see cref="T:X"/>`` -> ``X``, ``<paramref name="p"/>`` -> ``p``,
    paragraphs on their own lines, code kept as written; mdoc's placeholder is no text."""
    if element is None:
        return ""
    parts: list[str] = []
    _walk(element, parts)
    text = _LINES.sub("\n", "".join(parts))
    text = "\n".join(_SPACES.sub(" ", line).strip() for line in text.split("\n")).strip()
    if text.rstrip(".").lower() == PLACEHOLDER.rstrip(".").lower():  # also written without its period
        return ""
    return text.replace(PLACEHOLDER, "").strip()


def _walk(element: ET.Element, parts: list[str]) -> None:
    if element.text:
        parts.append(element.text)
    for child in element:
        tag = child.tag
        if tag in ("see", "seealso"):
            parts.append(_cref(child.get("cref", "")) or child.get("langword", "") or (child.text or ""))
        elif tag in ("paramref", "typeparamref"):
            parts.append(child.get("name", ""))
        elif tag in ("para", "p", "list", "item", "code"):
            parts.append("\n")
            _walk(child, parts)
            parts.append("\n")
        else:
            _walk(child, parts)
        if child.tail:
            parts.append(child.tail)


def member_docs(element: ET.Element | None) -> MemberDocs:
    """A ``<member>`` or ``<Docs>`` element as ``MemberDocs`` (summary, remarks, params, returns, ...)."""
    if element is None:
        return MemberDocs()
    params = {p.get("name", ""): text_of(p) for p in element.findall("param")}
    exceptions = {_cref(e.get("cref", "")): text_of(e) for e in element.findall("exception")}
    examples = [text_of(e) for e in element.iter("example")]
    summary = element.find("summary")
    if summary is not None:
        for example in summary.findall("example"):  # mdoc sometimes nests the example in the summary
            summary.remove(example)
    return MemberDocs(
        summary=text_of(summary),
        remarks=text_of(element.find("remarks")),
        returns=text_of(element.find("returns")),
        value=text_of(element.find("value")),
        params={k: v for k, v in params.items() if v},
        exceptions=exceptions,
        example="\n".join(e for e in examples if e),
    )
