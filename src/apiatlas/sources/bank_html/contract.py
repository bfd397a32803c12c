"""Incomplete contracts: an API whose session tables are missing, truncated or without columns.

Such an API cannot work when called (the procedure reads or fills columns nobody knows), so it is
kept for navigation, marked ``Api.incomplete_contract`` (not executable) and reported as an error.
"""

from __future__ import annotations

from apiatlas.catalog.model import Api, Catalog, SessionTable
from apiatlas.errors import ReasonCode, Severity
from apiatlas.sources.bank_html.records import TablePage, finding


def table_gap(table: SessionTable, pages: dict[str, TablePage]) -> str:
    """Why ``table``'s columns cannot be trusted, or '' when they can."""
    page = pages.get(table.source.file) if table.source and table.source.file else None
    if page is None:
        return "no table page describes it"
    if page.gap:
        return page.gap
    if not table.columns:
        return "its table page lists no columns"
    return ""


def mark_incomplete_contracts(catalog: Catalog, pages: dict[str, TablePage]) -> None:
    """Set ``incomplete_contract`` on every API with a table gap, with one located error per table."""
    for api in catalog.apis.values():
        gaps = _gaps(api, pages)
        if not gaps:
            continue
        api.incomplete_contract = "; ".join(
            f"{direction} table {name}: {gap}" for direction, name, gap, _ in gaps
        )
        for direction, name, gap, file in gaps:
            catalog.add_diagnostic(
                finding(
                    Severity.ERROR,
                    ReasonCode.INCOMPLETE_CONTRACT,
                    f"{direction} table {name} of {api.key}: {gap}; the API is kept for navigation "
                    "but cannot be called",
                    file,
                    f"{api.key}#{name}",
                )
            )


def _gaps(api: Api, pages: dict[str, TablePage]) -> list[tuple[str, str, str, str]]:
    found = []
    for direction, tables in (("input", api.input_tables), ("output", api.output_tables)):
        for table in tables:
            gap = table_gap(table, pages)
            if gap:
                file = table.source.file if table.source and table.source.file else ""
                found.append(
                    (direction, table.name, gap, file or (api.source.file if api.source else "") or "")
                )
    return found
