"""Read the domain type reference (``Types/DomainTypes.htm``) into a TypesPage record."""

from __future__ import annotations

from apiatlas.catalog.model import DomainType
from apiatlas.errors import Diagnostic, Location, ReasonCode, Severity
from apiatlas.sources.bank_html.labels import cell_text, column_map, first_word
from apiatlas.sources.bank_html.markup import HtmlPage
from apiatlas.sources.bank_html.records import TypesPage, finding

_TYPE_COLUMNS = {
    "name": ("домен", "имя", "название", "тип домена"),
    "base_type": ("базов", "sql", "тип"),
    "meaning": ("описание", "назначение", "смысл"),
}


def parse_types_page(file: str, page: HtmlPage) -> tuple[TypesPage | None, list[Diagnostic]]:
    """Every row of every table whose header names a domain column: name, base type, meaning."""
    found: list[Diagnostic] = []
    record = TypesPage(file=file)
    seen: set[str] = set()
    for table in page.tables:
        if not table.rows:
            continue
        mapping = column_map(table.rows[0], _TYPE_COLUMNS)
        if "name" not in mapping:
            continue
        for row in table.rows[1:]:
            name = first_word(cell_text(row, mapping, "name"))
            if not name:
                continue
            if name in seen:
                found.append(
                    finding(
                        Severity.WARNING,
                        ReasonCode.DUPLICATE_KEY,
                        f"domain {name} is listed twice; the first row is kept",
                        file,
                        name,
                    )
                )
                continue
            seen.add(name)
            record.types.append(
                DomainType(
                    name=name,
                    base_type=cell_text(row, mapping, "base_type"),
                    meaning=cell_text(row, mapping, "meaning"),
                    source=Location(file=file, anchor=name),
                )
            )
    if not record.types:
        found.append(
            finding(
                Severity.ERROR,
                ReasonCode.MALFORMED_PAGE,
                "no table with a 'Домен' header column; no domain types read",
                file,
            )
        )
        return None, found
    return record, found
