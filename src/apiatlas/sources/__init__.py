"""The registry of source formats: detect which one a path holds and load it into a Catalog.

One module (or folder) per source format, like sqlglot's dialects; adding a format is one
``SourceFormat`` entry below. Loaders are imported lazily so a command pays only for what it uses.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from apiatlas.catalog.model import Catalog
from apiatlas.errors import ConfigError, Location

Progress = Callable[[int, int], None]


class SourceLoader(Protocol):
    def __call__(self, root: Path, *, progress: Progress | None = None) -> Catalog: ...


@dataclass(frozen=True, slots=True)
class SourceFormat:
    """A source format: its kind name, the module and functions that detect and load it."""

    kind: str
    module: str
    detect: str  # name of ``(path: Path) -> bool`` in ``module``
    load: str  # name of a SourceLoader in ``module``
    description: str = ""

    def detects(self, path: Path) -> bool:
        check: Callable[[Path], bool] = getattr(importlib.import_module(self.module), self.detect)
        return check(path)

    def loader(self) -> SourceLoader:
        load: SourceLoader = getattr(importlib.import_module(self.module), self.load)
        return load


SOURCES: dict[str, SourceFormat] = {
    "bank_html": SourceFormat(
        kind="bank_html",
        module="apiatlas.sources.bank_html.loader",
        detect="is_bank_docs",
        load="load_bank_docs",
        description="bank core HTML documentation, windows-1251 (docs/formats/bank-html.md)",
    ),
    "openapi": SourceFormat(
        kind="openapi",
        module="apiatlas.sources.openapi.loader",
        detect="is_openapi_spec",
        load="load_openapi",
        description="an OpenAPI 3.0/3.1 or Swagger 2.0 spec file, JSON or YAML (relative $refs followed)",
    ),
    "postgresql": SourceFormat(
        kind="postgresql",
        module="apiatlas.sources.postgres",
        detect="is_postgres_url",
        load="load_pg_catalog",
        description="a live PostgreSQL catalog: postgresql://user@host/db (password from PGPASSWORD)",
    ),
    "mssql_ddl": SourceFormat(
        kind="mssql_ddl",
        module="apiatlas.sources.mssql_ddl.loader",
        detect="is_sql_project",
        load="load_sql_project",
        description="a SQL Server DDL project: a folder of .sql files (CREATE PROCEDURE/FUNCTION/TYPE)",
    ),
    "mssql_catalog": SourceFormat(
        kind="mssql_catalog",
        module="apiatlas.sources.mssql_catalog",
        detect="is_mssql_url",
        load="load_mssql_catalog",
        description="a live SQL Server catalog: mssql://user@host:1433/db (pymssql; untested: no server)",
    ),
}


def is_url_source(path: Path | str) -> bool:
    """Whether ``path`` is a connection URL (``postgresql://…``) rather than a file or folder."""
    return re.match(r"^[a-z][a-z0-9+.-]*:/", str(path), re.IGNORECASE) is not None


def register_source(source: SourceFormat) -> None:
    """Add (or replace) a source format; later formats are tried after earlier ones by detect_source."""
    SOURCES[source.kind] = source


def source_kinds() -> list[str]:
    """The kinds of source apiatlas can read, in detection order."""
    return list(SOURCES)


def detect_source(path: Path) -> str:
    """The kind of source at ``path``; ConfigError when no format recognises it."""
    for kind, source in SOURCES.items():
        if source.detects(Path(path)):
            return kind
    from apiatlas.sources.openapi.documents import check_spec_syntax

    check_spec_syntax(Path(path))  # a truncated JSON or YAML spec: say where it broke
    raise ConfigError(
        f"{path} is not a source apiatlas recognises (known kinds: {', '.join(SOURCES)})",
        location=Location(file=str(path)),
    )


def load_source(path: Path, kind: str | None = None, progress: Progress | None = None) -> Catalog:
    """Load the source at ``path`` (of ``kind``, detected when None) into a Catalog."""
    chosen = kind or detect_source(path)
    source = SOURCES.get(chosen)
    if source is None:
        raise ConfigError(
            f"unknown source kind '{chosen}' (known kinds: {', '.join(SOURCES)})",
            location=Location(file=str(path)),
        )
    return source.loader()(Path(path), progress=progress)
