"""Bank HTML source: header rows mapped to columns, remembered per header and per parser's column spec."""

from __future__ import annotations

from apiatlas.sources.bank_html.labels import Section, column_map


def test_a_header_is_mapped_by_each_spec_on_its_own_and_the_same_every_time() -> None:
    params = {"name": ("имя", "параметр"), "type": ("тип",), "description": ("описание",)}
    errors = {"code": ("код",), "description": ("описание", "текст")}
    header = ["Имя", "Тип  данных:", "Описание*", "Код"]

    first = column_map(header, params)
    assert first == {"name": 0, "type": 1, "description": 2}
    assert column_map(list(header), params) == first
    assert column_map(header, errors) == {"description": 2, "code": 3}
    assert column_map(["Параметр", "Текст"], params) == {"name": 0}
    assert column_map([], params) == {}


def test_a_section_matches_the_headings_that_start_with_one_of_its_prefixes() -> None:
    section = Section("Коды ошибок", ("коды ошибок", "ошибки"))
    assert section.matches("ошибки метода") and section.matches("коды ошибок")
    assert not section.matches("список ошибок") and not section.matches("")
    assert not Section("Пусто", ()).matches("ошибки")
