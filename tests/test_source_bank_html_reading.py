"""Bank HTML source: a page's bytes as the parse workers read them (large pages, unreadable ones)."""

from __future__ import annotations

from pathlib import Path

from apiatlas.errors import ReasonCode, Severity
from apiatlas.sources.bank_html import load_bank_docs
from apiatlas.sources.bank_html.loader import _parse_one
from apiatlas.sources.bank_html.pages import PageKind
from test_source_bank_html import SERVICES, build_docs, codes_at, sample_pages


def test_a_page_larger_than_one_read_is_read_whole(tmp_path: Path) -> None:
    pages = sample_pages()
    rel = f"{SERVICES}/API_Prs_FindListByFIO.htm"
    padding = "<!-- " + "заполнитель " * 20_000 + "-->"  # ~240 KB in windows-1251: several reads
    pages[rel] = pages[rel].replace("</body>", padding + "</body>")
    build_docs(tmp_path, pages)
    assert (tmp_path / rel).stat().st_size > 200_000

    catalog = load_bank_docs(tmp_path)

    assert [d for d in catalog.diagnostics if d.location.file == rel] == []  # not truncated
    assert [p.name for p in catalog.apis["API_Prs_FindListByFIO"].params] == ["SurName", "FirstName"]


def test_a_page_that_cannot_be_read_is_an_error_naming_the_file(tmp_path: Path) -> None:
    build_docs(tmp_path)
    (tmp_path / SERVICES / "API_Folder_Get.htm").mkdir()

    for rel, reason in (
        (f"{SERVICES}/API_Gone_Get.htm", "[Errno 2] No such file or directory"),
        (f"{SERVICES}/API_Folder_Get.htm", "[Errno 21] Is a directory"),
    ):
        parsed = _parse_one((PageKind.API, rel, str(tmp_path), True))

        [error] = parsed.diagnostics
        assert (parsed.page, parsed.sha256, error.code, error.severity) == (
            None,
            "",
            ReasonCode.UNDECODABLE_FILE,
            Severity.ERROR,
        )
        assert error.message == f"cannot read: {reason}: '{tmp_path / rel}'"
        assert error.location.file == rel
    assert codes_at(load_bank_docs(tmp_path), ReasonCode.UNDECODABLE_FILE) == []  # a folder is no page
