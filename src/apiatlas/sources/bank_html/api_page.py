"""Read an API page (``BObjects/Services/API_*.htm``) into an ApiPage record."""

from __future__ import annotations

import posixpath

from apiatlas.catalog.model import Direction, ErrorCode, Param
from apiatlas.errors import Diagnostic, ReasonCode, Severity
from apiatlas.sources.bank_html.labels import (
    Section,
    attribute,
    attribute_text,
    attributes,
    body_rows,
    cell_text,
    first_word,
    link_stem,
    parse_flag,
    resolve_link,
    section_tables,
    sections_without_table,
)
from apiatlas.sources.bank_html.markup import Cell, HtmlPage, HtmlTable
from apiatlas.sources.bank_html.records import ApiPage, TableLink, finding, new_error_code, new_param

PARAMS = Section("Входные параметры", ("входные параметры", "параметры"))
IN_TABLES = Section("Входные таблицы", ("входные таблицы",))
OUT_TABLES = Section("Выходные таблицы", ("выходные таблицы",))
ERRORS = Section("Коды ошибок", ("коды ошибок", "ошибки"))
SECTIONS = (PARAMS, IN_TABLES, OUT_TABLES, ERRORS)

_PARAM_COLUMNS = {
    "name": ("параметр", "имя", "название", "name"),
    "type": ("тип", "type"),
    "required": ("обяз", "required"),
    "description": ("описание", "комментарий", "description"),
    "default": ("по умолч", "default"),
    "example": ("пример", "example"),
}
_TABLE_COLUMNS = {"name": ("таблица", "имя", "название"), "description": ("описание",)}
_ERROR_COLUMNS = {"code": ("код",), "description": ("описание", "текст", "сообщение")}


def parse_api_page(file: str, page: HtmlPage) -> tuple[ApiPage | None, list[Diagnostic]]:
    """Name, object, descriptions, flags, parameters, table links and error codes of one API."""
    found: list[Diagnostic] = []
    if not page.tables:
        found.append(
            finding(Severity.ERROR, ReasonCode.MALFORMED_PAGE, "no table on the page; skipped", file)
        )
        return None, found
    known, rest = section_tables(page, SECTIONS)
    attrs = attributes(rest)
    key = first_word(attribute_text(attrs, "название", "наименование", "имя api"))
    if not key:
        stem = posixpath.basename(file).rsplit(".", 1)[0]
        if not stem.startswith("API_"):
            found.append(
                finding(Severity.ERROR, ReasonCode.MALFORMED_PAGE, "no 'Название' row; page skipped", file)
            )
            return None, found
        key = stem
        found.append(
            finding(
                Severity.WARNING,
                ReasonCode.MALFORMED_PAGE,
                "no 'Название' row; the API key is taken from the file name",
                file,
                key,
            )
        )
    record = ApiPage(
        file=file,
        key=key,
        title=attribute_text(attrs, "краткое описание"),
        description=attribute_text(attrs, "подробное описание", "описание"),
    )
    owner = attribute(attrs, "бизнес-объект", "бизнес объект", "объект")
    if owner is not None:
        record.object_ref = first_word(owner.text) or link_stem(owner.href)
        record.object_target = resolve_link(file, owner.href)
    visa = attribute(attrs, "виза га", "виза")
    record.visa = visa.text if visa is not None else None
    record.implemented = _flag(attrs, ("реализовано", "реализован"), file, key, found)
    record.forbidden = _flag(attrs, ("запрещено", "запрещен"), file, key, found)
    for missing in sections_without_table(page, SECTIONS, known):
        found.append(
            finding(
                Severity.WARNING, ReasonCode.MISSING_SECTION, f"section '{missing}' has no table", file, key
            )
        )
    if PARAMS.name in known:
        record.params = _params(known[PARAMS.name], file, key, found)
    for section, direction in ((IN_TABLES, Direction.IN), (OUT_TABLES, Direction.OUT)):
        if section.name in known:
            record.tables.extend(_table_links(known[section.name], direction, file, key, found))
    if ERRORS.name in known:
        record.errors = _errors(known[ERRORS.name], file, key, found)
    return record, found


