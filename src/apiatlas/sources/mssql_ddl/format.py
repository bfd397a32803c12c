"""The SQL Server DDL project format: a folder of .sql files, every routine kept, executed on SQL Server."""

from __future__ import annotations

from pathlib import Path

from apiatlas.catalog.model import Catalog
from apiatlas.sources.format import Progress, SourceFormat


class MssqlDdlFormat(SourceFormat):
    """A SQL Server DDL project (CREATE PROCEDURE/FUNCTION/TYPE); the neutral build defaults apply."""

    kind = "mssql_ddl"
    description = "a SQL Server DDL project: a folder of .sql files (CREATE PROCEDURE/FUNCTION/TYPE)"
    display_name = "SQL Server DDL project"
    executor = "sql"

    def detects(self, path: Path) -> bool:
        from apiatlas.sources.mssql_ddl.loader import is_sql_project

        return is_sql_project(path)

    def load(self, path: Path, *, progress: Progress | None = None) -> Catalog:
        from apiatlas.sources.mssql_ddl.loader import load_sql_project

        return load_sql_project(path, progress=progress)
