"""Render a DocSet as windows-1251 HTML pages in the bank documentation format (docs/formats/bank-html.md)."""

from __future__ import annotations

import html
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from apiatlas.samples.spec import (
    ApiSpec,
    ColumnSpec,
    DocSet,
    DomainTypeSpec,
    ObjectSpec,
    ParamSpec,
    TableSpec,
)

ENCODING = "windows-1251"
EOL = "\r\n"

BO_DIR = "BObjects"
API_DIR = f"{BO_DIR}/Services"
TABLE_DIR = f"{API_DIR}/Tables"
TYPES_PAGE = "Types/DomainTypes.htm"


def object_page_path(obj: ObjectSpec) -> str:
    return f"{BO_DIR}/BO_{obj.name}.htm"


def api_page_path(api: ApiSpec) -> str:
    return f"{API_DIR}/{api.name}.htm"


def table_page_path(api: ApiSpec, table: TableSpec) -> str:
    return f"{TABLE_DIR}/T_{api.name}_{table.name}.htm"


class Markup:
    """The loose HTML habits of one page, chosen deterministically from the page's name.

    Analysts wrote pages by hand: some use upper-case tags, some never close cells, some put a
    colon after labels, and the parameter table headers vary. Every variant stays parseable by
    label text and section heading, as the format document requires.
    """

    def __init__(self, page_key: str) -> None:
        style = zlib.crc32(page_key.encode("utf-8"))
        self.upper = style % 5 == 0
        self.unclosed = (style >> 3) % 4 == 0
        self.colon = (style >> 5) % 7 == 0
        self.nbsp_label = (style >> 8) % 9 == 0
        self.bold_label = (style >> 11) % 6 == 0
        self.short_meta = (style >> 13) % 3 == 0
        self.bool_style = (style >> 15) % 10  # 0: +/-, 1: 1/0, else Да/Нет
        self.param_headers = (
            ("Параметр", "Имя")[(style >> 19) % 2],
            ("Тип", "Тип данных")[(style >> 20) % 2],
            ("Обязательный", "Обяз.")[(style >> 21) % 2],
            "Описание",
        )
        self.desc_before_required = (style >> 22) % 8 == 0
        self.type_header = ("Тип", "Тип данных")[(style >> 23) % 2]
        self.br = ("<br>", "<BR>", "<br/>")[(style >> 24) % 3]
        self.spaces = (style >> 26) % 5 == 0

    def tag(self, name: str) -> str:
        return name.upper() if self.upper else name

    def row(self, cells: list[str]) -> str:
        td, tr = self.tag("td"), self.tag("tr")
        if self.unclosed:
            return f"<{tr}>" + "".join(f"<{td}>{c}" for c in cells)
        return f"<{tr}>" + "".join(f"<{td}>{c}</{td}>" for c in cells) + f"</{tr}>"

    def label_row(self, label: str, value: str) -> str:
        if self.nbsp_label:
            label = label.replace(" ", "&nbsp;")
        elif self.spaces:
            label = "  " + label.replace(" ", "  ") + " "
        if self.colon:
            label += ":"
        if self.bold_label:
            b = self.tag("b")
            label = f"<{b}>{label}</{b}>"
        return self.row([label, value or "&nbsp;"])

    def header_row(self, headers: tuple[str, ...] | list[str]) -> str:
        b = self.tag("b")
        return self.row([f"<{b}>{h}</{b}>" for h in headers])

    def table_open(self) -> str:
        return f"<{self.tag('table')} width=1000 border=1>"

    def table_close(self) -> str:
        return f"</{self.tag('table')}>"

    def heading(self, text: str) -> str:
        p, b = self.tag("p"), self.tag("b")
        if self.colon:
            text += ":"
        return f"<{p}><{b}>{text}</{b}></{p}>"

    def flag(self, value: bool) -> str:
        if self.bool_style == 0:
            return "+" if value else "-"
        if self.bool_style == 1:
            return "1" if value else "0"
        return "Да" if value else "Нет"

    def text(self, value: str) -> str:
        """Escape text and turn line breaks into ``<br>``."""
        return self.br.join(html.escape(line, quote=False) for line in value.split("\n"))

    def head(self, title: str) -> list[str]:
        h = self.tag
        meta = (
            "<meta charset=windows-1251>"
            if self.short_meta
            else '<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">'
        )
        return [
            f"<{h('html')}><{h('head')}>{meta}",
            f"<{h('title')}>{title}</{h('title')}></{h('head')}><{h('body')}>",
        ]

    def foot(self) -> str:
        return f"</{self.tag('body')}></{self.tag('html')}>"