def _flag(
    attrs: dict[str, Cell], labels: tuple[str, ...], file: str, key: str, found: list[Diagnostic]
) -> bool | None:
    cell = attribute(attrs, *labels)
    if cell is None:
        return None
    value, understood = parse_flag(cell.text)
    if not understood:
        found.append(
            finding(
                Severity.WARNING,
                ReasonCode.MALFORMED_PAGE,
                f"'{labels[0]}' is '{cell.text}', not Да/Нет; treated as unknown",
                file,
                key,
            )
        )
    return value


def _headerless(section: Section, order: tuple[str, ...], file: str, key: str) -> Diagnostic:
    return finding(
        Severity.WARNING,
        ReasonCode.MALFORMED_PAGE,
        f"table '{section.name}' has no recognised header row; columns assumed to be {', '.join(order)}",
        file,
        f"{key}#{section.name}",
    )


def _params(table: HtmlTable, file: str, key: str, found: list[Diagnostic]) -> list[Param]:
    order = ("name", "type", "required", "description")
    mapping, rows, has_header = body_rows(table, _PARAM_COLUMNS, order)
    if not has_header:
        found.append(_headerless(PARAMS, order, file, key))
    params: list[Param] = []
    seen: set[str] = set()
    for row in rows:
        name = first_word(cell_text(row, mapping, "name")).lstrip("@")
        if not name:
            continue
        if name in seen:
            found.append(
                finding(
                    Severity.WARNING,
                    ReasonCode.DUPLICATE_KEY,
                    f"parameter @{name} is listed twice; the first row is kept",
                    file,
                    key,
                )
            )
            continue
        seen.add(name)
        required, understood = parse_flag(cell_text(row, mapping, "required"))
        if not understood:
            found.append(
                finding(
                    Severity.WARNING,
                    ReasonCode.MALFORMED_PAGE,
                    f"'Обязательный' of @{name} is '{cell_text(row, mapping, 'required')}'; optional",
                    file,
                    key,
                )
            )
        params.append(
            new_param(
                name,
                cell_text(row, mapping, "type"),
                bool(required),
                cell_text(row, mapping, "description"),
                cell_text(row, mapping, "default") or None,
                cell_text(row, mapping, "example") or None,
            )
        )
    return params


def _table_links(
    table: HtmlTable, direction: Direction, file: str, key: str, found: list[Diagnostic]
) -> list[TableLink]:
    section = IN_TABLES if direction is Direction.IN else OUT_TABLES
    order = ("name", "description")
    mapping, rows, has_header = body_rows(table, _TABLE_COLUMNS, order)
    if not has_header:
        found.append(_headerless(section, order, file, key))
    links: list[TableLink] = []
    index = mapping.get("name", 0)
    for number, row in enumerate(rows, start=1 if has_header else 0):  # numbered as in ``table.rows``
        text, href = (row[index], table.href(number, index)) if index < len(row) else ("", None)
        name = first_word(text) or link_stem(href)
        if not name:
            continue
        links.append(
            TableLink(
                name=name,
                direction=direction,
                description=cell_text(row, mapping, "description"),
                target=resolve_link(file, href),
            )
        )
    return links


def _errors(table: HtmlTable, file: str, key: str, found: list[Diagnostic]) -> list[ErrorCode]:
    order = ("code", "description")
    mapping, rows, has_header = body_rows(table, _ERROR_COLUMNS, order)
    if not has_header:
        found.append(_headerless(ERRORS, order, file, key))
    return [
        new_error_code(code, cell_text(row, mapping, "description"))
        for row in rows
        if (code := cell_text(row, mapping, "code"))
    ]
