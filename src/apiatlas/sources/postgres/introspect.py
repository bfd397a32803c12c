"""Reads routines, their arguments and comments, and table comments from a live PostgreSQL catalog."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import psycopg
from psycopg.rows import dict_row

ROUTINES_SQL = """
SELECT p.oid::bigint AS oid, n.nspname AS schema, p.proname AS name, p.prokind::text AS kind,
       l.lanname AS language, p.provolatile::text AS volatility, p.proretset AS returns_set,
       CASE WHEN l.lanname IN ('sql', 'plpgsql') THEN p.prosrc ELSE NULL END AS body,
       coalesce(p.proargnames, ARRAY[]::text[]) AS arg_names,
       coalesce(p.proargmodes::text[], ARRAY[]::text[]) AS arg_modes,
       array(SELECT format_type(t.oid, NULL)
             FROM unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) WITH ORDINALITY AS u(oid, o)
             JOIN pg_type t ON t.oid = u.oid ORDER BY u.o) AS arg_types,
       p.pronargdefaults AS n_defaults,
       pg_get_function_arguments(p.oid) AS arguments_text,
       pg_get_function_identity_arguments(p.oid) AS identity,
       format_type(p.prorettype, NULL) AS return_type,
       rt.typrelid::bigint AS return_relid,
       obj_description(p.oid, 'pg_proc') AS comment,
       EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid
               AND d.deptype = 'e') AS from_extension
FROM pg_proc p
JOIN pg_namespace n ON n.oid = p.pronamespace
JOIN pg_language l ON l.oid = p.prolang
JOIN pg_type rt ON rt.oid = p.prorettype
WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
  AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'
ORDER BY n.nspname, p.proname, identity
"""

RELATIONS_SQL = """
SELECT c.oid::bigint AS oid, n.nspname AS schema, c.relname AS name, c.relkind::text AS kind,
       obj_description(c.oid, 'pg_class') AS comment,
       coalesce(array_agg(a.attname ORDER BY a.attnum) FILTER (WHERE a.attnum > 0), ARRAY[]::name[])::text[]
           AS columns,
       coalesce(array_agg(format_type(a.atttypid, a.atttypmod) ORDER BY a.attnum) FILTER (WHERE a.attnum > 0),
                ARRAY[]::text[]) AS column_types,
       coalesce(array_agg(coalesce(col_description(c.oid, a.attnum), '') ORDER BY a.attnum)
                FILTER (WHERE a.attnum > 0), ARRAY[]::text[]) AS column_comments
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f', 'c')
  AND n.nspname NOT IN ('pg_catalog', 'information_schema')
  AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'
GROUP BY c.oid, n.nspname, c.relname, c.relkind
ORDER BY n.nspname, c.relname
"""

SCHEMAS_SQL = """
SELECT n.nspname AS name, obj_description(n.oid, 'pg_namespace') AS comment
FROM pg_namespace n
WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
  AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'
ORDER BY n.nspname
"""


@dataclass
class RoutineRow:
    oid: int
    schema: str
    name: str
    kind: str  # f function, p procedure, a aggregate, w window
    language: str
    volatility: str  # i immutable, s stable, v volatile
    returns_set: bool
    body: str | None
    arg_names: list[str]
    arg_modes: list[str]  # i, o, b (inout), v (variadic), t (table column); empty = all IN
    arg_types: list[str]
    n_defaults: int
    arguments_text: str
    identity: str
    return_type: str
    return_relid: int
    comment: str | None
    from_extension: bool


@dataclass
class RelationRow:
    oid: int
    schema: str
    name: str
    kind: str
    comment: str | None
    columns: list[str]
    column_types: list[str]
    column_comments: list[str]


@dataclass
class CatalogRows:
    """Everything read from the database; plain data so it can be recorded and replayed in tests."""

    routines: list[RoutineRow] = field(default_factory=list)
    relations: list[RelationRow] = field(default_factory=list)
    schemas: dict[str, str] = field(default_factory=dict)  # schema -> comment ('' when none)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def read_catalog(conninfo: str, *, password: str | None = None, connect_timeout: int = 10) -> CatalogRows:
    """Run the catalog queries in one read-only transaction (raises psycopg.Error when unreachable)."""
    extra: dict[str, Any] = {"connect_timeout": connect_timeout, "application_name": "apiatlas-compile"}
    if password is not None:
        extra["password"] = password
    with psycopg.connect(conninfo, **extra) as conn:
        conn.read_only = True
        with conn.cursor(row_factory=dict_row) as cur:
            routines = [RoutineRow(**row) for row in cur.execute(ROUTINES_SQL).fetchall()]
            relations = [RelationRow(**row) for row in cur.execute(RELATIONS_SQL).fetchall()]
            schemas = {row["name"]: row["comment"] or "" for row in cur.execute(SCHEMAS_SQL).fetchall()}
    return CatalogRows(routines=routines, relations=relations, schemas=schemas)
