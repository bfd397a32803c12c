"""Read a business object page (``BObjects/BO_*.htm``) into an ObjectPage record."""

from __future__ import annotations

import posixpath
import re

from apiatlas.errors import Diagnostic, ReasonCode, Severity
from apiatlas.sources.bank_html.labels import (
    Section,
    attribute,
    attribute_text,
    attributes,
    first_word,
    link_stem,
    section_tables,
    sections_without_table,
)
from apiatlas.sources.bank_html.markup import HtmlPage
from apiatlas.sources.bank_html.records import ObjectPage, finding

METHODS = Section("methods", ("методы", "список методов", "api бизнес-объекта"))
_API_NAME = re.compile(r"^API_\w+$")


def parse_object_page(file: str, page: HtmlPage) -> tuple[ObjectPage | None, list[Diagnostic]]:
    """The object's key (``Сокращение``), name, purpose, visa and the APIs of its ``Методы`` table."""
    found: list[Diagnostic] = []
    if not page.tables:
        found.append(
            finding(Severity.ERROR, ReasonCode.MALFORMED_PAGE, "no table on the page; skipped", file)
        )
        return None, found
    known, rest = section_tables(page, [METHODS])
    attrs = attributes(rest)
    key_cell = attribute(attrs, "сокращение", "аббревиатура", "код объекта")
    if key_cell is None or not key_cell.text:
        found.append(
            finding(
                Severity.ERROR,
                ReasonCode.MALFORMED_PAGE,
                "no 'Сокращение' row: the business object has no key; page skipped",
                file,
            )
        )
        return None, found
    key = first_word(key_cell.text)
    name_cell = attribute(attrs, "наименование", "название")
    stem = posixpath.basename(file).rsplit(".", 1)[0]
    record = ObjectPage(
        file=file,
        key=key,
        name=name_cell.text if name_cell and name_cell.text else stem.removeprefix("BO_"),
        title=attribute_text(attrs, "основное назначение", "назначение"),
        description=attribute_text(attrs, "описание"),
    )
    visa = attribute(attrs, "виза га", "виза")
    record.visa = visa.text if visa is not None else None
    for missing in sections_without_table(page, [METHODS], known):
        found.append(
            finding(
                Severity.WARNING, ReasonCode.MISSING_SECTION, f"section '{missing}' has no table", file, key
            )
        )
    table = known.get("methods")
    if table is not None:
        for index, row in enumerate(table.rows):
            text, href = row[0], table.href(index, 0)
            if href:
                api = text if _API_NAME.match(text) else link_stem(href)
            elif _API_NAME.match(text):
                api = text
            elif index == 0 or not text:
                continue  # the header row or an empty row
            else:
                found.append(
                    finding(
                        Severity.WARNING,
                        ReasonCode.MALFORMED_PAGE,
                        f"row '{text[:60]}' of 'Методы' names no API; ignored",
                        file,
                        key,
                    )
                )
                continue
            if api and api not in record.methods:
                record.methods.append(api)
    return record, found