def _link(m: Markup, href: str, text: str) -> str:
    a = m.tag("a")
    return f'<{a} href="{href}">{text}</{a}>'


def render_object_page(obj: ObjectSpec, apis: list[ApiSpec]) -> str:
    m = Markup(obj.name)
    h2 = m.tag("h2")
    lines = m.head(f"Бизнес-объект {obj.name}")
    lines.append(f"<{h2}>Бизнес-объект {obj.name}</{h2}>")
    lines.append(m.table_open())
    lines.append(m.label_row("Сокращение", obj.key))
    lines.append(m.label_row("Наименование", obj.name))
    lines.append(m.label_row("Основное назначение", m.text(obj.title)))
    lines.append(m.label_row("Описание", m.text(obj.description)))
    lines.append(m.label_row("Виза ГА", obj.visa))
    lines.append(m.table_close())
    lines.append(m.heading("Методы"))
    lines.append(m.table_open())
    lines.append(m.header_row(("Имя", "Описание")))
    for api in apis:
        lines.append(m.row([_link(m, f"Services/{api.name}.htm", api.name), m.text(api.title)]))
    lines.append(m.table_close())
    lines.append(m.foot())
    return EOL.join(lines) + EOL


def _param_row(m: Markup, p: ParamSpec) -> str:
    cells = [f"@{p.name}", p.domain_type, m.flag(p.required), m.text(p.description) or "&nbsp;"]
    if m.desc_before_required:
        cells = [cells[0], cells[1], cells[3], cells[2]]
    return m.row(cells)


def _table_list(m: Markup, heading: str, tables: tuple[TableSpec, ...], api: ApiSpec) -> list[str]:
    lines = [m.heading(heading), m.table_open(), m.header_row(("Таблица", "Описание"))]
    for t in tables:
        lines.append(m.row([_link(m, f"Tables/T_{api.name}_{t.name}.htm", t.name), m.text(t.description)]))
    lines.append(m.table_close())
    return lines


def render_api_page(api: ApiSpec, obj: ObjectSpec) -> str:
    m = Markup(api.name)
    h2 = m.tag("h2")
    lines = m.head(api.name)
    lines.append(f"<{h2}>{api.name}</{h2}>")
    lines.append(m.table_open())
    lines.append(m.label_row("Название", api.name))
    lines.append(m.label_row("Бизнес-объект", _link(m, f"../BO_{obj.name}.htm", obj.key)))
    lines.append(m.label_row("Краткое описание", m.text(api.title)))
    lines.append(m.label_row("Подробное описание", m.text(api.description)))
    lines.append(m.label_row("Виза ГА", api.visa))
    lines.append(m.label_row("Реализовано", m.flag(api.implemented)))
    lines.append(m.label_row("Запрещено", m.flag(api.forbidden)))
    lines.append(m.table_close())
    if api.params:
        headers = list(m.param_headers)
        if m.desc_before_required:
            headers = [headers[0], headers[1], headers[3], headers[2]]
        lines += [m.heading("Входные параметры"), m.table_open(), m.header_row(headers)]
        lines += [_param_row(m, p) for p in api.params]
        lines.append(m.table_close())
    if api.input_tables:
        lines += _table_list(m, "Входные таблицы", api.input_tables, api)
    if api.output_tables:
        lines += _table_list(m, "Выходные таблицы", api.output_tables, api)
    if api.errors:
        lines += [m.heading("Коды ошибок"), m.table_open(), m.header_row(("Код", "Описание"))]
        lines += [m.row([str(e.code), m.text(e.description)]) for e in api.errors]
        lines.append(m.table_close())
    lines.append(m.foot())
    return EOL.join(lines) + EOL


