"""Turn one loose HTML page into labelled tables: cell text, links, and the heading before each table."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from selectolax.lexbor import LexborHTMLParser, LexborNode

# A private-use character stands for <br> while parsing, so cells keep their line breaks.
_BREAK = "\ue000"
# <br>, and a paragraph's end (paragraphs in a cell become lines)
_MARKS = re.compile(r"<br\s*/?\s*>|</(?:p|div|li)\s*>", re.IGNORECASE)
_CLOSING = re.compile(r"</(?:html|body)", re.IGNORECASE)  # looked for in the page's last 4 KB
_LINK_TAG = re.compile(r"<a[\s/>]", re.IGNORECASE)  # no <a> element without one (a table page has none)
_INLINE_TAGS = frozenset(
    {"b", "i", "u", "s", "strong", "em", "font", "span", "a", "small", "big", "sup", "sub", "code", "nobr"}
)
_HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "b", "strong", "p", "div", "center"})
_TITLE_TAGS = frozenset({"h1", "h2", "h3"})  # the page's title; else its <title>
_MAX_WALK = 64  # nodes visited backwards from a table while looking for its heading


def _tag_ids() -> dict[str, int]:
    """lexbor's ids of the standard tags read here (the same in every document), from a page that has them."""
    tags = "".join(f"<{name}>x</{name}>" for name in sorted(_HEADING_TAGS | _INLINE_TAGS))
    page = "<html><head><title>x</title></head><body><table><thead><tr><th>x</th><td>x</td></tr></thead>"
    tree = LexborHTMLParser(page + f"<tbody></tbody><tfoot></tfoot></table>{tags}</body></html>")
    return {node.tag or "": node.tag_id for node in tree.root.traverse()} if tree.root is not None else {}


_IDS = _tag_ids()
_TABLE, _TR, _TD, _TH, _A, _TITLE = (_IDS[name] for name in ("table", "tr", "td", "th", "a", "title"))
_HEADING_IDS = frozenset(_IDS[name] for name in _HEADING_TAGS)
_TITLE_IDS = frozenset(_IDS[name] for name in _TITLE_TAGS)
_SECTION_IDS = frozenset(_IDS[name] for name in ("tbody", "thead", "tfoot"))
_INLINE_IDS = frozenset(_IDS[name] for name in _INLINE_TAGS)
# where the search for the heading before a table stops when climbing
_WALL_IDS = frozenset(_IDS[name] for name in ("body", "html", "table", "td", "th"))


class Cell:
    """A cell a parser holds on to (an attribute's value): its text (lines joined by ``\\n``) and the target
    of its first link, if any (looked for in the cell's node when first asked)."""

    __slots__ = ("_href", "_node", "text")

    def __init__(self, text: str, href: str | None = None, node: LexborNode | None = None) -> None:
        self.text = text
        self._href = href
        self._node = node

    @property
    def href(self) -> str | None:
        node = self._node
        if node is not None:
            self._node = None
            self._href = cell_link(node)
        return self._href

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cell) and (self.text, self.href) == (other.text, other.href)

    def __repr__(self) -> str:
        return f"Cell(text={self.text!r}, href={self.href!r})"


@dataclass(slots=True)
class HtmlTable:
    """A table of the page with the (normalised) heading text that precedes it: the text of each cell, row
    by row, and on a page with links the cells' nodes (where a link is looked for when a parser asks)."""

    heading: str
    rows: list[list[str]] = field(default_factory=list)
    nodes: list[list[LexborNode]] | None = None  # None: the page has no <a> tag

    def href(self, row: int, column: int) -> str | None:
        """The target of the first link in the cell at ``row``, ``column``; None without one."""
        nodes = self.nodes
        if nodes is None or column >= len(nodes[row]):
            return None
        return cell_link(nodes[row][column])

    def cell(self, row: int, column: int) -> Cell:
        """The cell at ``row``, ``column`` (which must exist), its link looked for when asked."""
        return Cell(self.rows[row][column], None, self.nodes[row][column] if self.nodes is not None else None)

    def without_first_row(self, heading: str) -> HtmlTable:
        """This table under ``heading`` with its first row dropped (a heading written as a row)."""
        return HtmlTable(heading, self.rows[1:], self.nodes[1:] if self.nodes is not None else None)


class HtmlPage:
    """What the page parsers work from: title, tables in document order, heading-like texts. The title and
    the headings are read from the document when first asked for (most pages need neither)."""

    __slots__ = ("_headings", "_root", "_title", "tables", "truncated")

    def __init__(self, tables: list[HtmlTable], truncated: bool, root: LexborNode | None = None) -> None:
        self.tables = tables
        self.truncated = truncated
        self._root = root
        self._title: str | None = None
        self._headings: list[str] | None = None

    @property
    def title(self) -> str:
        """The text of the first h1-h3, else of the <title>; '' without either."""
        if self._title is None:
            node = self._title_node()
            self._title = clean_text(node.text(deep=True, separator=" ")) if node is not None else ""
        return self._title

    @property
    def headings(self) -> list[str]:
        """The normalised texts of the heading-like elements (h1-h6, b, strong, p, div, center), not blank."""
        if self._headings is None:
            root = self._root
            nodes = (
                (node for node in root.traverse() if node.tag_id in _HEADING_IDS) if root is not None else ()
            )
            labels = (normalize_label(node.text_lexbor()) for node in nodes)
            self._headings = [label for label in labels if label]
        return self._headings

    def _title_node(self) -> LexborNode | None:
        title_tag: LexborNode | None = None
        for node in self._root.traverse() if self._root is not None else ():
            tag = node.tag_id
            if tag in _TITLE_IDS:
                return node
            if tag == _TITLE and title_tag is None:
                title_tag = node
        return title_tag


