"""Database sources through the CLI: compile a .sql folder and a postgresql:// URL, and apiatlas drift."""

from __future__ import annotations

import json
from pathlib import Path

import psycopg
from typer.testing import CliRunner

from apiatlas.cli import app
from apiatlas.embedded_pg import EmbeddedPostgres
from apiatlas.samples.bankdb import load_bank_database
from apiatlas.snapshot import Snapshot

runner = CliRunner()
MINI = Path(__file__).parent / "data" / "dbsource" / "mini_project"
BANK_DOCS = Path(__file__).resolve().parents[1] / "examples" / "bank" / "docs"


def test_compile_a_sql_project_keeps_every_routine(tmp_path: Path) -> None:
    out = tmp_path / "shop.atlas"
    result = runner.invoke(app, ["compile", str(MINI), "-o", str(out)])
    assert result.exit_code == 0, result.output
    with Snapshot.open(out) as snap:
        assert snap.manifest()["source_kind"] == "mssql_ddl"
        assert set(snap.all_api_keys()) == {
            "Shop.FindItems",
            "Shop.AddItems",
            "Shop.RunAnything",
            "Shop.CallsAdd",
        }
        found = snap.get_api("Shop.FindItems")
        assert found is not None and found.funnel.kept and found.title == "Find items by name."


def test_compile_a_postgresql_url_with_patterns(embedded_pg: EmbeddedPostgres, tmp_path: Path) -> None:
    uri = embedded_pg.create_database("apiatlas_cli_pg")
    with psycopg.connect(uri, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA IF NOT EXISTS shop")
        conn.execute("CREATE OR REPLACE FUNCTION shop.add(a integer, b integer DEFAULT 1) RETURNS integer "
                     "LANGUAGE sql IMMUTABLE AS $$ SELECT a + b $$")  # fmt: skip
        conn.execute(
            "CREATE OR REPLACE FUNCTION shop.hidden() RETURNS integer LANGUAGE sql AS $$ SELECT 1 $$"
        )
    out = tmp_path / "shop.atlas"
    result = runner.invoke(app, ["compile", uri + "#include=shop&exclude=shop.hidden", "-o", str(out)])
    assert result.exit_code == 0, result.output
    with Snapshot.open(out) as snap:
        assert list(snap.all_api_keys()) == ["shop.add"]
        api = snap.get_api("shop.add")
        assert api is not None and [(p.name, p.required, p.default) for p in api.params] == [
            ("a", True, None),
            ("b", False, 1),
        ]
    refused = runner.invoke(app, ["compile", "postgresql://me:secret@db.invalid/x", "-o", str(out)])
    assert refused.exit_code == 2 and "PGPASSWORD" in refused.output  # a configuration mistake


def test_drift_command_writes_both_reports(embedded_pg: EmbeddedPostgres, tmp_path: Path) -> None:
    uri = embedded_pg.create_database("apiatlas_cli_drift")
    with psycopg.connect(uri) as conn:
        loaded = conn.execute("SELECT count(*) FROM pg_namespace WHERE nspname = 'api'").fetchone() == (1,)
    if not loaded:
        load_bank_database(uri, with_test_procedures=False)
    out = tmp_path / "drift.md"
    result = runner.invoke(
        app,
        [
            "drift",
            str(BANK_DOCS),
            uri + "#include=api",
            "-o",
            str(out),
            "--snapshot",
            str(tmp_path / "m.atlas"),
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    kinds = {c["kind"] for c in data["cases"]}
    # the full documentation describes far more APIs than the sample database implements
    assert data["matched"] >= 15 and "missing_in_database" in kinds
    assert {c["api"] for c in data["cases"] if c["kind"] == "undocumented"} == {
        "api.API_Acc_GetRestHistory",
        "api.API_Crncy_GetRateList",
    }
    assert "| missing_in_database |" in out.read_text(encoding="utf-8")
    with Snapshot.open(tmp_path / "m.atlas") as snap:
        fio = snap.get_api("API_Prs_FindListByFIO")
        assert fio is not None and fio.executor.target == '"api"."API_Prs_FindListByFIO"'
