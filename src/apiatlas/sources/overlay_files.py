"""Read operator overlays (``overlays/<API key>.md``, UTF-8 Markdown) into catalog Overlay objects."""

from __future__ import annotations

import re
from pathlib import Path

from apiatlas.catalog.model import DeclaredSource, Overlay
from apiatlas.errors import Diagnostic, Location, ReasonCode, Severity
from apiatlas.sources.confine import is_inside

WHEN_TO_USE = "когда использовать"
IMPORTANT = "важно"
DEPENDS_ON = "зависимости"
_SECTIONS = (WHEN_TO_USE, IMPORTANT, DEPENDS_ON)
# an overlay file is named after the API key it amends; README.md describes the folder
_FILE = re.compile(r"^(?!readme\.md$)[^.].*\.md$", re.IGNORECASE)
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
# consumer_field ← PRODUCER_API[.TABLE].FIELD, optionally followed by a comment
_DEPENDENCY = re.compile(
    r"^(?P<field>\w+)\s*(?:←|<-)\s*(?P<api>\w+)\.(?P<first>\w+)(?:\.(?P<second>\w+))?"
    r"(?:\s+(?:\(.*\)|—.*|--.*|#.*))?\s*$"
)


def read_overlays(dir: Path) -> tuple[dict[str, Overlay], list[Diagnostic]]:
    """Every ``<API key>.md`` in ``dir`` (not README.md) by API key (the file name), with located findings.

    A missing folder means no overlays. Files are read in name order; a file that is not UTF-8
    is an ``UNDECODABLE_FILE`` error and skipped; a malformed dependency line is a warning.
    """
    overlays: dict[str, Overlay] = {}
    found: list[Diagnostic] = []
    folder = Path(dir)
    if not folder.is_dir():
        return overlays, found
    for path in sorted(p for p in folder.iterdir() if p.is_file() and _FILE.match(p.name)):
        file = f"{folder.name}/{path.name}"
        key = path.name[: -len(".md")]
        if not is_inside(path, [folder]):  # a symlink out of the overlay folder is not read
            message = "the file is a link to outside the overlay folder; not read"
            found.append(_finding(Severity.ERROR, ReasonCode.REF_OUTSIDE_SOURCE, message, file, key))
            continue
        try:
            text = path.read_bytes().decode("utf-8-sig")
        except (OSError, UnicodeDecodeError) as error:
            found.append(
                _finding(Severity.ERROR, ReasonCode.UNDECODABLE_FILE, f"not UTF-8 text: {error}", file, key)
            )
            continue
        overlay, diagnostics = parse_overlay(text, file, key)
        overlays[key] = overlay
        found.extend(diagnostics)
    return overlays, found


def parse_overlay(text: str, file: str, key: str) -> tuple[Overlay, list[Diagnostic]]:
    """One overlay's sections: bullets of 'Когда использовать' and 'Важно', edges of 'Зависимости'."""
    found: list[Diagnostic] = []
    items: dict[str, list[str]] = {name: [] for name in _SECTIONS}
    lines_of: dict[str, list[int]] = {name: [] for name in _SECTIONS}
    section: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("# ") and not line.startswith("## "):
            title = line[2:].strip()
            if title and title != key:
                message = f"heading names {title} but the file is for {key}; the file name wins"
                found.append(
                    _finding(Severity.WARNING, ReasonCode.MALFORMED_PAGE, message, file, key, number)
                )
            continue
        if line.startswith("##"):
            heading = " ".join(line.lstrip("#").split()).lower().rstrip(":")
            section = heading if heading in _SECTIONS else None
            if section is None:
                message = f"unknown section '{line.lstrip('#').strip()}' ignored"
                found.append(_finding(Severity.INFO, ReasonCode.MALFORMED_PAGE, message, file, key, number))
            continue
        if not line or section is None:
            continue
        bullet = _BULLET.match(raw)
        item = raw[bullet.end() :].strip() if bullet else line
        if bullet is None and items[section] and section != DEPENDS_ON:
            items[section][-1] = f"{items[section][-1]} {item}"  # a wrapped continuation line
            continue
        items[section].append(item)
        lines_of[section].append(number)
    depends_on: list[DeclaredSource] = []
    for item, number in zip(items[DEPENDS_ON], lines_of[DEPENDS_ON], strict=True):
        source = parse_dependency(item)
        if source is None:
            message = f"dependency line '{item}' is not 'field ← API[.TABLE].FIELD'; ignored"
            found.append(_finding(Severity.WARNING, ReasonCode.MALFORMED_PAGE, message, file, key, number))
        else:
            depends_on.append(source)
    overlay = Overlay(
        when_to_use=items[WHEN_TO_USE],
        important=items[IMPORTANT],
        depends_on=depends_on,
        source=Location(file=file, anchor=key),
    )
    return overlay, found


def parse_dependency(line: str) -> DeclaredSource | None:
    """'AccountID ← API_X.pAPI_T.AccountID' (or ``<-``, table optional) as a DeclaredSource, else None."""
    match = _DEPENDENCY.match(line.strip().strip("`"))
    if match is None:
        return None
    first, second = match.group("first"), match.group("second")
    table, field = (first, second) if second else (None, first)
    return DeclaredSource(
        field=match.group("field"),
        producer_api=match.group("api"),
        producer_table=table,
        producer_field=field,
    )


def _finding(
    severity: Severity, code: ReasonCode, message: str, file: str, key: str, line: int | None = None
) -> Diagnostic:
    return Diagnostic(
        severity=severity, code=code, message=message, location=Location(file=file, line=line, anchor=key)
    )
