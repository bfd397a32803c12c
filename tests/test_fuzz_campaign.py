"""The fuzz campaign on the sample bank: a seeded 500-call subset over stdio and HTTP finds no fault."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
import pytest
from typer.testing import CliRunner

from apiatlas.cli import app
from apiatlas.fuzz.arguments import schema_examples
from apiatlas.fuzz.campaign import FuzzReport, run_fuzz
from apiatlas.fuzz.database import changes, fingerprint

BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def bank_snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("fuzz") / "bank.atlas"
    result = CliRunner().invoke(app, ["compile", str(BANK / "docs"), "-o", str(out), "--embeddings", "none"])
    assert result.exit_code == 0, result.output
    return out


def test_schema_examples_are_valid_and_seeded() -> None:
    schema = {
        "type": "object",
        "properties": {
            "query": {"type": "string"},
            "limit": {"type": "integer", "minimum": 1, "maximum": 100},
        },
        "required": ["query"],
    }
    first, again = schema_examples(schema, 30, seed=5), schema_examples(schema, 30, seed=5)
    assert first == again and len(first) >= 10
    assert all(isinstance(e["query"], str) and 1 <= e.get("limit", 1) <= 100 for e in first)


def test_the_fingerprint_sees_a_change(bank_db: str) -> None:
    before = fingerprint(bank_db)
    with psycopg.connect(bank_db, autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS public.fuzz_probe (n int)")
        conn.execute("INSERT INTO public.fuzz_probe VALUES (1)")
    try:
        assert changes(before, fingerprint(bank_db)) == ["public.fuzz_probe"]
    finally:
        with psycopg.connect(bank_db, autocommit=True) as conn:
            conn.execute("DROP TABLE public.fuzz_probe")
    assert changes(before, fingerprint(bank_db)) == []


def test_a_failed_report_fails() -> None:
    assert not FuzzReport(seed=0, snapshot="x").failed
    assert FuzzReport(seed=0, snapshot="x", unknown_shapes=1).failed
    assert FuzzReport(seed=0, snapshot="x", db_changes=["bank.person"]).failed


def test_500_seeded_calls_find_no_fault(bank_snapshot: Path, bank_db: str) -> None:
    report = run_fuzz(bank_snapshot, bank_db, calls=500, seed=22)
    assert report.calls == 500 and report.by_transport == {"stdio": 250, "http": 250}
    assert report.tables_checked > 5
    assert {"schema", "hostile", "protocol"} <= set(report.by_source)
    assert (report.crashes, report.hangs, report.unknown_shapes, report.oversized_answers) == (0, 0, 0, 0), (
        report.failures
    )
    assert report.db_changes == []
    assert report.reasons.get("INVALID_ARGUMENT", 0) > 0 and report.reasons.get("ok", 0) > 0


def test_the_cli_prints_the_report(bank_snapshot: Path, bank_db: str) -> None:
    result = CliRunner().invoke(
        app, ["bench", "fuzz", str(bank_snapshot), "--db", bank_db, "--calls", "40", "--seed", "1", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["calls"] == 40 and data["failed"] is False and data["seed"] == 1