def _column_row(m: Markup, c: ColumnSpec) -> str:
    return m.row([c.name, c.domain_type, m.text(c.description) or "&nbsp;"])


def render_table_page(api: ApiSpec, table: TableSpec) -> str:
    m = Markup(f"{api.name}/{table.name}")
    h2 = m.tag("h2")
    lines = m.head(table.name)
    lines.append(f"<{h2}>{table.name}</{h2}>")
    lines.append(m.table_open())
    lines.append(m.label_row("Таблица", table.name))
    lines.append(m.label_row("API", api.name))
    lines.append(m.label_row("Направление", "Входная" if table.direction == "in" else "Выходная"))
    lines.append(m.label_row("Описание", m.text(table.description)))
    lines.append(m.table_close())
    lines += [m.heading("Колонки"), m.table_open(), m.header_row(("Колонка", m.type_header, "Описание"))]
    lines += [_column_row(m, c) for c in table.columns]
    lines.append(m.table_close())
    lines.append(m.foot())
    return EOL.join(lines) + EOL


def render_domain_types(types: list[DomainTypeSpec]) -> str:
    m = Markup("DomainTypes")
    h2 = m.tag("h2")
    lines = m.head("Домены")
    lines.append(f"<{h2}>Домены</{h2}>")
    lines.append(m.table_open())
    lines.append(m.header_row(("Домен", "Базовый тип", "Описание")))
    lines += [m.row([t.name, t.base_type, m.text(t.meaning)]) for t in types]
    lines.append(m.table_close())
    lines.append(m.foot())
    return EOL.join(lines) + EOL


@dataclass(frozen=True)
class WriteStats:
    """How many pages of each kind a write produced."""

    objects: int
    apis: int
    tables: int
    type_pages: int

    @property
    def files(self) -> int:
        return self.objects + self.apis + self.tables + self.type_pages


def iter_pages(doc: DocSet) -> Iterator[tuple[str, str]]:
    """Yield ``(relative path, page text)`` for every page of the set, in a stable order."""
    if doc.types:
        yield TYPES_PAGE, render_domain_types(doc.types)
    by_object: dict[str, list[ApiSpec]] = {o.key: [] for o in doc.objects}
    for api in doc.apis:
        by_object[api.object_key].append(api)
    for obj in doc.objects:
        yield object_page_path(obj), render_object_page(obj, by_object[obj.key])
        for api in by_object[obj.key]:
            yield api_page_path(api), render_api_page(api, obj)
            for table in api.input_tables + api.output_tables:
                yield table_page_path(api, table), render_table_page(api, table)


def page_count(doc: DocSet) -> int:
    return (1 if doc.types else 0) + len(doc.objects) + len(doc.apis) + doc.table_count()


def write_doc_set(doc: DocSet, out: Path, advance: Callable[[int], None] | None = None) -> WriteStats:
    """Write every page of ``doc`` under ``out`` as windows-1251 bytes; ``advance(n)`` reports progress."""
    for sub in (BO_DIR, API_DIR, TABLE_DIR, "Types"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    done = 0
    for rel, text in iter_pages(doc):
        (out / rel).write_bytes(text.encode(ENCODING))
        done += 1
        if advance is not None and done % 500 == 0:
            advance(500)
    if advance is not None:
        advance(done % 500)
    return WriteStats(
        objects=len(doc.objects),
        apis=len(doc.apis),
        tables=doc.table_count(),
        type_pages=1 if doc.types else 0,
    )
