"""Load the sample bank database (schemas ``bank`` and ``api``) into a PostgreSQL database."""

from __future__ import annotations

import hashlib
import os
import time
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import psycopg
from psycopg import sql

from apiatlas.errors import ApiatlasError, Location, ReasonCode
from apiatlas.samples import bank_data, bank_ledger, bank_names, bank_numbers, bank_products, bank_rows
from apiatlas.samples.bank_data import BANK_DATE, SEED, TABLE_COLUMNS, generate_bank_data

SQL_DIR_ENV = "APIATLAS_BANK_DB_DIR"
SCHEMA_FILE, PROCEDURES_FILE, TEST_PROCEDURES_FILE = "schema.sql", "procedures.sql", "test_procedures.sql"
_LOAD_LOCK = 7_302_026  # pg_advisory_xact_lock key: concurrent loaders of one database take turns


class BankDbError(ApiatlasError):
    """The sample bank could not be loaded (missing SQL files, unreachable or failing database)."""

    code = ReasonCode.TOOL_EXECUTION_ERROR


@dataclass(frozen=True)
class BankDbInfo:
    """What a load produced: rows per ``bank`` table and the routines in schema ``api``."""

    counts: dict[str, int]
    routines: tuple[str, ...]
    bank_date: date
    data_version: str
    loaded: bool  # False when reset=False found the same data already there
    seconds: float = field(compare=False)


def bank_sql_dir() -> Path:
    """``$APIATLAS_BANK_DB_DIR`` or ``examples/bank/db`` of the source checkout."""
    configured = os.environ.get(SQL_DIR_ENV)
    if configured:
        return Path(configured).expanduser()
    return Path(__file__).resolve().parents[3] / "examples" / "bank" / "db"


def _read_sql(name: str) -> str:
    path = bank_sql_dir() / name
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BankDbError(
            f"cannot read {path} (set {SQL_DIR_ENV} to the folder of the bank SQL files): {exc}",
            code=ReasonCode.BAD_CONFIG,
            location=Location(file=str(path)),
        ) from exc


def data_version() -> str:
    """Hash of everything that shapes the database: the SQL files and the generator's modules."""
    digest = hashlib.sha256(f"seed={SEED};date={BANK_DATE};v={bank_data.GENERATOR_VERSION}".encode())
    for name in (SCHEMA_FILE, PROCEDURES_FILE, TEST_PROCEDURES_FILE):
        digest.update(_read_sql(name).encode())
    for module in (bank_data, bank_ledger, bank_names, bank_numbers, bank_products, bank_rows):
        digest.update(Path(str(module.__file__)).read_bytes())
    return digest.hexdigest()[:16]


def load_bank_database(
    conninfo: str, *, with_test_procedures: bool = False, reset: bool = True
) -> BankDbInfo:
    """Create schemas ``bank`` (data) and ``api`` (procedures) in the database at ``conninfo``.

    ``reset=True`` always drops and recreates both schemas. ``reset=False`` keeps them when they already
    hold this exact data version (and the test procedures, if asked for), else reloads. Everything runs
    in one transaction: a failed load leaves the database as it was.
    """
    started = time.perf_counter()
    version = data_version()
    scripts = [_read_sql(SCHEMA_FILE), _read_sql(PROCEDURES_FILE)]
    if with_test_procedures:
        scripts.append(_read_sql(TEST_PROCEDURES_FILE))
    try:
        with psycopg.connect(conninfo) as conn:
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOAD_LOCK,))
            current, has_tests = _loaded_version(conn)
            if not reset and current == version and (has_tests or not with_test_procedures):
                return _info(conn, version, loaded=False, started=started)
            conn.execute("DROP SCHEMA IF EXISTS api CASCADE")
            conn.execute("DROP SCHEMA IF EXISTS bank CASCADE")
            conn.execute(scripts[0])
            _copy_rows(conn, version, with_test_procedures)
            for script in scripts[1:]:
                conn.execute(script)
            info = _info(conn, version, loaded=True, started=started)
            conn.commit()
            return info
    except psycopg.OperationalError as exc:
        raise BankDbError(
            f"cannot connect to the bank database: {exc}",
            code=ReasonCode.UPSTREAM_UNAVAILABLE,
            location=Location(anchor="load_bank_database"),
        ) from exc
    except psycopg.Error as exc:
        raise BankDbError(
            f"loading the sample bank failed: {exc}",
            code=ReasonCode.SCHEMA_ERROR,
            location=Location(anchor="load_bank_database"),
        ) from exc


def _copy_rows(
    conn: psycopg.Connection[tuple[object, ...]], version: str, with_test_procedures: bool
) -> None:
    data = generate_bank_data(SEED)
    data.rows["dataset"] = [
        ("data_version", version),
        ("seed", str(SEED)),
        ("bank_date", BANK_DATE.isoformat()),
        ("test_procedures", "1" if with_test_procedures else "0"),
    ]
    with conn.cursor() as cur:
        for table, columns in TABLE_COLUMNS.items():
            statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
                sql.Identifier("bank", table), sql.SQL(", ").join(map(sql.Identifier, columns))
            )
            with cur.copy(statement) as copy:
                for row in data.rows[table]:
                    copy.write_row(row)


def _loaded_version(conn: psycopg.Connection[tuple[object, ...]]) -> tuple[str | None, bool]:
    present = conn.execute(
        "SELECT to_regclass('bank.dataset') IS NOT NULL AND to_regnamespace('api') IS NOT NULL"
    ).fetchone()
    if not present or not present[0]:
        return None, False
    rows = {str(k): str(v) for k, v in conn.execute("SELECT key, value FROM bank.dataset").fetchall()}
    return (str(rows["data_version"]) if "data_version" in rows else None), rows.get("test_procedures") == "1"


def _info(
    conn: psycopg.Connection[tuple[object, ...]], version: str, *, loaded: bool, started: float
) -> BankDbInfo:
    counts: dict[str, int] = {}
    for table in TABLE_COLUMNS:
        row = conn.execute(
            sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier("bank", table))
        ).fetchone()
        counts[table] = int(row[0]) if row else 0  # type: ignore[call-overload]
    routines = conn.execute(
        "SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
        "WHERE n.nspname = 'api' ORDER BY p.proname"
    ).fetchall()
    return BankDbInfo(
        counts=counts,
        routines=tuple(str(r[0]) for r in routines),
        bank_date=BANK_DATE,
        data_version=version,
        loaded=loaded,
        seconds=round(time.perf_counter() - started, 3),
    )
