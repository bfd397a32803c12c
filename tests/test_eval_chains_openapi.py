"""`eval chains --dataset openapi SPEC CHAINS`: any spec's chains (extra keys ignored), the cases whose
gold writes counted apart, `--writes`, a snapshot compiled beforehand (real compile, real planner)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import apiatlas.commands.eval_chains  # noqa: F401  (registers `eval chains`)
from apiatlas.build import compile_docs
from apiatlas.cli_app import app

NOTES_SPEC = """\
openapi: 3.0.0
info: {title: Notes, version: '1'}
paths:
  /notes:
    get:
      summary: List notes
      description: All notes of the workspace, newest first.
      parameters: [{name: folder_id, in: query, required: true, schema: {type: string}}]
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  notes:
                    type: array
                    items: {type: object, properties: {note_id: {type: string}, title: {type: string}}}
    post:
      summary: Create a note
      description: Write a new note with a title in a folder.
      parameters:
        - {name: folder_id, in: query, required: true, schema: {type: string}}
        - {name: title, in: query, required: true, schema: {type: string}}
      responses: {'201': {description: ok}}
  /notes/{note_id}:
    get:
      summary: Show a note
      description: One note by its id.
      parameters: [{name: note_id, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: ok}}
    delete:
      summary: Delete a note
      parameters: [{name: note_id, in: path, required: true, schema: {type: string}}]
      responses: {'204': {description: ok}}
  /folders:
    get:
      summary: List folders
      description: The folders notes are filed in, with their names.
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  folders:
                    type: array
                    items: {type: object, properties: {folder_id: {type: string}, name: {type: string}}}
"""
CHAINS = [
    {"query": "list the notes of the folder drafts", "solution": ["GET /folders", "GET /notes"], "note": "x"},
    {"query": "create a note titled plan in the folder drafts", "solution": ["GET /folders", "POST /notes"]},
    {"query": "delete the note abc", "solution": ["DELETE /notes/{note_id}"], "note": "a write alone"},
    {"query": "show the note abc", "solution": ["GET /notes/{id}"]},
]


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.setenv("APIATLAS_CACHE", str(tmp_path / "cache"))
    spec, chains = tmp_path / "notes.yaml", tmp_path / "chains.json"
    spec.write_text(NOTES_SPEC, encoding="utf-8")
    chains.write_text(json.dumps(CHAINS), encoding="utf-8")
    return spec, chains


def _eval(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(app, ["eval", "chains", "--dataset", "openapi", *args, "--json"])
    assert result.exit_code == 0, result.output
    report: dict[str, object] = json.loads(result.output)
    return report


def test_chains_whose_gold_writes_are_misses_when_the_planner_plans_reads_only(
    files: tuple[Path, Path],
) -> None:
    spec, chains = files
    report = _eval(str(spec), str(chains))
    assert report["dataset"] == "openapi:notes.yaml"
    every, writes, misses = report["all"], report["writes"], report["misses"]
    assert isinstance(every, dict) and isinstance(writes, dict) and isinstance(misses, list)
    assert every["cases"] == 4 and writes["allowed"] is False and writes["cases_with_write"] == 2
    assert writes["with_write"]["cases"] == 2 and writes["reads_only"]["cases"] == 2
    assert writes["with_write"]["correct_path"] == 0.0 and "count as misses" in writes["note"]
    by_id = {m["id"]: m for m in misses}
    assert by_id["chains:1"]["gold_writes"] == ["POST /notes"]
    assert by_id["chains:2"]["gold_writes"] == ["DELETE /notes/{note_id}"]
    assert all(step.startswith("GET ") for m in misses for step in m["planned"])  # reads only, as served
    # 'GET /notes/{id}' of the gold is the spec's 'GET /notes/{note_id}' (else the run is an error)
    assert all(step != "GET /notes/{id}" for m in misses for step in m["gold"])


def test_eval_chains_writes_lets_the_planner_call_writes(files: tuple[Path, Path]) -> None:
    spec, chains = files
    report = _eval(str(spec), str(chains), "--writes")
    writes, misses = report["writes"], report["misses"]
    assert isinstance(writes, dict) and isinstance(misses, list)
    assert writes["allowed"] is True and "--writes" in writes["note"]
    planned_writes = [s for m in misses for s in m["planned"] if not s.startswith("GET ")]
    assert planned_writes or writes["with_write"]["exact_match"] > 0


def test_eval_chains_plans_on_a_snapshot_compiled_beforehand(
    files: tuple[Path, Path], tmp_path: Path
) -> None:
    spec, chains = files
    snapshot = tmp_path / "notes.atlas"
    compile_docs(spec, overlays_dir=None, config_path=None, out=snapshot, write_report=False)
    fresh, reused = _eval(str(spec), str(chains)), _eval(str(spec), str(chains), "--snapshot", str(snapshot))
    assert reused["misses"] == fresh["misses"]
    other = tmp_path / "other.yaml"
    other.write_text(NOTES_SPEC, encoding="utf-8")
    result = CliRunner().invoke(
        app, ["eval", "chains", "--dataset", "openapi", str(other), str(chains), "--snapshot", str(snapshot)]
    )
    assert result.exit_code == 1 and "was compiled from" in result.output and "notes.yaml" in result.output


def test_eval_chains_text_output_says_how_writes_were_counted(files: tuple[Path, Path]) -> None:
    spec, chains = files
    result = CliRunner().invoke(
        app, ["eval", "chains", "--dataset", "openapi", str(spec), str(chains), "--misses"]
    )
    assert result.exit_code == 0, result.output
    assert "with write: 2 cases" in result.output and "reads only: 2 cases" in result.output
    assert "gold writes: DELETE /notes/{note_id}" in result.output


def test_a_chain_naming_no_operation_of_the_spec_is_a_clear_error(files: tuple[Path, Path]) -> None:
    spec, chains = files
    chains.write_text(
        json.dumps([{"query": "drop the tags", "solution": ["DELETE /tags"]}]), encoding="utf-8"
    )
    result = CliRunner().invoke(app, ["eval", "chains", "--dataset", "openapi", str(spec), str(chains)])
    assert result.exit_code == 1
    assert "chain 0 ('drop the tags'): the spec has no operation DELETE /tags" in result.output


def test_openapi_chains_need_a_spec_and_chains_and_writes_need_openapi(files: tuple[Path, Path]) -> None:
    spec, _ = files
    one = CliRunner().invoke(app, ["eval", "chains", "--dataset", "openapi", str(spec)])
    assert one.exit_code == 2 and "openapi takes two files: SPEC CHAINS" in one.output
    bank = CliRunner().invoke(app, ["eval", "chains", "--dataset", "bank", "--writes"])
    assert bank.exit_code == 2 and "--snapshot and --writes are for --dataset openapi" in bank.output
