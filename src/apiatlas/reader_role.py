"""Least privilege in PostgreSQL: a login that can only EXECUTE the kept read APIs' routines.

EXECUTE alone is not enough when the routines are SECURITY INVOKER and read tables (they would run
with the login's rights, which have no table access). So each granted routine is made SECURITY
DEFINER, owned by a NOLOGIN owner role that may only SELECT the data schemas, with a fixed
``search_path`` (ending in ``pg_temp``). The login itself gets no table access,
``default_transaction_read_only = on`` and EXECUTE on nothing else: EXECUTE is revoked from PUBLIC on
the routines' schemas.

Procedures that exchange session (temporary) tables work too: the login may create temporary tables
(TEMPORARY on the database); the executor creates and fills them before it makes the call read-only
(``executors/postgres.py``: ``begin_read_write``) and grants them to PUBLIC (``share_temp_table``), so
the definer body, running as the owner, may read and fill them. A temporary table is private to its
session: the grant reaches no other session. Any other program calling these procedures after the
change must grant its session tables the same way (the owner cannot read another role's tables).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

import psycopg
from psycopg import sql

from apiatlas.catalog.model import SideEffect
from apiatlas.errors import ConfigError, Location
from apiatlas.executors.identifiers import split_target

_SYSTEM = "nspname NOT IN ('pg_catalog', 'information_schema') AND nspname NOT LIKE 'pg_%'"


@dataclass(frozen=True)
class ReaderPlan:
    """The routines to grant and the schemas involved."""

    role: str
    owner: str
    database: str
    routines: list[tuple[str, str]]  # (schema, routine) of every kept read API
    routine_schemas: list[str]
    data_schemas: list[str]
    missing: list[tuple[str, str]]  # kept read APIs whose routine the database does not have
    session_routines: list[tuple[str, str]]  # granted procedures that exchange session (temporary) tables


def kept_read_routines(
    snapshot: Path, default_schema: str = "api"
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(schema, routine) of every kept, callable read API of a SQL snapshot, and those of the procedures
    among them that exchange session tables (the login then needs TEMPORARY on the database)."""
    from apiatlas.snapshot import Snapshot

    found: set[tuple[str, str]] = set()
    session: set[tuple[str, str]] = set()
    with Snapshot.open(snapshot) as snap:
        for key in snap.all_api_keys():
            api = snap.get_api(key)
            if api is None or not api.funnel.kept or api.side_effect is not SideEffect.READ:
                continue
            if api.incomplete_contract or api.executor.kind not in ("sql_procedure", "sql_function"):
                continue
            target = split_target(api, default_schema)
            found.add(target)
            if api.executor.kind == "sql_procedure" and (api.input_tables or api.output_tables):
                session.add(target)
    return sorted(found), sorted(session)


def plan_reader(snapshot: Path, db_url: str, role: str, data_schemas: list[str] | None = None) -> ReaderPlan:
    """What the reader role needs in the database at ``db_url``; ConfigError when nothing is granted."""
    routines, session = kept_read_routines(snapshot)
    if not routines:
        raise ConfigError(
            "the snapshot has no kept read API bound to a SQL routine", location=Location(file=str(snapshot))
        )
    with psycopg.connect(db_url, autocommit=True) as conn:
        database = str(conn.execute("SELECT current_database()").fetchone()[0])  # type: ignore[index]
        schemas = [
            str(r[0]) for r in conn.execute(f"SELECT nspname FROM pg_namespace WHERE {_SYSTEM} ORDER BY 1")
        ]
        present = {
            (str(r[0]), str(r[1]))
            for r in conn.execute(
                "SELECT n.nspname, p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
            )
        }
    missing = [
        r for r in routines if r not in present
    ]  # documented but not in this database: nothing to grant
    routines = [r for r in routines if r in present]
    routine_schemas = sorted({schema for schema, _ in routines})
    data = data_schemas if data_schemas is not None else schemas
    session = [r for r in session if r in present]
    return ReaderPlan(role, f"{role}_owner", database, routines, routine_schemas, data, missing, session)


