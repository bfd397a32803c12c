"""The SQL Server catalog format: a live database's routines, every one kept, executed on that database."""

from __future__ import annotations

from pathlib import Path

from apiatlas.catalog.model import Catalog
from apiatlas.sources.format import Progress, SourceFormat


class MssqlCatalogFormat(SourceFormat):
    """A live SQL Server catalog (mssql://user@host:1433/db); the neutral build defaults apply."""

    kind = "mssql_catalog"
    description = "a live SQL Server catalog: mssql://user@host:1433/db (pymssql; untested: no server)"
    display_name = "SQL Server catalog"
    executor = "sql"

    def detects(self, path: Path) -> bool:
        from apiatlas.sources.mssql_catalog import is_mssql_url

        return is_mssql_url(path)

    def load(self, path: Path, *, progress: Progress | None = None) -> Catalog:
        from apiatlas.sources.mssql_catalog import load_mssql_catalog

        return load_mssql_catalog(path, progress=progress)
