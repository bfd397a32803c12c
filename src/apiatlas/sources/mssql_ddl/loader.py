"""Loads a SQL Server DDL project (a folder of .sql files) into a Catalog; detects such a folder."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from apiatlas.catalog.model import Catalog
from apiatlas.errors import Diagnostic, Location, ReasonCode, Severity, SourceError
from apiatlas.sources import Progress
from apiatlas.sources.mssql_ddl.assemble import SqlServerObjects, build_catalog
from apiatlas.sources.mssql_ddl.parser import parse_sql_file

KIND = "mssql_ddl"
_ROUTINE = re.compile(rb"create\s+(?:or\s+alter\s+)?(?:proc|procedure|function)\b", re.IGNORECASE)
_DETECT_FILES = 400


def is_sql_project(path: Path) -> bool:
    """A folder holding .sql files, at least one of which creates a procedure or function."""
    if not path.is_dir():
        return False
    for n, file in enumerate(sorted(path.rglob("*.sql"))):
        if n >= _DETECT_FILES:
            return False
        if _ROUTINE.search(file.read_bytes()[:200_000]):
            return True
    return False


def read_sql_text(path: Path, root: Path) -> tuple[str, Diagnostic | None]:
    """A .sql file as text: UTF-8 (BOM or not), UTF-16 with a BOM, else windows-1252 with a warning."""
    raw = path.read_bytes()
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return raw.decode("utf-16"), None
    try:
        return raw.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        return raw.decode("cp1252", errors="replace"), Diagnostic(
            severity=Severity.WARNING,
            code=ReasonCode.ENCODING_MISMATCH,
            message=f"not UTF-8 ({exc.reason} at byte {exc.start}); read as windows-1252",
            location=Location(file=path.relative_to(root).as_posix()),
        )


def load_sql_project(root: Path, *, progress: Progress | None = None) -> Catalog:
    """Every CREATE PROCEDURE/FUNCTION of the project as an API; problems become diagnostics."""
    root = Path(root)
    if not root.is_dir():
        raise SourceError(f"SQL project folder not found: {root}", code=ReasonCode.INVALID_ARGUMENT,
                          location=Location(file=str(root)))  # fmt: skip
    files = sorted(root.rglob("*.sql"))
    objects = SqlServerObjects()
    diagnostics: list[Diagnostic] = []
    hashes: dict[str, str] = {}
    for n, path in enumerate(files, start=1):
        rel = path.relative_to(root).as_posix()
        hashes[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
        text, problem = read_sql_text(path, root)
        if problem is not None:
            diagnostics.append(problem)
        parsed = parse_sql_file(text)
        for line, message in parsed.problems:
            diagnostics.append(Diagnostic(severity=Severity.WARNING, code=ReasonCode.MALFORMED_PAGE,
                                          message=message,
                                          location=Location(file=rel, line=line)))  # fmt: skip
        for routine in parsed.routines:
            anchor = f"{routine.schema}.{routine.name}"
            objects.routines.append((routine, Location(file=rel, line=routine.line, anchor=anchor)))
        objects.table_types.extend(parsed.table_types)
        objects.properties.extend((p, Location(file=rel, line=p.line)) for p in parsed.properties)
        if progress is not None:
            progress(n, len(files))
    catalog = build_catalog(objects, source_kind=KIND)
    catalog.diagnostics[:0] = diagnostics
    catalog.source_files.update(hashes)
    return catalog