def reader_sql(plan: ReaderPlan) -> list[sql.Composed]:
    """The statements, in order (idempotent: roles created only when missing)."""
    role, owner, ident = sql.Identifier(plan.role), sql.Identifier(plan.owner), sql.Identifier
    statements: list[sql.Composed] = []
    for name, login in ((plan.owner, "NOLOGIN"), (plan.role, "LOGIN")):
        statements.append(
            sql.SQL(
                "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = {literal}) "
                "THEN CREATE ROLE {name} " + login + "; END IF; END $$"
            ).format(literal=sql.Literal(name), name=ident(name))
        )
    statements += [
        sql.SQL("ALTER ROLE {} SET default_transaction_read_only = on").format(role),
        sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(ident(plan.database), role),
    ]
    if plan.session_routines:  # the login creates the session tables (the executor shares them)
        statements.append(sql.SQL("GRANT TEMPORARY ON DATABASE {} TO {}").format(ident(plan.database), role))
    for schema in plan.routine_schemas:
        statements += [
            sql.SQL("REVOKE EXECUTE ON ALL ROUTINES IN SCHEMA {} FROM PUBLIC").format(ident(schema)),
            sql.SQL("GRANT USAGE ON SCHEMA {} TO {}, {}").format(ident(schema), role, owner),
            sql.SQL("GRANT CREATE ON SCHEMA {} TO {}").format(ident(schema), owner),  # to own the routines
        ]
    for schema in plan.data_schemas:
        statements += [
            sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(ident(schema), owner),
            sql.SQL("GRANT SELECT ON ALL TABLES IN SCHEMA {} TO {}").format(ident(schema), owner),
        ]
    path = sql.SQL(", ").join(
        [*(ident(s) for s in [*plan.routine_schemas, *plan.data_schemas]), sql.SQL("pg_temp")]
    )
    for schema, routine in plan.routines:
        target = sql.Identifier(schema, routine)
        statements += [
            sql.SQL("ALTER ROUTINE {} OWNER TO {}").format(target, owner),
            sql.SQL("ALTER ROUTINE {} SECURITY DEFINER").format(target),
            sql.SQL("ALTER ROUTINE {} SET search_path = {}").format(target, path),
            sql.SQL("GRANT EXECUTE ON ROUTINE {} TO {}").format(target, role),
        ]
    return statements


def login_url(db_url: str, role: str) -> str:
    """``db_url`` with ``role`` as its user and no password (give the login's password the usual way:
    ``APIATLAS_DB_PASSWORD``, a ``${NAME}`` placeholder, or the server's own authentication)."""
    parts = urlsplit(db_url)
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{quote(role, safe='')}@{host}"))


def refused_table_read(login: str, plan: ReaderPlan, admin_url: str) -> str | None:
    """The first table of the data schemas, read as the login: its name when the database refuses it
    (``permission denied``), None when there is no table; ConfigError when the login could read it."""
    with psycopg.connect(admin_url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT schemaname, tablename FROM pg_tables WHERE schemaname = ANY(%s) ORDER BY 1, 2 LIMIT 1",
            (plan.data_schemas,),
        ).fetchone()
    if row is None:
        return None
    table = sql.Identifier(str(row[0]), str(row[1]))
    with psycopg.connect(login, autocommit=True) as conn:
        try:
            conn.execute(sql.SQL("SELECT * FROM {} LIMIT 1").format(table))
        except psycopg.errors.InsufficientPrivilege:
            return table.as_string(conn)
    raise ConfigError(f"the login {plan.role} can read {row[0]}.{row[1]}: it is not least privilege")


def apply_reader(db_url: str, statements: list[sql.Composed]) -> None:
    """Run ``statements`` in one transaction (all or nothing)."""
    with psycopg.connect(db_url) as conn, conn.transaction():
        for statement in statements:
            conn.execute(statement)
