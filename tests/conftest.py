"""Shared pytest fixtures: one embedded PostgreSQL per test session, and the sample bank loaded into it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from apiatlas.embedded_pg import EmbeddedPostgres
from apiatlas.samples.bankdb import BankDbInfo, load_bank_database

BANK_DATABASE = "apiatlas_bank"


# --- embedded PostgreSQL and the sample bank ---------------------------------------------------------


@pytest.fixture(scope="session")
def embedded_pg() -> Iterator[EmbeddedPostgres]:
    """The session's embedded PostgreSQL server (throw-away data directory, deleted at the end).

    Not under pytest's tmp_path: every pytest session resets /tmp/pytest-of-<user> to mode 0700, which
    locks out the ``pgserver`` system user that runs the server when tests run as root.
    """
    server = EmbeddedPostgres.temporary()
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def pg_uri(embedded_pg: EmbeddedPostgres) -> str:
    """URI of the session server's ``postgres`` database (create your own schema or database in it)."""
    return embedded_pg.uri


@pytest.fixture(scope="session")
def bank_db_info(embedded_pg: EmbeddedPostgres) -> BankDbInfo:
    """The sample bank loaded, with test procedures, into its own database ``apiatlas_bank``."""
    return load_bank_database(embedded_pg.create_database(BANK_DATABASE), with_test_procedures=True)


@pytest.fixture(scope="session")
def bank_db(embedded_pg: EmbeddedPostgres, bank_db_info: BankDbInfo) -> str:
    """URI of the loaded sample bank database (read it; do not change it — other tests share it)."""
    return embedded_pg.database_uri(BANK_DATABASE)


@pytest.fixture(scope="session")
def bank_snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample bank compiled as ``apiatlas demo`` compiles it (docs, overlays, config)."""
    from apiatlas.build import compile_docs
    from apiatlas.samples.docs_writer import SAMPLE_CONFIG, SAMPLE_DOCS, SAMPLE_OVERLAYS

    out = tmp_path_factory.mktemp("bank_snapshot") / "bank.atlas"
    compile_docs(
        SAMPLE_DOCS, overlays_dir=SAMPLE_OVERLAYS, config_path=SAMPLE_CONFIG, out=out, write_report=False
    )
    return out
