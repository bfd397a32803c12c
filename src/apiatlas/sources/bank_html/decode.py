"""Decode the bytes of a page: windows-1251 explicitly, with a located warning when the page is not.

The rule (windows-1251 decodes almost any bytes, so "it decoded" proves nothing):

1. Read the charset the page declares in its ``<meta>`` (first 4 KB, ASCII search).
2. The page is taken as windows-1251, silently, when all of these hold: it declares no charset or
   a windows-1251 alias; it decodes as strict windows-1251 (only byte 0x98 is undefined); and it
   is *not* valid UTF-8 containing multibyte sequences. Russian text in windows-1251 virtually
   never forms valid UTF-8 multibyte sequences (lower-case letters 0xE0-0xFF are UTF-8 lead bytes
   that would need 0x80-0xBF continuations, which are punctuation or Ё/ё in windows-1251).
   It must also read like Russian: when a page has at least 40 Cyrillic letters (bytes 0xC0-0xFF)
   and fewer than half are lower case (0xE0-0xFF), it is most likely another Cyrillic encoding
   (KOI8-R puts lower case at 0xC0-0xDF) mislabelled as windows-1251.
3. Otherwise the encoding is detected: valid UTF-8 with multibyte sequences is UTF-8 (certain);
   anything else goes to charset-normalizer (falling back to the declared charset when it decodes
   strictly). The page is decoded with that encoding and an ``ENCODING_MISMATCH`` warning says
   what was declared, what was found and what was used.
4. If nothing decodes the bytes, an ``UNDECODABLE_FILE`` error is returned and the page is skipped.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from functools import lru_cache

import charset_normalizer

from apiatlas.errors import Diagnostic, ReasonCode, Severity
from apiatlas.sources.bank_html.records import finding

EXPECTED = "cp1251"
_META_CHARSET = re.compile(rb"<meta[^>]*?charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:-]+)", re.IGNORECASE)
# a byte that starts no UTF-8 sequence, or starts one without its continuation: not UTF-8 (text in
# windows-1251 has one at its first Cyrillic letter, found without decoding and failing)
_NOT_UTF8 = re.compile(rb"[\xc0-\xff](?:[^\x80-\xbf]|\Z)")
_NOT_CYRILLIC = bytes(range(0xC0))  # deleting these leaves the windows-1251 letters А-я
_NOT_LOWER = bytes(range(0xE0))  # deleting these leaves а-я
_MIN_LETTERS = 40


@dataclass(slots=True)
class DecodedPage:
    """The text of a page (None when it could not be decoded) and what decoding found."""

    text: str | None
    encoding: str | None
    diagnostics: list[Diagnostic] = field(default_factory=list)


def declared_charset(data: bytes) -> str | None:
    """The charset named by the page's ``<meta>`` as a Python codec name, or its raw name if unknown."""
    match = _META_CHARSET.search(data[:4096])
    if match is None:
        return None
    return _codec_name(match.group(1).decode("ascii").lower())


@lru_cache(maxsize=64)
def _codec_name(raw: str) -> str:
    try:
        return codecs.lookup(raw).name
    except LookupError:
        return raw


def is_multibyte_utf8(data: bytes) -> bool:
    """True when ``data`` is valid UTF-8 and has at least one non-ASCII (multibyte) sequence."""
    if data.isascii() or _NOT_UTF8.search(data) is not None:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def reads_like_russian(data: bytes) -> bool:
    """False when ``data`` has enough windows-1251 Cyrillic letters and most of them are upper case."""
    letters = data.translate(None, _NOT_CYRILLIC)
    if len(letters) < _MIN_LETTERS:
        return True
    return 2 * len(letters.translate(None, _NOT_LOWER)) >= len(letters)  # the lower case of the letters


def decode_page(data: bytes, file: str) -> DecodedPage:
    """Decode ``data`` (the bytes of ``file``, relative to the docs root) by the rule above."""
    declared = declared_charset(data)
    cp1251_text: str | None
    try:
        cp1251_text = data.decode(EXPECTED)
    except UnicodeDecodeError:
        cp1251_text = None
    utf8 = is_multibyte_utf8(data)
    russian = reads_like_russian(data)
    if cp1251_text is not None and declared in (None, EXPECTED) and not utf8 and russian:
        return DecodedPage(text=cp1251_text, encoding=EXPECTED)
    detected = _detect(data, declared, utf8)
    if detected is None:
        message = (
            f"bytes are neither windows-1251 nor any encoding charset-normalizer recognises "
            f"(declared: {declared or 'none'}); page skipped"
        )
        return DecodedPage(None, None, [finding(Severity.ERROR, ReasonCode.UNDECODABLE_FILE, message, file)])
    encoding, text = detected
    reasons = []
    if declared not in (None, EXPECTED):
        reasons.append(f"the page declares charset {declared}")
    if cp1251_text is None:
        reasons.append("the bytes are not valid windows-1251")
    if utf8:
        reasons.append("the bytes are valid UTF-8 with multibyte characters")
    elif not russian:
        reasons.append("read as windows-1251 its Cyrillic letters are mostly upper case")
    message = f"expected windows-1251 but {'; '.join(reasons)}; decoded as {encoding}"
    return DecodedPage(
        text, encoding, [finding(Severity.WARNING, ReasonCode.ENCODING_MISMATCH, message, file)]
    )


def _detect(data: bytes, declared: str | None, utf8: bool) -> tuple[str, str] | None:
    if utf8:
        return "utf-8", data.decode("utf-8-sig")
    best = charset_normalizer.from_bytes(data).best()
    candidates = [best.encoding] if best is not None else []
    candidates += [name for name in (declared, EXPECTED) if name is not None]
    for encoding in candidates:
        try:
            return codecs.lookup(encoding).name, data.decode(encoding)
        except (LookupError, UnicodeDecodeError):
            continue
    return None
