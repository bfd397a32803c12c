"""Snapshot.open refuses what is not a snapshot of this format, with a reason code and the path."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from apiatlas.errors import ReasonCode, SnapshotError
from apiatlas.snapshot import Snapshot, write_snapshot
from test_snapshot_catalog import mini_catalog


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(SnapshotError) as info:
        Snapshot.open(tmp_path / "nope.atlas")
    assert info.value.code is ReasonCode.SNAPSHOT_NOT_FOUND
    assert info.value.location.file == str(tmp_path / "nope.atlas")


def test_garbage_file(tmp_path: Path) -> None:
    path = tmp_path / "garbage.atlas"
    path.write_bytes(b"this is not a database at all\n" * 200)
    with pytest.raises(SnapshotError) as info:
        Snapshot.open(path)
    assert info.value.code is ReasonCode.SNAPSHOT_CORRUPT


def test_sqlite_file_that_is_not_a_snapshot(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t(x)")
    conn.commit()
    conn.close()
    with pytest.raises(SnapshotError) as info:
        Snapshot.open(path)
    assert info.value.code is ReasonCode.SNAPSHOT_CORRUPT


def test_wrong_format_version(tmp_path: Path) -> None:
    path = tmp_path / "old.atlas"
    write_snapshot(mini_catalog(), path, options={})
    conn = sqlite3.connect(path)
    conn.execute("UPDATE manifest SET value = '999' WHERE key = 'format_version'")
    conn.commit()
    conn.close()
    with pytest.raises(SnapshotError) as info:
        Snapshot.open(path)
    assert info.value.code is ReasonCode.SNAPSHOT_VERSION_MISMATCH
    assert "999" in info.value.message


def test_output_folder_must_exist(tmp_path: Path) -> None:
    with pytest.raises(SnapshotError) as info:
        write_snapshot(mini_catalog(), tmp_path / "no" / "such" / "bank.atlas", options={})
    assert info.value.code is ReasonCode.INVALID_ARGUMENT
