"""The info, export and compile commands through typer's CliRunner: output, files written, clear failures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from apiatlas.cli import app
from apiatlas.snapshot import write_snapshot
from test_snapshot_catalog import mini_catalog

runner = CliRunner()


@pytest.fixture()
def snapshot_path(tmp_path: Path) -> Path:
    path = tmp_path / "bank.atlas"
    write_snapshot(mini_catalog(), path, options={"source": "examples/bank/docs", "overlays": None})
    return path


def test_info_json_is_the_manifest(snapshot_path: Path) -> None:
    result = runner.invoke(app, ["info", str(snapshot_path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["counts"]["kept_apis"] == 5
    assert data["source_root"] == "examples/bank/docs"
    assert [s["count"] for s in data["funnel"]["stages"]] == [7, 6, 5]
    assert data["graph"]["by_level"]["declared"] == 1


def test_info_tables(snapshot_path: Path) -> None:
    result = runner.invoke(app, ["info", str(snapshot_path), "--files"])
    assert result.exit_code == 0, result.output
    for title in ("Snapshot", "Counts", "Funnel", "Graph", "Source files"):
        assert title in result.stdout
    assert "examples/bank/docs" in result.stdout
    assert "BObjects/BO_Person.htm" in result.stdout


def test_info_on_a_missing_snapshot_fails_clearly(tmp_path: Path) -> None:
    result = runner.invoke(app, ["info", str(tmp_path / "nope.atlas")])
    assert result.exit_code == 1
    assert "SNAPSHOT_NOT_FOUND" in result.stderr


def test_export_writes_one_file_per_entity(snapshot_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "review"
    result = runner.invoke(app, ["export", str(snapshot_path), str(out)])
    assert result.exit_code == 0, result.output
    assert "4 objects, 7 APIs, 6 tables" in result.stdout
    objects = sorted(p.name for p in (out / "objects").iterdir())
    assert objects == ["Acc.json", "DSec.json", "Old.json", "Prs.json"]  # Old has no kept API
    assert len(list((out / "apis").iterdir())) == 7  # dropped APIs too, with their funnel verdict
    api = json.loads((out / "apis" / "API_Acc_Close.json").read_text(encoding="utf-8"))
    assert api["funnel"]["kept"] is False
    table_file = out / "tables" / "API_Acc_FindListByListOwnerID.in.pAPI_Account_OwnerID.json"
    text = table_file.read_text(encoding="utf-8")
    assert "ID владельца счёта" in text  # UTF-8, not \u escapes
    assert json.loads(text)["api"] == "API_Acc_FindListByListOwnerID"
    assert list(json.loads(text)) == sorted(json.loads(text))  # sorted keys


def test_export_file_names_are_portable_and_distinct() -> None:
    from apiatlas.commands.export import file_name

    assert file_name("API_Prs_FindByID") == "API_Prs_FindByID.json"
    a, b = file_name("GET /person/{id}"), file_name("GET /person/id")
    assert a != b
    assert a.startswith("GET_person_id-") and "/" not in a and "{" not in a


def test_export_is_stable(snapshot_path: Path, tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    runner.invoke(app, ["export", str(snapshot_path), str(a)])
    runner.invoke(app, ["export", str(snapshot_path), str(b)])
    files_a = sorted(p.relative_to(a) for p in a.rglob("*.json"))
    assert files_a == sorted(p.relative_to(b) for p in b.rglob("*.json"))
    assert all((a / f).read_bytes() == (b / f).read_bytes() for f in files_a)


def test_compile_missing_folder_fails_clearly(tmp_path: Path) -> None:
    result = runner.invoke(app, ["compile", str(tmp_path / "nodocs"), "-o", str(tmp_path / "x.atlas")])
    assert result.exit_code == 1
    assert "documentation folder not found" in result.stderr
    assert not (tmp_path / "x.atlas").exists()


def test_compile_of_a_folder_with_no_api_pages_fails_clearly(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "BObjects").mkdir(parents=True)
    result = runner.invoke(app, ["compile", str(docs), "-o", str(tmp_path / "x.atlas")])
    assert result.exit_code == 1
    assert "nothing parsed" in result.stderr
    assert not (tmp_path / "x.atlas").exists()


def test_compile_with_missing_overlay_folder_fails_clearly(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "BObjects").mkdir(parents=True)
    result = runner.invoke(
        app, ["compile", str(docs), "--overlays", str(tmp_path / "none"), "-o", str(tmp_path / "x.atlas")]
    )
    assert result.exit_code == 1
    assert "overlay folder not found" in result.stderr
