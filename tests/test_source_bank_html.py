"""Bank HTML source: every page kind, loose markup, malformed pages, cross-references, determinism."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import pytest

from apiatlas.catalog.model import Catalog, Direction, SideEffect
from apiatlas.errors import Diagnostic, ReasonCode, Severity
from apiatlas.sources.bank_html import load_bank_docs
from apiatlas.sources.bank_html.markup import HtmlPage
from apiatlas.sources.bank_html.pages import PARSERS, PageKind, parse_page
from apiatlas.sources.bank_html.records import ApiPage, ObjectPage, TablePage
from apiatlas.sources.bank_html.side_effects import side_effect_of

META = '<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">'
SERVICES = "BObjects/Services"
TABLES = "BObjects/Services/Tables"


# --- page builders (the markup of docs/formats/bank-html.md) ------------------------------------


def html(title: str, body: str) -> str:
    return f"<html><head>{META}<title>{title}</title></head><body>\n<h2>{title}</h2>\n{body}\n</body></html>"


def attr_table(rows: list[tuple[str, str]]) -> str:
    cells = "".join(f"<tr><td>{label}</td><td>{value}</td></tr>\n" for label, value in rows)
    return f"<table width=1000 border=1>\n{cells}</table>\n"


def section(heading: str, header: list[str], rows: list[list[str]]) -> str:
    head = "<tr>" + "".join(f"<td><b>{h}</b></td>" for h in header) + "</tr>\n"
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>\n" for row in rows)
    return f"<p><b>{heading}</b></p>\n<table width=1000 border=1>\n{head}{body}</table>\n"


def bo_page(abbr: str, name: str, methods: list[str], visa: str = "Ok") -> str:
    rows = [[f'<a href="Services/{m}.htm">{m}</a>', f"Метод {m}"] for m in methods]
    return html(
        f"Бизнес-объект {name}",
        attr_table(
            [
                ("Сокращение", abbr),
                ("Наименование", name),
                ("Основное назначение", f"Объект {name}"),
                ("Описание", f"Бизнес-объект для работы: {name}"),
                ("Виза ГА", visa),
            ]
        )
        + section("Методы", ["Имя", "Описание"], rows),
    )


def api_page(
    key: str,
    obj: tuple[str, str],
    params: list[list[str]] | None = None,
    tables_in: list[str] | None = None,
    tables_out: list[str] | None = None,
    errors: list[list[str]] | None = None,
    flags: tuple[str, str, str] = ("Ok", "Да", "Нет"),
) -> str:
    abbr, bo_name = obj
    body = attr_table(
        [
            ("Название", key),
            ("Бизнес-объект", f'<a href="../BO_{bo_name}.htm">{abbr}</a>'),
            ("Краткое описание", f"Кратко о {key}"),
            ("Подробное описание", "Метод делает дело.<br><br>Сценарии использования:<br>1. первый"),
            ("Виза ГА", flags[0]),
            ("Реализовано", flags[1]),
            ("Запрещено", flags[2]),
        ]
    )
    if params:
        body += section("Входные параметры", ["Параметр", "Тип", "Обязательный", "Описание"], params)
    for heading, names in (("Входные таблицы", tables_in), ("Выходные таблицы", tables_out)):
        if names:
            rows = [[f'<a href="Tables/T_{key}_{n}.htm">{n}</a>', f"Таблица {n}"] for n in names]
            body += section(heading, ["Таблица", "Описание"], rows)
    if errors:
        body += section("Коды ошибок", ["Код", "Описание"], errors)
    return html(key, body)


def table_page(api: str, name: str, direction: str, columns: list[list[str]]) -> str:
    return html(
        name,
        attr_table(
            [("Таблица", name), ("API", api), ("Направление", direction), ("Описание", f"Таблица {name}")]
        )
        + section("Колонки", ["Колонка", "Тип", "Описание"], columns),
    )


TYPES_PAGE = html(
    "Домены",
    section(
        "Домены",
        ["Домен", "Базовый тип", "Описание"],
        [
            ["DSIDENTIFIER", "numeric(15,0)", "Идентификатор сущности"],
            ["DSVARFULLNAME", "varchar(255)", "ФИО"],
        ],
    ),
)


def write(root: Path, rel: str, text: str, encoding: str = "cp1251") -> bytes:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode(encoding)
    path.write_bytes(data)
    return data


def sample_pages() -> dict[str, str]:
    """A small consistent documentation set: 3 objects, 4 APIs, their tables, the types page."""
    fio, owners, deals = (
        "API_Prs_FindListByFIO",
        "API_Acc_FindListByListOwnerID",
        "API_DealSecurity_FindListByID",
    )
    return {
        "BObjects/BO_Person.htm": bo_page("Prs", "Person", [fio]),
        "BObjects/BO_Account.htm": bo_page("Acc", "Account", [owners, "API_Acc_DelByID"], visa="Не Ok"),
        "BObjects/BO_DealSecurity.htm": bo_page("DSec", "DealSecurity", [deals]),
        f"{SERVICES}/{fio}.htm": api_page(
            fio,
            ("Prs", "Person"),
            params=[
                ["@SurName", "DSVARFULLNAME", "Да", "Фамилия"],
                ["@FirstName", "DSVARNAME", "Нет", "Имя"],
            ],
            tables_out=["pAPI_Person_FindList"],
            errors=[["50001", "Не задана фамилия"]],
        ),
        f"{TABLES}/T_{fio}_pAPI_Person_FindList.htm": table_page(
            fio,
            "pAPI_Person_FindList",
            "Выходная",
            [["PersonID", "DSIDENTIFIER", "ID лица"], ["SurName", "DSVARFULLNAME", "Фамилия"]],
        ),
        f"{SERVICES}/{owners}.htm": api_page(
            owners,
            ("Acc", "Account"),
            params=[["@OnlyOpenFlag", "DSTINYINT", "Нет", "1 — только открытые"]],
            tables_in=["pAPI_Account_OwnerID"],
            tables_out=["pAPI_Account_List"],
        ),
        f"{TABLES}/T_{owners}_pAPI_Account_OwnerID.htm": table_page(
            owners,
            "pAPI_Account_OwnerID",
            "Входная",
            [
                [
                    "OwnerID",
                    "DSIDENTIFIER",
                    "ID владельца (из API_Prs_FindListByFIO.pAPI_Person_FindList.PersonID)",
                ]
            ],
        ),
        f"{TABLES}/T_{owners}_pAPI_Account_List.htm": table_page(
            owners, "pAPI_Account_List", "Выходная", [["AccountID", "DSIDENTIFIER", "ID счёта"]]
        ),
        f"{SERVICES}/API_Acc_DelByID.htm": api_page(
            "API_Acc_DelByID",
            ("Acc", "Account"),
            params=[
                ["@AccountID", "DSIDENTIFIER", "Да", "Счёт (из API_Acc_FindListByListOwnerID.AccountID)"]
            ],
            flags=("На доработке", "", "Да"),
        ),
        f"{SERVICES}/{deals}.htm": api_page(
            deals, ("DSec", "DealSecurity"), params=[["@DealID", "DSIDENTIFIER", "Да", "Сделка"]]
        ),
        "Types/DomainTypes.htm": TYPES_PAGE,
    }


def build_docs(
    root: Path, pages: dict[str, str] | None = None, order_seed: int | None = None
) -> dict[str, bytes]:
    items = list((pages or sample_pages()).items())
    if order_seed is not None:
        random.Random(order_seed).shuffle(items)
    return {rel: write(root, rel, text) for rel, text in items}


def codes_at(catalog: Catalog, code: ReasonCode) -> list[Diagnostic]:
    return [d for d in catalog.diagnostics if d.code is code]


# --- a clean documentation set ------------------------------------------------------------------


def test_clean_docs_give_the_full_catalog_and_no_diagnostics(tmp_path: Path) -> None:
    written = build_docs(tmp_path)
    catalog = load_bank_docs(tmp_path)

    assert catalog.diagnostics == []
    assert catalog.source_kind == "bank_html"
    assert catalog.source_files == {rel: hashlib.sha256(data).hexdigest() for rel, data in written.items()}
    assert list(catalog.objects) == ["Acc", "DSec", "Prs"]
    assert catalog.objects["DSec"].api_keys == ["API_DealSecurity_FindListByID"]
    assert catalog.objects["Acc"].api_keys == ["API_Acc_FindListByListOwnerID", "API_Acc_DelByID"]
    assert catalog.objects["Acc"].approved is False
    assert catalog.objects["Prs"].approved is True
    assert catalog.objects["Prs"].title == "Объект Person"
    assert catalog.objects["Prs"].source is not None
    assert catalog.objects["Prs"].source.file == "BObjects/BO_Person.htm"

    fio = catalog.apis["API_Prs_FindListByFIO"]
    assert fio.object_key == "Prs"
    assert fio.title == "Кратко о API_Prs_FindListByFIO"
    assert fio.description == "Метод делает дело.\n\nСценарии использования:\n1. первый"
    assert [(p.name, p.domain_type, p.required) for p in fio.params] == [
        ("SurName", "DSVARFULLNAME", True),
        ("FirstName", "DSVARNAME", False),
    ]
    assert [t.name for t in fio.output_tables] == ["pAPI_Person_FindList"]
    assert fio.output_tables[0].direction is Direction.OUT
    assert [c.name for c in fio.output_tables[0].columns] == ["PersonID", "SurName"]
    assert fio.output_tables[0].source is not None
    assert fio.output_tables[0].source.file == f"{TABLES}/T_API_Prs_FindListByFIO_pAPI_Person_FindList.htm"
    assert [(e.code, e.description) for e in fio.errors] == [("50001", "Не задана фамилия")]
    assert (fio.approved, fio.implemented, fio.forbidden) == (True, True, False)
    assert fio.side_effect is SideEffect.READ
    assert fio.executor.kind == "sql_procedure"
    assert fio.executor.target == 'api."API_Prs_FindListByFIO"'
    assert fio.source is not None
    assert (fio.source.file, fio.source.anchor) == (f"{SERVICES}/API_Prs_FindListByFIO.htm", fio.key)

    deals = catalog.apis["API_DealSecurity_FindListByID"]
    assert deals.object_key == "DSec"  # membership from the page, not the name prefix

    delete = catalog.apis["API_Acc_DelByID"]
    assert delete.side_effect is SideEffect.DESTRUCTIVE
    assert (delete.approved, delete.implemented, delete.forbidden) == (False, None, True)
    assert delete.extra["visa"] == "На доработке"
    assert [
        (s.field, s.producer_api, s.producer_table, s.producer_field) for s in delete.declared_sources
    ] == [("AccountID", "API_Acc_FindListByListOwnerID", None, "AccountID")]

    owners = catalog.apis["API_Acc_FindListByListOwnerID"]
    assert [t.name for t in owners.input_tables] == ["pAPI_Account_OwnerID"]
    assert owners.input_tables[0].direction is Direction.IN
    assert [
        (s.field, s.producer_api, s.producer_table, s.producer_field) for s in owners.declared_sources
    ] == [("OwnerID", "API_Prs_FindListByFIO", "pAPI_Person_FindList", "PersonID")]

    assert catalog.types["DSIDENTIFIER"].base_type == "numeric(15,0)"
    assert catalog.types["DSIDENTIFIER"].meaning == "Идентификатор сущности"
    assert catalog.types["DSVARFULLNAME"].source is not None
    assert catalog.types["DSVARFULLNAME"].source.file == "Types/DomainTypes.htm"


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("API_Prs_FindListByFIO", SideEffect.READ),
        ("API_Acc_GetRest", SideEffect.READ),
        ("API_Acc_CheckState", SideEffect.READ),
        ("API_Doc_BrowsList", SideEffect.READ),
        ("API_Doc_SearchByText", SideEffect.READ),
        ("API_Doc_ListAll", SideEffect.READ),
        ("API_Acc_DelByID", SideEffect.DESTRUCTIVE),
        ("API_Acc_DeleteByID", SideEffect.DESTRUCTIVE),
        ("API_Acc_RemoveLink", SideEffect.DESTRUCTIVE),
        ("API_Acc_PurgeOld", SideEffect.DESTRUCTIVE),
        ("API_Acc_Create", SideEffect.WRITE),
        ("API_Acc_UpdRest", SideEffect.WRITE),
        ("API_Doc_DeliverNotice", SideEffect.WRITE),
    ],
)
def test_side_effect_comes_from_the_verb(key: str, expected: SideEffect) -> None:
    assert side_effect_of(key) is expected


# --- loose markup -------------------------------------------------------------------------------


LOOSE_API = f"""<HTML><HEAD>{META}</HEAD><BODY>
<H2>API_Acc_GetRest</H2>
<TABLE WIDTH=1000 BORDER=1>
<TR><TD> Название: <TD>API_Acc_GetRest
<TR><TD>бизнес-объект<TD><A HREF="../BO_Account.htm">Acc</A>
<TR><TD>Краткое&nbsp;описание</TD><TD>Остаток&nbsp;по   счёту</TD>
<TR><TD>ВИЗА  ГА<TD>ok
</TABLE>
Входные параметры:<BR>
<TABLE BORDER=1>
<TR><TH>Имя<TH>Тип данных<TH>Обяз.<TH>Описание
<TR><TD>@AccountID<TD>DSIDENTIFIER<TD>+<TD>Счёт<br>клиента
<TR><TD>@RestDate<TD>DSDATE<TD><TD>Дата
</TABLE>
<P><B>Выходные таблицы</B>
<TABLE>
<TR><TD>Таблица<TD>Описание
<TR><TD><A HREF="Tables/T_API_Acc_GetRest_pAPI_Account_Rest.htm">pAPI_Account_Rest</A><TD>Остаток
</TABLE>
</BODY></HTML>"""


def test_loose_markup_is_read_by_labels_and_headings() -> None:
    parsed = parse_page(PageKind.API, f"{SERVICES}/API_Acc_GetRest.htm", LOOSE_API.encode("cp1251"))

    assert parsed.diagnostics == []
    page = parsed.page
    assert isinstance(page, ApiPage)
    assert page.key == "API_Acc_GetRest"
    assert (page.object_ref, page.object_target) == ("Acc", "BObjects/BO_Account.htm")
    assert page.title == "Остаток по счёту"
    assert page.visa == "ok"
    assert [(p.name, p.domain_type, p.required, p.description) for p in page.params] == [
        ("AccountID", "DSIDENTIFIER", True, "Счёт\nклиента"),
        ("RestDate", "DSDATE", False, "Дата"),
    ]
    assert [(t.name, t.direction, t.target) for t in page.tables] == [
        ("pAPI_Account_Rest", Direction.OUT, f"{TABLES}/T_API_Acc_GetRest_pAPI_Account_Rest.htm")
    ]


def test_table_and_object_pages_parse_on_their_own() -> None:
    table = parse_page(
        PageKind.TABLE,
        f"{TABLES}/T_X_pAPI_T.htm",
        table_page("API_X_Get", "pAPI_T", "Входная", [["ID", "DSIDENTIFIER", "Ключ"]]).encode("cp1251"),
    )
    assert isinstance(table.page, TablePage)
    assert (table.page.name, table.page.api, table.page.direction) == ("pAPI_T", "API_X_Get", Direction.IN)
    assert [(c.name, c.domain_type, c.description) for c in table.page.columns] == [
        ("ID", "DSIDENTIFIER", "Ключ")
    ]

    bo = parse_page(
        PageKind.OBJECT, "BObjects/BO_X.htm", bo_page("X", "Xobj", ["API_X_Get"]).encode("cp1251")
    )
    assert isinstance(bo.page, ObjectPage)
    assert (bo.page.key, bo.page.name, bo.page.visa, bo.page.methods) == ("X", "Xobj", "Ok", ["API_X_Get"])


# --- malformed pages: each a located diagnostic, the rest still loads ----------------------------


def test_page_without_a_main_table_is_skipped_with_a_located_error(tmp_path: Path) -> None:
    pages = sample_pages()
    pages["BObjects/BO_Broken.htm"] = html("Бизнес-объект Broken", "<p>Страница в разработке</p>")
    build_docs(tmp_path, pages)
    catalog = load_bank_docs(tmp_path)

    [error] = codes_at(catalog, ReasonCode.MALFORMED_PAGE)
    assert error.severity is Severity.ERROR
    assert error.location.file == "BObjects/BO_Broken.htm"
    assert "no table" in error.message
    assert len(catalog.apis) == 4
    assert "BObjects/BO_Broken.htm" in catalog.source_files


def test_utf8_page_is_detected_decoded_and_reported(tmp_path: Path) -> None:
    pages = sample_pages()
    rel = f"{SERVICES}/API_DealSecurity_FindListByID.htm"
    build_docs(tmp_path, pages)
    write(tmp_path, rel, pages[rel].replace("windows-1251", "utf-8"), encoding="utf-8")
    catalog = load_bank_docs(tmp_path)

    [warning] = catalog.diagnostics
    assert (warning.code, warning.severity, warning.location.file) == (
        ReasonCode.ENCODING_MISMATCH,
        Severity.WARNING,
        rel,
    )
    assert "utf-8" in warning.message
    api = catalog.apis["API_DealSecurity_FindListByID"]
    assert api.title == "Кратко о API_DealSecurity_FindListByID"
    assert api.params[0].description == "Сделка"


def test_undecodable_page_is_skipped_with_an_error(tmp_path: Path) -> None:
    build_docs(tmp_path)
    (tmp_path / f"{SERVICES}/API_Junk_Get.htm").write_bytes(bytes(range(256)) * 4)
    catalog = load_bank_docs(tmp_path)

    [error] = codes_at(catalog, ReasonCode.UNDECODABLE_FILE)
    assert (error.severity, error.location.file) == (Severity.ERROR, f"{SERVICES}/API_Junk_Get.htm")
    assert "API_Junk_Get" not in catalog.apis
    assert len(catalog.apis) == 4


def test_truncated_page_is_reported_and_read_as_far_as_it_goes(tmp_path: Path) -> None:
    pages = sample_pages()
    rel = f"{SERVICES}/API_Prs_FindListByFIO.htm"
    full = pages[rel]
    pages[rel] = full[: full.index("<td>@FirstName")]  # cut inside the parameter table
    build_docs(tmp_path, pages)
    catalog = load_bank_docs(tmp_path)

    truncated = [d for d in codes_at(catalog, ReasonCode.MALFORMED_PAGE) if d.location.file == rel]
    assert len(truncated) == 1 and "truncated" in truncated[0].message
    api = catalog.apis["API_Prs_FindListByFIO"]
    assert [p.name for p in api.params] == ["SurName"]
    assert api.output_tables == []
    # its table page is now linked from nowhere
    [orphan] = codes_at(catalog, ReasonCode.DANGLING_REFERENCE)
    assert orphan.location.file == f"{TABLES}/T_API_Prs_FindListByFIO_pAPI_Person_FindList.htm"


def test_missing_names(tmp_path: Path) -> None:
    pages = sample_pages()
    deals = f"{SERVICES}/API_DealSecurity_FindListByID.htm"
    pages[deals] = pages[deals].replace("<td>Название</td>", "<td>Примечание</td>")
    pages["BObjects/BO_Person.htm"] = pages["BObjects/BO_Person.htm"].replace("Сокращение", "Прочее")
    build_docs(tmp_path, pages)
    catalog = load_bank_docs(tmp_path)

    by_file = {d.location.file: d for d in catalog.diagnostics if d.code is ReasonCode.MALFORMED_PAGE}
    assert by_file[deals].severity is Severity.WARNING
    assert "file name" in by_file[deals].message
    assert "API_DealSecurity_FindListByID" in catalog.apis  # key taken from the file name
    assert by_file["BObjects/BO_Person.htm"].severity is Severity.ERROR
    assert "Сокращение" in by_file["BObjects/BO_Person.htm"].message
    assert "Prs" not in catalog.objects
    # the API page still names Prs, whose page was skipped: a dangling reference, located at the API
    [dangling] = codes_at(catalog, ReasonCode.DANGLING_REFERENCE)
    assert (dangling.location.file, dangling.location.anchor) == (
        f"{SERVICES}/API_Prs_FindListByFIO.htm",
        "API_Prs_FindListByFIO",
    )
    assert catalog.apis["API_Prs_FindListByFIO"].object_key == ""


def test_duplicate_api_key_keeps_the_first_file(tmp_path: Path) -> None:
    pages = sample_pages()
    pages[f"{SERVICES}/API_Prs_FindListByFIO_copy.htm"] = api_page(
        "API_Prs_FindListByFIO", ("Prs", "Person"), params=[["@Other", "DSVARNAME", "Нет", "Копия"]]
    )
    build_docs(tmp_path, pages)
    catalog = load_bank_docs(tmp_path)

    [duplicate] = codes_at(catalog, ReasonCode.DUPLICATE_KEY)
    assert duplicate.severity is Severity.ERROR
    assert duplicate.location.file == f"{SERVICES}/API_Prs_FindListByFIO_copy.htm"
    assert f"{SERVICES}/API_Prs_FindListByFIO.htm" in duplicate.message
    assert [p.name for p in catalog.apis["API_Prs_FindListByFIO"].params] == ["SurName", "FirstName"]


def test_dangling_references_in_every_direction_are_reported(tmp_path: Path) -> None:
    pages = sample_pages()
    pages["BObjects/BO_Person.htm"] = bo_page("Prs", "Person", ["API_Prs_FindListByFIO", "API_Prs_Ghost"])
    del pages[f"{TABLES}/T_API_Acc_FindListByListOwnerID_pAPI_Account_List.htm"]
    pages[f"{TABLES}/T_API_Old_pAPI_Old.htm"] = table_page(
        "API_Old", "pAPI_Old", "Выходная", [["X", "DSCODE", ""]]
    )
    pages[f"{SERVICES}/API_Card_FindList.htm"] = api_page(
        "API_Card_FindList",
        ("Card", "Card"),
        params=[["@AccID", "DSIDENTIFIER", "Да", "(из API_Acc_Gone.AccID)"]],
    )
    build_docs(tmp_path, pages)
    catalog = load_bank_docs(tmp_path)

    dangling = {
        (d.location.file, d.location.anchor): d.message
        for d in codes_at(catalog, ReasonCode.DANGLING_REFERENCE)
    }
    assert "API_Prs_Ghost" in dangling[("BObjects/BO_Person.htm", "Prs")]
    assert (
        "pAPI_Account_List"
        in dangling[
            (
                f"{SERVICES}/API_Acc_FindListByListOwnerID.htm",
                "API_Acc_FindListByListOwnerID#pAPI_Account_List",
            )
        ]
    )
    assert "linked from no API page" in dangling[(f"{TABLES}/T_API_Old_pAPI_Old.htm", "pAPI_Old")]
    card = sorted(
        d.message
        for d in codes_at(catalog, ReasonCode.DANGLING_REFERENCE)
        if d.location.anchor == "API_Card_FindList"
    )
    assert len(card) == 2
    assert "'Бизнес-объект' names Card" in card[0] and "API_Acc_Gone" in card[1]
    [incomplete] = codes_at(catalog, ReasonCode.INCOMPLETE_CONTRACT)  # and the API cannot work
    assert incomplete.severity is Severity.ERROR
    assert len(catalog.diagnostics) == 6
    # the dangling table stays on the API, without columns, and the API is not callable
    owners = catalog.apis["API_Acc_FindListByListOwnerID"]
    assert [(t.name, t.columns) for t in owners.output_tables] == [("pAPI_Account_List", [])]
    assert owners.incomplete_contract and "pAPI_Account_List" in owners.incomplete_contract
    assert catalog.apis["API_Card_FindList"].object_key == ""


def test_object_comes_from_the_bo_page_list_when_the_api_page_names_none(tmp_path: Path) -> None:
    pages = sample_pages()
    rel = f"{SERVICES}/API_DealSecurity_FindListByID.htm"
    pages[rel] = pages[rel].replace("<td>Бизнес-объект</td>", "<td>Заметка</td>")
    build_docs(tmp_path, pages)
    catalog = load_bank_docs(tmp_path)

    assert catalog.diagnostics == []
    assert catalog.apis["API_DealSecurity_FindListByID"].object_key == "DSec"


def test_heading_without_table_is_a_missing_section(tmp_path: Path) -> None:
    pages = sample_pages()
    rel = f"{SERVICES}/API_Acc_DelByID.htm"
    pages[rel] = pages[rel].replace("</body>", "<p><b>Коды ошибок</b></p><p>нет</p></body>")
    build_docs(tmp_path, pages)
    catalog = load_bank_docs(tmp_path)

    [missing] = codes_at(catalog, ReasonCode.MISSING_SECTION)
    assert (missing.severity, missing.location.file, missing.location.anchor) == (
        Severity.WARNING,
        rel,
        "API_Acc_DelByID",
    )
    assert "Коды ошибок" in missing.message


def test_table_page_disagreeing_with_the_api_page_is_a_warning_and_the_api_page_wins(tmp_path: Path) -> None:
    pages = sample_pages()
    rel = f"{TABLES}/T_API_Acc_FindListByListOwnerID_pAPI_Account_OwnerID.htm"
    pages[rel] = pages[rel].replace("Входная", "Выходная")
    build_docs(tmp_path, pages)
    catalog = load_bank_docs(tmp_path)

    [warning] = catalog.diagnostics
    assert (warning.code, warning.location.file) == (ReasonCode.MALFORMED_PAGE, rel)
    assert "direction" in warning.message
    assert catalog.apis["API_Acc_FindListByListOwnerID"].input_tables[0].direction is Direction.IN


# --- determinism and progress -------------------------------------------------------------------


def test_result_does_not_depend_on_file_order_or_workers(tmp_path: Path) -> None:
    pages = sample_pages()
    pages[f"{SERVICES}/API_Prs_FindListByFIO_copy.htm"] = api_page("API_Prs_FindListByFIO", ("Prs", "Person"))
    pages[f"{TABLES}/T_API_Old_pAPI_Old.htm"] = table_page("API_Old", "pAPI_Old", "Выходная", [])
    build_docs(tmp_path / "a", pages, order_seed=1)
    build_docs(tmp_path / "b", pages, order_seed=2)

    first = load_bank_docs(tmp_path / "a").model_dump_json()
    assert load_bank_docs(tmp_path / "b").model_dump_json() == first
    assert load_bank_docs(tmp_path / "b", workers=2).model_dump_json() == first


def test_progress_reports_every_page(tmp_path: Path) -> None:
    written = build_docs(tmp_path)
    calls: list[tuple[int, int]] = []
    load_bank_docs(tmp_path, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(n, len(written)) for n in range(1, len(written) + 1)]


def test_headerless_parameter_table_and_odd_flags_are_warnings(tmp_path: Path) -> None:
    pages = sample_pages()
    rel = f"{SERVICES}/API_DealSecurity_FindListByID.htm"
    pages[rel] = (
        pages[rel]
        .replace(
            "<tr><td><b>Параметр</b></td><td><b>Тип</b></td><td><b>Обязательный</b></td><td><b>Описание</b></td></tr>",
            "",
        )
        .replace("<td>Реализовано</td><td>Да</td>", "<td>Реализовано</td><td>Частично</td>")
    )
    build_docs(tmp_path, pages)
    catalog = load_bank_docs(tmp_path)

    messages = sorted(d.message for d in catalog.diagnostics if d.location.file == rel)
    assert len(messages) == 2 and len(catalog.diagnostics) == 2
    assert "Частично" in messages[0] and "no recognised header row" in messages[1]
    api = catalog.apis["API_DealSecurity_FindListByID"]
    assert [(p.name, p.required) for p in api.params] == [("DealID", True)]  # assumed column order
    assert api.implemented is None


def test_a_parser_crash_is_contained_to_its_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def explode(file: str, page: HtmlPage) -> tuple[None, list[Diagnostic]]:
        raise ValueError("boom")

    monkeypatch.setitem(PARSERS, PageKind.TYPES, explode)
    build_docs(tmp_path)
    catalog = load_bank_docs(tmp_path, workers=1)

    [error] = catalog.diagnostics
    assert (error.code, error.severity, error.location.file) == (
        ReasonCode.MALFORMED_PAGE,
        Severity.ERROR,
        "Types/DomainTypes.htm",
    )
    assert "ValueError: boom" in error.message
    assert catalog.types == {} and len(catalog.apis) == 4


WORD_STYLE_API = f"""<html><head>{META}</head><body>
<table>
<tr><th>Название</th><th>API_Acc_GetRestTurn</th></tr>
<tr><td>Подробное описание</td><td><p>Обороты за период.</p><p>Сценарии:</p>
<ul><li>первый</li><li>второй</li></ul></td></tr>
</table>
<table border=1>
<tr><td colspan=4><b>Входные параметры</b></td></tr>
<tr><td>Параметр</td><td>Тип</td><td>Обязательный</td><td>Описание</td></tr>
<tr><td>@DateFrom</td><td>DSDATE</td><td>Да</td><td>Начало</td></tr>
</table>
<h3>Коды ошибок</h3>
<table><tr><td>Код</td><td>Описание</td></tr><tr><td>50002</td><td>Пустой период</td></tr></table>
</body></html>"""


def test_captions_in_the_first_row_paragraphs_in_cells_and_h3_headings() -> None:
    parsed = parse_page(PageKind.API, f"{SERVICES}/API_Acc_GetRestTurn.htm", WORD_STYLE_API.encode("cp1251"))

    assert parsed.diagnostics == []
    page = parsed.page
    assert isinstance(page, ApiPage)
    assert page.key == "API_Acc_GetRestTurn"
    assert page.description == "Обороты за период.\nСценарии:\nпервый\nвторой"
    assert [(p.name, p.domain_type, p.required) for p in page.params] == [("DateFrom", "DSDATE", True)]
    assert [(e.code, e.description) for e in page.errors] == [("50002", "Пустой период")]
