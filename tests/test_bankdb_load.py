"""Loading the sample bank into the embedded PostgreSQL, and the embedded server's own behaviour."""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from apiatlas.embedded_pg import DATA_DIR_ENV, EmbeddedPostgres, EmbeddedPostgresError, default_data_dir
from apiatlas.errors import ReasonCode
from apiatlas.samples.bank_api_errors import CORE_APIS, ROW_FUNCTIONS, TEST_PROCEDURES
from apiatlas.samples.bank_data import generate_bank_data
from apiatlas.samples.bankdb import (
    PROCEDURES_FILE,
    SCHEMA_FILE,
    SQL_DIR_ENV,
    TEST_PROCEDURES_FILE,
    BankDbError,
    BankDbInfo,
    bank_sql_dir,
    data_version,
    load_bank_database,
)

DIGEST = "SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) FROM bank.{} t"


def digest(uri: str, table: str) -> str:
    with psycopg.connect(uri) as conn:
        row = conn.execute(DIGEST.format(table)).fetchone()
        assert row is not None
        return str(row[0])


@pytest.fixture(scope="module")
def scratch_db(embedded_pg: EmbeddedPostgres) -> str:
    """A second database for loads that must not disturb the shared ``bank_db``."""
    return embedded_pg.create_database("apiatlas_bank_scratch")


def test_load_reports_generated_rows_and_every_routine(bank_db_info: BankDbInfo) -> None:
    generated = generate_bank_data().counts()
    assert {t: n for t, n in bank_db_info.counts.items() if t != "dataset"} == {
        t: n for t, n in generated.items() if t != "dataset"
    }
    assert set(bank_db_info.routines) == {*CORE_APIS, *ROW_FUNCTIONS, *TEST_PROCEDURES}
    assert bank_db_info.loaded and bank_db_info.data_version == data_version()


def test_reload_is_identical_and_reset_false_reuses(bank_db: str, scratch_db: str) -> None:
    first = load_bank_database(scratch_db)
    assert "API_Test_Fail" not in first.routines
    for table in ("person", "account", "account_turn", "deal_security"):
        assert digest(scratch_db, table) == digest(bank_db, table)
    again = load_bank_database(scratch_db, reset=False)
    assert not again.loaded and again == dataclasses.replace(first, loaded=False)
    with_tests = load_bank_database(scratch_db, reset=False, with_test_procedures=True)
    assert with_tests.loaded and "API_Test_Fail" in with_tests.routines


def test_failed_load_leaves_the_database_as_it_was(
    scratch_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = load_bank_database(scratch_db, reset=False)
    for name in (SCHEMA_FILE, TEST_PROCEDURES_FILE):
        shutil.copy(bank_sql_dir() / name, tmp_path / name)
    (tmp_path / PROCEDURES_FILE).write_text(
        "CREATE PROCEDURE api.broken( LANGUAGE plpgsql;", encoding="utf-8"
    )
    monkeypatch.setenv(SQL_DIR_ENV, str(tmp_path))
    with pytest.raises(BankDbError) as caught:
        load_bank_database(scratch_db)
    assert caught.value.code is ReasonCode.SCHEMA_ERROR
    monkeypatch.delenv(SQL_DIR_ENV)
    assert load_bank_database(scratch_db, reset=False).data_version == before.data_version


def test_missing_sql_folder_is_a_config_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SQL_DIR_ENV, str(tmp_path / "nowhere"))
    with pytest.raises(BankDbError) as caught:
        load_bank_database("postgresql://postgres@/postgres?host=/nonexistent")
    assert caught.value.code is ReasonCode.BAD_CONFIG
    assert "nowhere" in str(caught.value.location.file)


def test_unreachable_database_is_reported(tmp_path: Path) -> None:
    with pytest.raises(BankDbError) as caught:
        load_bank_database(f"postgresql://postgres@/postgres?host={tmp_path}&connect_timeout=2")
    assert caught.value.code is ReasonCode.UPSTREAM_UNAVAILABLE


def test_start_is_idempotent_and_uri_needs_a_started_server(embedded_pg: EmbeddedPostgres) -> None:
    assert embedded_pg.start() == embedded_pg.uri
    with psycopg.connect(embedded_pg.uri) as conn:
        row = conn.execute("SELECT current_setting('server_version_num')::int").fetchone()
        assert row is not None and row[0] >= 160000
    idle = EmbeddedPostgres(embedded_pg.data_dir)
    with pytest.raises(EmbeddedPostgresError):
        _ = idle.uri
    idle.stop()  # stopping a never-started handle is a no-op


def test_start_failure_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    with pytest.raises(EmbeddedPostgresError) as caught:
        EmbeddedPostgres(blocker / "pg").start()
    assert caught.value.code is ReasonCode.UPSTREAM_UNAVAILABLE
    assert caught.value.location.file == str(blocker / "pg")


def test_second_process_attaches_and_leaves_the_server_running(embedded_pg: EmbeddedPostgres) -> None:
    script = (
        "from apiatlas.embedded_pg import EmbeddedPostgres\n"
        f"pg = EmbeddedPostgres({str(embedded_pg.data_dir)!r})\n"
        "print(pg.start())\n"
        "pg.stop()\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert out.stdout.strip() == embedded_pg.uri
    with psycopg.connect(embedded_pg.uri) as conn:  # the other process was not the last user: still up
        assert conn.execute("SELECT 1").fetchone() == (1,)


def test_default_data_dir_honours_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "pgdir"))
    assert default_data_dir() == tmp_path / "pgdir"
    monkeypatch.delenv(DATA_DIR_ENV)
    assert default_data_dir().name == "pg"
