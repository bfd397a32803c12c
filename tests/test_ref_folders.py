"""The build config's ``ref_folders``: a ``$ref`` may read an allowed folder, nothing else outside."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from apiatlas.build import CompileResult, compile_docs
from apiatlas.cli import app
from apiatlas.errors import ConfigError, ReasonCode

SECRET = "TOP-SECRET-OUTSIDE-EVERY-ALLOWED-FOLDER"


def _spec(*refs: str) -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for index, ref in enumerate(refs):
        body = {"application/json": {"schema": {"$ref": ref}}}
        paths[f"/things{index}"] = {
            "get": {
                "operationId": f"list{index}",
                "responses": {"200": {"description": "ok", "content": body}},
            }
        }
    return {"openapi": "3.0.3", "info": {"title": "Things", "version": "1"}, "paths": paths}


@pytest.fixture()
def layout(tmp_path: Path) -> Path:
    """spec/ (the spec), shared/ (allowed by the config), outside/ (never allowed), build.yaml."""
    for name in ("spec", "shared", "outside"):
        (tmp_path / name).mkdir()
    pet = {"pet": {"type": "object", "properties": {"name": {"type": "string"}}}}
    (tmp_path / "shared" / "pet.json").write_text(json.dumps(pet), encoding="utf-8")
    secret = {"x": {"type": "object", "description": SECRET, "properties": {"leak": {"type": "string"}}}}
    (tmp_path / "outside" / "secret.json").write_text(json.dumps(secret), encoding="utf-8")
    os.symlink(tmp_path / "outside" / "secret.json", tmp_path / "shared" / "link.json")
    (tmp_path / "build.yaml").write_text("ref_folders: [shared]\n", encoding="utf-8")
    return tmp_path


def _compile(layout: Path, config: Path | None, *refs: str) -> CompileResult:
    root = layout / "spec" / "api.json"
    root.write_text(json.dumps(_spec(*refs)), encoding="utf-8")
    out = layout / "things.atlas"
    return compile_docs(root, overlays_dir=None, config_path=config, out=out, embeddings="none")


def _outside(result: CompileResult) -> list[str]:
    return [
        d.location.anchor or "" for d in result.catalog.diagnostics if d.code is ReasonCode.REF_OUTSIDE_SOURCE
    ]


def test_a_ref_into_an_allowed_folder_resolves(layout: Path) -> None:
    result = _compile(layout, layout / "build.yaml", "../shared/pet.json#/pet")
    assert _outside(result) == []
    [api] = result.catalog.apis.values()
    assert [c.name for c in api.output_tables[0].columns] == ["name"]
    # the file is hashed as a source, named relative to the spec (not by this machine's absolute path)
    assert "../shared/pet.json" in result.catalog.source_files
    assert result.manifest.options["build_config"]["ref_folders"] == ["shared"]


def test_the_same_ref_without_the_config_is_refused(layout: Path) -> None:
    assert _outside(_compile(layout, None, "../shared/pet.json#/pet")) == ["GET /things0"]


@pytest.mark.parametrize(
    "ref",
    [
        "../outside/secret.json#/x",  # a folder the config does not name
        "../shared/link.json#/x",  # a symlink in the allowed folder leading out
        "../shared/../outside/secret.json#/x",  # through the allowed folder and out again
        "{root}/shared/pet.json#/pet",  # absolute, even into the allowed folder: refs stay relative
    ],
)
def test_outside_every_allowed_folder_is_still_ref_outside_source(layout: Path, ref: str) -> None:
    result = _compile(layout, layout / "build.yaml", "../shared/pet.json#/pet", ref.format(root=layout))
    assert _outside(result) == ["GET /things1"]
    assert SECRET.encode() not in (layout / "things.atlas").read_bytes()
    assert not any("secret" in name or "link" in name for name in result.catalog.source_files)


def test_a_missing_ref_folder_is_a_located_config_error(layout: Path) -> None:
    config = layout / "bad.yaml"
    config.write_text("ref_folders: [shared, nowhere]\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        _compile(layout, config, "../shared/pet.json#/pet")
    assert caught.value.code is ReasonCode.BAD_CONFIG
    assert caught.value.location.anchor == "ref_folders.1" and caught.value.location.file == str(config)
    spec = str(layout / "spec" / "api.json")
    done = CliRunner().invoke(app, ["compile", spec, "-o", str(layout / "x.atlas"), "--config", str(config)])
    assert done.exit_code == 2 and not (layout / "x.atlas").exists()
    [line] = [line for line in done.output.splitlines() if "nowhere" in line]  # one located line
    assert line.startswith("error: BAD_CONFIG:") and "ref_folders.1" in line
