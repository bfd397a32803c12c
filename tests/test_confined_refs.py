"""Confined references: $ref, overlays and pages never read a file outside the source's folder."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from apiatlas.build import compile_docs
from apiatlas.cli import app
from apiatlas.errors import ReasonCode, SourceError
from apiatlas.sources import load_source
from apiatlas.sources.overlay_files import read_overlays

SECRET = "TOP-SECRET-OUTSIDE-THE-SPEC"
BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"


def _spec(ref: str) -> dict[str, Any]:
    body = {"application/json": {"schema": {"$ref": ref}}}
    return {
        "openapi": "3.0.3",
        "info": {"title": "Pets", "version": "1"},
        "paths": {
            "/pets": {
                "get": {
                    "operationId": "listPets",
                    "responses": {"200": {"description": "ok", "content": body}},
                }
            }
        },
    }


@pytest.fixture()
def outside(tmp_path: Path) -> Path:
    folder = tmp_path / "outside"
    folder.mkdir()
    secret = {"x": {"type": "object", "description": SECRET, "properties": {"leak": {"type": "string"}}}}
    (folder / "secret.json").write_text(json.dumps(secret), encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    "ref",
    [
        "{outside}/secret.json#/x",  # absolute path
        "../outside/secret.json#/x",  # .. escape
        "link.json#/x",  # a symlink in the spec folder leading out
        "https://example.invalid/secret.json#/x",  # URL
        "file://{outside}/secret.json#/x",  # file URL
        "/etc/passwd",
    ],
)
def test_a_ref_outside_the_spec_folder_is_a_located_error_and_never_read(
    tmp_path: Path, outside: Path, ref: str
) -> None:
    spec_dir = tmp_path / "spec"
    spec_dir.mkdir()
    os.symlink(outside / "secret.json", spec_dir / "link.json")
    root = spec_dir / "api.json"
    root.write_text(json.dumps(_spec(ref.format(outside=outside))), encoding="utf-8")
    catalog = load_source(root, kind="openapi")
    [finding] = [d for d in catalog.diagnostics if d.code is ReasonCode.REF_OUTSIDE_SOURCE]
    assert finding.location.file == "api.json" and finding.location.anchor == "GET /pets"
    out = tmp_path / "pets.atlas"
    compile_docs(root, overlays_dir=None, config_path=None, out=out, embeddings="none")
    assert SECRET.encode() not in out.read_bytes()
    assert b"root:" not in out.read_bytes()
    assert set(catalog.source_files) == {"api.json"}


def test_a_ref_inside_the_spec_folder_still_resolves(tmp_path: Path) -> None:
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "pet.json").write_text(
        json.dumps({"pet": {"type": "object", "properties": {"name": {"type": "string"}}}}), encoding="utf-8"
    )
    root = tmp_path / "api.json"
    root.write_text(json.dumps(_spec("schemas/pet.json#/pet")), encoding="utf-8")
    catalog = load_source(root, kind="openapi")
    assert not [d for d in catalog.diagnostics if d.code is ReasonCode.REF_OUTSIDE_SOURCE]
    assert [c.name for c in catalog.apis["GET /pets"].output_tables[0].columns] == ["name"]


def test_an_overlay_linked_from_outside_is_not_read(tmp_path: Path, outside: Path) -> None:
    overlays = tmp_path / "overlays"
    overlays.mkdir()
    (outside / "API_Prs_FindByID.md").write_text(f"## When to use\n{SECRET}\n", encoding="utf-8")
    os.symlink(outside / "API_Prs_FindByID.md", overlays / "API_Prs_FindByID.md")
    found, diagnostics = read_overlays(overlays)
    assert found == {}
    assert [d.code for d in diagnostics] == [ReasonCode.REF_OUTSIDE_SOURCE]


def test_a_documentation_page_linked_from_outside_is_not_read(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    shutil.copytree(BANK / "docs", docs)
    page = next((docs / "BObjects").rglob("API_*.htm"))
    moved = tmp_path / "elsewhere.htm"
    shutil.move(page, moved)
    os.symlink(moved, page)
    catalog = load_source(docs, kind="bank_html")
    [finding] = [d for d in catalog.diagnostics if d.code is ReasonCode.REF_OUTSIDE_SOURCE]
    assert finding.location.file is not None and page.name in finding.location.file


def test_a_truncated_json_spec_says_where_it_broke(tmp_path: Path) -> None:
    full = json.dumps(dict(sorted(_spec("#/x").items())), indent=1)  # 'openapi' after 'info' and 'paths'
    cut = tmp_path / "api.json"
    cut.write_text(full[: len(full) // 3], encoding="utf-8")
    with pytest.raises(SourceError, match=r"invalid JSON at line \d+ column \d+") as caught:
        load_source(cut)
    assert caught.value.location.file == "api.json" and caught.value.location.line
    result = CliRunner().invoke(app, ["compile", str(cut), "-o", str(tmp_path / "x.atlas")])
    assert result.exit_code == 1
    assert "not a source apiatlas recognises" not in result.stderr
    assert "line" in result.stderr and "column" in result.stderr