@lru_cache(maxsize=8192)  # labels repeat from page to page ('описание', a table's header cells)
def normalize_label(text: str) -> str:
    """Lower-case, collapse whitespace, drop a trailing colon or asterisk: 'Виза  ГА:' -> 'виза га'."""
    label = " ".join(text.replace(_BREAK, " ").split()).lower().replace("ё", "е")
    return label.rstrip(":*").strip()


def clean_text(text: str) -> str:
    """Collapse whitespace inside each line; lines come from <br>, ``<br><br>`` keeps one blank line."""
    if _BREAK not in text:  # one line: what the loop below gives for it, without the loop
        return " ".join(text.split())
    lines: list[str] = []
    for part in text.split(_BREAK):
        line = " ".join(part.split())
        if line or (lines and lines[-1]):  # keep one blank line for <br><br>, never more
            lines.append(line)
    return "\n".join(lines).strip()


def read_page(html: str) -> HtmlPage:
    """Parse ``html`` (tolerant to unclosed tags, upper case, ``<br>``, ``&nbsp;``) into an HtmlPage."""
    truncated = _CLOSING.search(html, max(0, len(html) - 4096)) is None
    marked = _MARKS.sub(_mark, html)
    tree = LexborHTMLParser(marked)
    links = _LINK_TAG.search(marked) is not None
    # lexbor lists the tables (document order) in C: no CSS query (the first one on a document builds
    # lexbor's selector engine, which cost more than parsing the small page) and no walk of every element
    # in Python. The title and the heading-like elements are looked for only when a parser asks.
    tables: list[HtmlTable] = []
    for table in tree.tags("table"):
        read = _rows(table, links)
        read.heading = _heading_before(table)
        tables.append(read)
    return HtmlPage(tables, truncated, tree.root)


def _mark(tag: re.Match[str]) -> str:
    """``<br>`` becomes the break mark; a paragraph's end keeps its tag and gets the mark after it."""
    text = tag.group(0)
    return text + _BREAK if text[1] == "/" else _BREAK


def _rows(table: LexborNode, links: bool) -> HtmlTable:
    """The rows of ``table`` (those of its sections, in order) that have cells, under no heading yet."""
    read = HtmlTable("", [], [] if links else None)
    for child in table.iter():
        tag = child.tag_id
        if tag == _TR:
            _add_row(read, child)
        elif tag in _SECTION_IDS:
            for tr in child.iter():
                if tr.tag_id == _TR:
                    _add_row(read, tr)
    return read


def _add_row(read: HtmlTable, tr: LexborNode) -> None:
    texts: list[str] = []
    nodes: list[LexborNode] = []
    keep = read.nodes is not None
    for td in tr.iter():
        tag = td.tag_id
        if tag != _TD and tag != _TH:
            continue
        text = td.text_lexbor()  # lexbor's own textContent: the same text as text(), ~35% cheaper
        texts.append(clean_text(text) if _BREAK in text else " ".join(text.split()))
        if keep:
            nodes.append(td)
    if texts:
        read.rows.append(texts)
        if read.nodes is not None:
            read.nodes.append(nodes)


def cell_link(cell: LexborNode) -> str | None:
    """The target of the first ``<a href>`` in ``cell``, stripped; None without one (or when it is blank)."""
    link = _first_link(cell)
    return link.strip() if link else None


def _first_link(cell: LexborNode) -> str | None:
    """The ``href`` of the first ``<a href>`` inside ``cell`` (document order), None without one."""
    for node in cell.traverse():
        if node.tag_id == _A:
            attributes = node.attributes
            if "href" in attributes:
                return attributes["href"]
    return None


def _heading_before(table: LexborNode) -> str:
    """The text just before ``table`` in document order, unless another table comes first."""
    node: LexborNode | None = table
    for _ in range(_MAX_WALK):
        if node is None:
            return ""
        previous = node.prev
        if previous is None:
            node = node.parent
            if node is None or node.tag_id in _WALL_IDS:
                return ""
            continue
        node = previous
        while True:  # descend to the last leaf of the previous sibling
            if node.tag_id == _TABLE:
                return ""
            last = node.last_child
            if last is None or node.is_text_node:
                break
            node = last
        if node.is_text_node and (node.text_content or "").replace(_BREAK, " ").strip():
            return _inline_run(node)
    return ""


def _inline_run(text_node: LexborNode) -> str:
    """The text of the inline run (text and inline elements, stopping at a block or <br>) ending here."""
    top = text_node
    while (parent := top.parent) is not None and parent.tag_id in _INLINE_IDS:
        top = parent
    parts: list[str] = []
    node: LexborNode | None = top
    first = True
    while node is not None:
        if node.is_text_node:
            text = node.text_content or ""
        elif node.tag_id in _INLINE_IDS:
            text = node.text_lexbor()
        elif node.is_comment_node:
            text = ""
        else:
            break
        if first:
            text = text.rstrip(" \t\r\n\xa0" + _BREAK)
            first = False
        if _BREAK in text:
            parts.append(text.rsplit(_BREAK, 1)[1])
            break
        parts.append(text)
        node = node.prev
    return normalize_label("".join(reversed(parts)))
