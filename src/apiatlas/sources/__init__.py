"""The registry of source formats: detect which one a path holds and load it into a Catalog.

One folder per source format, like sqlglot's dialects, each a ``SourceFormat`` subclass
(``sources/format.py``) that overrides only what differs from the neutral base. Adding a format is its
folder plus one ``SOURCES`` line, or ``register_source(MyFormat())`` from outside the package.
Formats are imported lazily (``"module:attribute"``) so a command pays only for what it uses.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

from apiatlas.catalog.model import Catalog
from apiatlas.errors import ConfigError, Location
from apiatlas.sources.format import NEUTRAL, Progress, SourceFormat

__all__ = [
    "NEUTRAL",
    "SOURCES",
    "Progress",
    "SourceFormat",
    "detect_source",
    "is_url_source",
    "load_source",
    "register_source",
    "source_format",
    "source_kinds",
]

# kind -> the format, or where to import it from; detect_source tries them in this order
SOURCES: dict[str, SourceFormat | str] = {
    "bank_html": "apiatlas.sources.bank_html.format:BankHtmlFormat",
    "openapi": "apiatlas.sources.openapi.format:OpenApiFormat",
    "postgresql": "apiatlas.sources.postgres.format:PostgresFormat",
    "mssql_ddl": "apiatlas.sources.mssql_ddl.format:MssqlDdlFormat",
    "mssql_catalog": "apiatlas.sources.mssql_catalog.format:MssqlCatalogFormat",
    "nestful": "apiatlas.sources.nestful.format:NestfulFormat",
    "dotnet": "apiatlas.sources.dotnet.format:DotnetFormat",
}


def is_url_source(path: Path | str) -> bool:
    """Whether ``path`` is a connection URL (``postgresql://…``) rather than a file or folder."""
    return re.match(r"^[a-z][a-z0-9+.-]*:/", str(path), re.IGNORECASE) is not None


def register_source(source: SourceFormat) -> None:
    """Add (or replace) a source format; new formats are tried after the others by detect_source."""
    SOURCES[source.kind] = source


def source_kinds() -> list[str]:
    """The kinds of source apiatlas can read, in detection order."""
    return list(SOURCES)


def source_format(kind: str | None) -> SourceFormat:
    """The format of ``kind``; the neutral format for a kind nobody registered (or none)."""
    entry = SOURCES.get(kind or "")
    if entry is None:
        return NEUTRAL
    if isinstance(entry, str):
        module, _, attribute = entry.partition(":")
        entry = getattr(importlib.import_module(module), attribute)()
        assert isinstance(entry, SourceFormat)
        SOURCES[kind or ""] = entry
    return entry


def detect_source(path: Path) -> str:
    """The kind of source at ``path``; ConfigError when no format recognises it."""
    for kind in list(SOURCES):
        if source_format(kind).detects(Path(path)):
            return kind
    from apiatlas.sources.openapi.documents import check_spec_syntax

    check_spec_syntax(Path(path))  # a truncated JSON or YAML spec: say where it broke
    raise ConfigError(
        f"{path} is not a source apiatlas recognises (known kinds: {', '.join(SOURCES)})",
        location=Location(file=str(path)),
    )


def load_source(
    path: Path,
    kind: str | None = None,
    progress: Progress | None = None,
    options: dict[str, Any] | None = None,
) -> Catalog:
    """Load the source at ``path`` (of ``kind``, detected when None) into a Catalog; ``options`` are the
    format's own (``SourceFormat.load_with``), refused by a format that takes none."""
    chosen = kind or detect_source(path)
    if chosen not in SOURCES:
        raise ConfigError(
            f"unknown source kind '{chosen}' (known kinds: {', '.join(SOURCES)})",
            location=Location(file=str(path)),
        )
    if options:
        return source_format(chosen).load_with(Path(path), options, progress=progress)
    return source_format(chosen).load(Path(path), progress=progress)
