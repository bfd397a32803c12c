"""The PostgreSQL catalog format: a live database's routines, every one kept, executed on that database."""

from __future__ import annotations

from pathlib import Path

from apiatlas.catalog.model import Catalog
from apiatlas.sources.format import Progress, SourceFormat


class PostgresFormat(SourceFormat):
    """A live PostgreSQL catalog (postgresql://user@host/db); the neutral build defaults apply."""

    kind = "postgresql"
    description = "a live PostgreSQL catalog: postgresql://user@host/db (password from PGPASSWORD)"
    display_name = "PostgreSQL catalog"
    executor = "sql"

    def detects(self, path: Path) -> bool:
        from apiatlas.sources.postgres import is_postgres_url

        return is_postgres_url(path)

    def load(self, path: Path, *, progress: Progress | None = None) -> Catalog:
        from apiatlas.sources.postgres import load_pg_catalog

        return load_pg_catalog(path, progress=progress)
