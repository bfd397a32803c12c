"""Shared reading rules of the bank pages: labels, section headings, header-mapped columns, flag cells."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from apiatlas.sources.bank_html.markup import Cell, HtmlPage, HtmlTable, normalize_label

_TRUE = frozenset({"да", "yes", "1", "+", "true", "y"})
_FALSE = frozenset({"нет", "no", "0", "-", "false", "n"})


@dataclass(frozen=True, slots=True)
class Section:
    """A section of a page, recognised by the heading before its table."""

    name: str
    headings: tuple[str, ...]  # normalised heading prefixes

    def matches(self, heading: str) -> bool:
        return heading.startswith(self.headings)  # str.startswith takes a tuple of prefixes


def section_tables(
    page: HtmlPage, sections: Iterable[Section]
) -> tuple[dict[str, HtmlTable], list[HtmlTable]]:
    """Split tables into known sections (first table per section wins) and the rest (attribute tables)."""
    known: dict[str, HtmlTable] = {}
    rest: list[HtmlTable] = []
    wanted = list(sections)
    for table in page.tables:
        section = next((s for s in wanted if s.matches(table.heading)), None)
        if section is None and table.rows and len(table.rows[0]) == 1:
            # a heading written as the table's own first row: <tr><td colspan=4>Входные параметры</tr>
            caption = normalize_label(table.rows[0][0])
            section = next((s for s in wanted if s.matches(caption)), None)
            if section is not None:
                table = table.without_first_row(caption)
        if section is None:
            rest.append(table)
        elif section.name not in known:
            known[section.name] = table
    return known, rest


def sections_without_table(
    page: HtmlPage, sections: Iterable[Section], found: Mapping[str, HtmlTable]
) -> list[str]:
    """Sections whose heading appears on the page but no table follows it."""
    missing: list[str] = []
    for section in sections:
        if section.name in found:
            continue
        if any(heading in section.headings for heading in page.headings):
            missing.append(section.name)
    return missing


def attributes(tables: Iterable[HtmlTable]) -> dict[str, Cell]:
    """Label (normalised first cell) -> value cell, over every row of the given tables; first one wins."""
    found: dict[str, Cell] = {}
    for table in tables:
        for number, row in enumerate(table.rows):
            if len(row) < 2:
                continue
            label = normalize_label(row[0])
            if label and label not in found:
                found[label] = table.cell(number, 1)
    return found


def attribute(found: Mapping[str, Cell], *labels: str) -> Cell | None:
    """The value cell of the first of ``labels`` present on the page."""
    for label in labels:
        cell = found.get(label)
        if cell is not None:
            return cell
    return None


def attribute_text(found: Mapping[str, Cell], *labels: str) -> str:
    """The text of the first of ``labels`` present on the page, '' when none is."""
    cell = attribute(found, *labels)
    return cell.text if cell is not None else ""


# The maps of the header rows seen, by (``columns`` object, header texts): pages repeat their headers. An
# entry holds ``columns`` itself, so no other object can take its id while the entry is there.
_MAPS: dict[tuple[int, tuple[str, ...]], tuple[Mapping[str, tuple[str, ...]], Mapping[str, int]]] = {}
_MAPS_HELD = 4096


def column_map(header: list[str], columns: Mapping[str, tuple[str, ...]]) -> Mapping[str, int]:
    """Map column names to positions by header text prefixes (``{'type': ('тип',)}``). The map is shared by
    the tables with the same header (not to be changed); ``columns`` is a constant of its parser."""
    key = (id(columns), tuple(header))
    seen = _MAPS.get(key)
    if seen is not None and seen[0] is columns:
        return seen[1]
    mapping = _column_map(header, columns)
    if mapping and len(_MAPS) < _MAPS_HELD:  # a header (its labels repeat), not a table's first data row
        _MAPS[key] = (columns, mapping)
    return mapping


def _column_map(header: list[str], columns: Mapping[str, tuple[str, ...]]) -> dict[str, int]:
    mapping: dict[str, int] = {}
    for index, text in enumerate(header):
        label = normalize_label(text)
        for column, prefixes in columns.items():
            if column not in mapping and label.startswith(prefixes):
                mapping[column] = index
                break
    return mapping


def body_rows(
    table: HtmlTable, columns: Mapping[str, tuple[str, ...]], default_order: tuple[str, ...]
) -> tuple[Mapping[str, int], list[list[str]], bool]:
    """The column map, the data rows and whether a header row was recognised (else ``default_order``)."""
    if not table.rows:
        return {}, [], False
    mapping = column_map(table.rows[0], columns)
    if default_order[0] in mapping:
        return mapping, table.rows[1:], True
    return {name: i for i, name in enumerate(default_order)}, table.rows, False


def cell_text(row: list[str], mapping: Mapping[str, int], column: str) -> str:
    index = mapping.get(column)
    if index is None or index >= len(row):
        return ""
    return row[index]


def parse_flag(text: str) -> tuple[bool | None, bool]:
    """A boolean cell: (value, understood). Empty means unknown (None, True)."""
    value = normalize_label(text)
    if not value:
        return None, True
    if value in _TRUE:
        return True, True
    if value in _FALSE:
        return False, True
    return None, False


def parse_visa(text: str | None) -> bool | None:
    """'Ok' is approved; anything else present is not; no visa row at all is unknown."""
    if text is None:
        return None
    return normalize_label(text) == "ok"


def resolve_link(page_file: str, href: str | None) -> str | None:
    """A relative link of ``page_file`` as a path relative to the docs root; None for external links."""
    if not href:
        return None
    target = href.split("#", 1)[0].split("?", 1)[0].strip().replace("\\", "/")
    if not target or ":" in target or target.startswith("/"):
        return None
    base = posixpath.dirname(page_file)
    resolved = posixpath.normpath(posixpath.join(base, target))
    return None if resolved.startswith("..") else resolved


def link_stem(href: str | None) -> str:
    """The file name of a link without its extension: 'Services/API_X.htm' -> 'API_X'."""
    if not href:
        return ""
    name = posixpath.basename(href.split("#", 1)[0].replace("\\", "/"))
    return name.rsplit(".", 1)[0] if "." in name else name


def first_word(text: str) -> str:
    """The first whitespace-separated word of ``text`` ('' for blank text): names never contain spaces."""
    words = text.split()
    return words[0] if words else ""
