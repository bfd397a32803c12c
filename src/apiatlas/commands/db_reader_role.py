"""``apiatlas db reader-role``: the SQL for a login that can only EXECUTE the kept read APIs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from apiatlas.cli_app import app
from apiatlas.errors import ApiatlasError

db_app = typer.Typer(help="Database administration for a served snapshot.", no_args_is_help=True)
app.add_typer(db_app, name="db")


@db_app.command("reader-role")
def reader_role_command(
    snapshot: Annotated[Path, typer.Argument(help="The SQL snapshot (*.atlas) whose read APIs are granted.")],
    db: Annotated[str, typer.Option("--db", help="Database URL of an administrator (PostgreSQL).")],
    role: Annotated[str, typer.Option("--role", help="Name of the login to create or update.")],
    data_schema: Annotated[
        list[str] | None,
        typer.Option("--data-schema", help="Schema the routines read (repeat); default every schema."),
    ] = None,
    apply: Annotated[
        bool, typer.Option("--apply", help="Run the SQL (one transaction) instead of printing it.")
    ] = False,
) -> None:
    """Print (or apply) the SQL for a login that can only EXECUTE the kept read APIs' routines.

    Use when the server should run with least privilege: no table access, read-only transactions,
    every kept read routine SECURITY DEFINER owned by a SELECT-only owner role (docs/operations.md).
    """
    import psycopg

    from apiatlas.reader_role import apply_reader, plan_reader, reader_sql

    try:
        plan = plan_reader(snapshot, db, role, data_schema)
        statements = reader_sql(plan)
        if plan.session_routines:
            typer.echo(
                f"note: {len(plan.session_routines)} granted procedures exchange session tables: the login "
                "may create temporary tables; other callers must grant theirs to PUBLIC (docs/operations.md)",
                err=True,
            )
        if plan.missing:
            typer.echo(f"note: {len(plan.missing)} kept read APIs have no routine in this database", err=True)
        if apply:
            apply_reader(db, statements)
            typer.echo(
                f"{role}: EXECUTE on {len(plan.routines)} routines, read-only, no table access", err=True
            )
            return
        with psycopg.connect(db) as conn:
            for statement in statements:
                typer.echo(statement.as_string(conn) + ";")
    except (ApiatlasError, psycopg.Error) as exc:
        typer.secho(f"error: {exc}".splitlines()[0], fg="red", err=True)
        raise typer.Exit(2) from exc
