"""Read one file of the docs: hash, decode, parse by page kind; every failure becomes a located diagnostic."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from enum import StrEnum

from apiatlas.errors import Diagnostic, ReasonCode, Severity
from apiatlas.sources.bank_html.api_page import parse_api_page
from apiatlas.sources.bank_html.decode import decode_page
from apiatlas.sources.bank_html.markup import HtmlPage, read_page
from apiatlas.sources.bank_html.object_page import parse_object_page
from apiatlas.sources.bank_html.records import Page, ParsedPage, finding
from apiatlas.sources.bank_html.table_page import parse_table_page
from apiatlas.sources.bank_html.types_page import parse_types_page


class PageKind(StrEnum):
    OBJECT = "object"
    API = "api"
    TABLE = "table"
    TYPES = "types"


PageParser = Callable[[str, HtmlPage], tuple[Page | None, list[Diagnostic]]]

PARSERS: dict[PageKind, PageParser] = {
    PageKind.OBJECT: parse_object_page,
    PageKind.API: parse_api_page,
    PageKind.TABLE: parse_table_page,
    PageKind.TYPES: parse_types_page,
}


def parse_page(kind: PageKind, file: str, data: bytes) -> ParsedPage:
    """Parse the bytes of ``file`` (relative to the docs root) as a page of ``kind``; never raises."""
    parsed = ParsedPage(file=file, sha256=hashlib.sha256(data).hexdigest(), page=None)
    decoded = decode_page(data, file)
    parsed.diagnostics.extend(decoded.diagnostics)
    if decoded.text is None:
        return parsed
    try:
        html = read_page(decoded.text)
        if html.truncated:
            parsed.diagnostics.append(
                finding(
                    Severity.WARNING,
                    ReasonCode.MALFORMED_PAGE,
                    "the page has no closing </body> or </html>: it may be truncated; read what is there",
                    file,
                )
            )
        parsed.page, found = PARSERS[kind](file, html)
        parsed.diagnostics.extend(found)
    except Exception as error:  # a broken page must never stop the load of the others
        parsed.page = None
        parsed.diagnostics.append(
            finding(
                Severity.ERROR,
                ReasonCode.MALFORMED_PAGE,
                f"the page could not be parsed ({type(error).__name__}: {error}); skipped",
                file,
            )
        )
    return parsed
