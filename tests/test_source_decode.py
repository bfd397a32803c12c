"""Decoding bank pages: windows-1251 silently, anything else detected and reported, garbage skipped."""

from __future__ import annotations

import pytest

from apiatlas.errors import ReasonCode, Severity
from apiatlas.sources.bank_html.decode import declared_charset, decode_page, is_multibyte_utf8

TEXT = (
    "<html><head>{meta}</head><body><h2>Бизнес-объект Счёт</h2>"
    "<p>Получение остатка по счёту</p></body></html>"
)
CP1251_META = '<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">'
UTF8_META = '<meta charset="UTF-8">'


@pytest.mark.parametrize("meta", [CP1251_META, '<META CONTENT="text/html; CHARSET=cp1251">', ""])
def test_windows_1251_page_decodes_silently(meta: str) -> None:
    text = TEXT.format(meta=meta)
    decoded = decode_page(text.encode("cp1251"), "BObjects/BO_Account.htm")
    assert (decoded.text, decoded.encoding, decoded.diagnostics) == (text, "cp1251", [])


@pytest.mark.parametrize("meta", [UTF8_META, CP1251_META, ""])
def test_utf8_bytes_are_decoded_as_utf8_whatever_the_meta_says(meta: str) -> None:
    text = TEXT.format(meta=meta)
    decoded = decode_page(text.encode("utf-8"), "BObjects/BO_Account.htm")
    assert decoded.text == text
    assert decoded.encoding == "utf-8"
    [warning] = decoded.diagnostics
    assert (warning.code, warning.severity) == (ReasonCode.ENCODING_MISMATCH, Severity.WARNING)
    assert warning.location.file == "BObjects/BO_Account.htm"
    assert "valid UTF-8" in warning.message


def test_meta_declaring_another_charset_triggers_detection() -> None:
    text = TEXT.format(meta='<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">') * 3
    decoded = decode_page(text.encode("koi8_r"), "Types/DomainTypes.htm")
    assert decoded.text == text
    assert decoded.encoding == "koi8-r"
    [warning] = decoded.diagnostics
    assert warning.code is ReasonCode.ENCODING_MISMATCH
    assert "declares charset koi8-r" in warning.message


def test_windows_1251_bytes_under_a_utf8_meta_are_reported_and_decoded_as_windows_1251() -> None:
    text = TEXT.format(meta=UTF8_META) * 3
    decoded = decode_page(text.encode("cp1251"), "x.htm")
    assert decoded.text == text
    assert decoded.encoding == "cp1251"
    [warning] = decoded.diagnostics
    assert warning.code is ReasonCode.ENCODING_MISMATCH
    assert "declares charset utf-8" in warning.message


def test_undecodable_bytes_give_an_error_and_no_text() -> None:
    decoded = decode_page(bytes(range(256)) * 4, "BObjects/BO_Junk.htm")
    assert (decoded.text, decoded.encoding) == (None, None)
    [error] = decoded.diagnostics
    assert (error.code, error.severity, error.location.file) == (
        ReasonCode.UNDECODABLE_FILE,
        Severity.ERROR,
        "BObjects/BO_Junk.htm",
    )


def test_rule_helpers() -> None:
    assert declared_charset(b"<meta charset='Windows-1251'>") == "cp1251"
    assert declared_charset(b"<meta charset=x-unknown-thing>") == "x-unknown-thing"
    assert declared_charset(b"<html><body>no meta</body></html>") is None
    assert is_multibyte_utf8("Счёт".encode()) is True
    assert is_multibyte_utf8("Счёт".encode("cp1251")) is False
    assert is_multibyte_utf8(b"plain ascii") is False


def test_koi8_page_labelled_windows_1251_is_caught_by_the_letter_case_rule() -> None:
    text = TEXT.format(meta=CP1251_META) * 3
    decoded = decode_page(text.encode("koi8_r"), "BObjects/BO_Account.htm")
    assert decoded.text == text
    assert decoded.encoding == "koi8-r"
    [warning] = decoded.diagnostics
    assert warning.code is ReasonCode.ENCODING_MISMATCH
    assert "mostly upper case" in warning.message


def test_upper_case_acronyms_do_not_trip_the_letter_case_rule() -> None:
    text = TEXT.format(meta=CP1251_META).replace("Счёт", "СЧЁТ ФИО ИНН БИК ОГРН КПП ГА")
    decoded = decode_page(text.encode("cp1251"), "x.htm")
    assert (decoded.encoding, decoded.diagnostics) == ("cp1251", [])
