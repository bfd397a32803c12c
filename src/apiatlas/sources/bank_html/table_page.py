"""Read a session table page (``BObjects/Services/Tables/T_*.htm``) into a TablePage record."""

from __future__ import annotations

from apiatlas.catalog.model import Direction
from apiatlas.errors import Diagnostic, ReasonCode, Severity
from apiatlas.sources.bank_html.labels import (
    Section,
    attribute_text,
    attributes,
    body_rows,
    cell_text,
    first_word,
    section_tables,
)
from apiatlas.sources.bank_html.markup import HtmlPage, normalize_label
from apiatlas.sources.bank_html.records import TablePage, finding, new_column

COLUMNS = Section("Колонки", ("колонки", "поля", "столбцы"))
_COLUMN_COLUMNS = {
    "name": ("колонка", "поле", "столбец", "имя", "название"),
    "type": ("тип",),
    "description": ("описание", "комментарий"),
}
_DIRECTIONS = {
    "входная": Direction.IN,
    "входящая": Direction.IN,
    "in": Direction.IN,
    "input": Direction.IN,
    "выходная": Direction.OUT,
    "исходящая": Direction.OUT,
    "out": Direction.OUT,
    "output": Direction.OUT,
}


def parse_table_page(file: str, page: HtmlPage) -> tuple[TablePage | None, list[Diagnostic]]:
    """Name, owning API, direction, description and columns of one session table."""
    found: list[Diagnostic] = []
    if not page.tables:
        found.append(
            finding(Severity.ERROR, ReasonCode.MALFORMED_PAGE, "no table on the page; skipped", file)
        )
        return None, found
    known, rest = section_tables(page, [COLUMNS])
    attrs = attributes(rest)
    name = first_word(attribute_text(attrs, "таблица", "название", "имя"))
    if not name:
        name = first_word(page.title) if len(page.title.split()) == 1 else ""
        if not name:
            found.append(
                finding(Severity.ERROR, ReasonCode.MALFORMED_PAGE, "no 'Таблица' row; page skipped", file)
            )
            return None, found
        found.append(
            finding(
                Severity.WARNING,
                ReasonCode.MALFORMED_PAGE,
                "no 'Таблица' row; the table name is taken from the page heading",
                file,
                name,
            )
        )
    record = TablePage(
        file=file,
        name=name,
        api=first_word(attribute_text(attrs, "api", "метод")),
        description=attribute_text(attrs, "описание"),
    )
    if page.truncated:
        record.gap = "the table page is truncated (no closing </body> or </html>)"
    direction_text = attribute_text(attrs, "направление")
    record.direction = _DIRECTIONS.get(normalize_label(direction_text))
    if direction_text and record.direction is None:
        found.append(
            finding(
                Severity.WARNING,
                ReasonCode.MALFORMED_PAGE,
                f"'Направление' is '{direction_text}', not Входная/Выходная; the API page decides",
                file,
                name,
            )
        )
    table = known.get(COLUMNS.name)
    if table is None:
        found.append(
            finding(
                Severity.WARNING, ReasonCode.MISSING_SECTION, "no 'Колонки' table: no columns", file, name
            )
        )
        record.gap = record.gap or "the table page has no 'Колонки' table"
        return record, found
    order = ("name", "type", "description")
    mapping, rows, has_header = body_rows(table, _COLUMN_COLUMNS, order)
    if not has_header:
        found.append(
            finding(
                Severity.WARNING,
                ReasonCode.MALFORMED_PAGE,
                f"table 'Колонки' has no recognised header row; columns assumed to be {', '.join(order)}",
                file,
                name,
            )
        )
    seen: set[str] = set()
    for row in rows:
        column = first_word(cell_text(row, mapping, "name")).lstrip("@")
        if not column:
            continue
        if column in seen:
            found.append(
                finding(
                    Severity.WARNING,
                    ReasonCode.DUPLICATE_KEY,
                    f"column {column} is listed twice; the first row is kept",
                    file,
                    name,
                )
            )
            continue
        seen.add(column)
        record.columns.append(
            new_column(
                column, first_word(cell_text(row, mapping, "type")), cell_text(row, mapping, "description")
            )
        )
    return record, found
