"""A fingerprint of a PostgreSQL database: row count and checksum of every table, and of its routines."""

from __future__ import annotations

import psycopg
from psycopg import sql

_TABLES = """
SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'p', 'm') AND (c.relkind <> 'm' OR c.relispopulated)
  AND n.nspname NOT IN ('pg_catalog', 'information_schema')
  AND n.nspname NOT LIKE 'pg_toast%' AND n.nspname NOT LIKE 'pg_temp%'
ORDER BY 1, 2
"""
_ROUTINES = """
SELECT md5(coalesce(string_agg(sig || ':' || body, ',' ORDER BY sig), '')) || ':' || count(*)
FROM (SELECT p.oid::regprocedure::text AS sig, md5(coalesce(p.prosrc, '')) AS body
      FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')) AS routines
"""
_ROLES = "SELECT md5(string_agg(rolname || rolsuper::text, ',' ORDER BY rolname)) FROM pg_roles"


def fingerprint(url: str) -> dict[str, str]:
    """``schema.table`` -> ``rows:md5`` for every table, plus the routines' and roles' checksums."""
    found: dict[str, str] = {}
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SET default_transaction_read_only = on")
        for schema, table in conn.execute(_TABLES).fetchall():
            name = sql.Identifier(schema, table)
            row = conn.execute(
                sql.SQL(
                    "SELECT count(*), md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM {} t"
                ).format(name)
            ).fetchone()
            found[f"{schema}.{table}"] = f"{row[0]}:{row[1]}" if row else "?"
        routines = conn.execute(_ROUTINES).fetchone()
        found["@routines"] = str(routines[0]) if routines else "?"
        roles = conn.execute(_ROLES).fetchone()
        found["@roles"] = str(roles[0]) if roles else "?"
    return found


def changes(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """The tables (and ``@routines``/``@roles``) whose fingerprint differs, appeared or disappeared."""
    return sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
