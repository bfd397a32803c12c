"""A bank API whose table page is truncated is kept for navigation but not callable, and fails the build."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from mcp.client import Client
from typer.testing import CliRunner

from apiatlas.cli import app
from apiatlas.errors import ReasonCode
from apiatlas.snapshot import Snapshot
from test_server_execution import call, run_with_db

BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"
PAGE = "T_API_Prs_FindListByFIO_pAPI_Person_FindList.htm"


@pytest.fixture(scope="module")
def cut_docs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    docs = tmp_path_factory.mktemp("cut") / "docs"
    shutil.copytree(BANK / "docs", docs)
    [page] = docs.rglob(PAGE)
    data = page.read_bytes()
    page.write_bytes(data[: len(data) // 3])
    return docs


def test_the_compile_reports_the_incomplete_contract_as_an_error(cut_docs: Path, tmp_path: Path) -> None:
    out = tmp_path / "cut.atlas"
    failed = CliRunner().invoke(
        app, ["compile", str(cut_docs), "-o", str(out), "--embeddings", "none", "--fail-on-error"]
    )
    assert failed.exit_code == 1 and not out.exists()
    assert "INCOMPLETE_CONTRACT" in failed.stdout
    kept = CliRunner().invoke(app, ["compile", str(cut_docs), "-o", str(out), "--embeddings", "none"])
    assert kept.exit_code == 0, kept.output
    with Snapshot.open(out) as snap:
        [finding] = [d for d in snap.diagnostics("error") if d.code is ReasonCode.INCOMPLETE_CONTRACT]
        assert finding.location.file is not None and finding.location.file.endswith(PAGE)
        assert finding.location.anchor == "API_Prs_FindListByFIO#pAPI_Person_FindList"
        api = snap.get_api("API_Prs_FindListByFIO")
        assert api is not None and api.funnel.kept and api.incomplete_contract
        assert "truncated" in api.incomplete_contract


@pytest.mark.slow
def test_the_incomplete_api_is_described_but_not_executed(
    cut_docs: Path, tmp_path: Path, bank_db: str
) -> None:
    out = tmp_path / "cut.atlas"
    assert (
        CliRunner().invoke(app, ["compile", str(cut_docs), "-o", str(out), "--embeddings", "none"]).exit_code
        == 0
    )

    async def body(client: Client) -> None:
        described = await call(client, "describe_api", {"api": "API_Prs_FindListByFIO"})
        assert described["status"] == "ok" and described["reason"] == "NOT_EXECUTABLE"
        assert "INCOMPLETE_CONTRACT" in json.dumps(described, ensure_ascii=False)
        refused = await call(
            client, "execute_api", {"api": "API_Prs_FindListByFIO", "args": {"SurName": "Иванов"}}
        )
        assert refused["status"] == "error" and refused["reason"] == "NOT_EXECUTABLE"
        assert "INCOMPLETE_CONTRACT" in refused["message"]
        other = await call(client, "execute_api", {"api": "API_Prs_FindByID", "args": {"PersonID": 1}})
        assert other["reason"] != "NOT_EXECUTABLE"  # a complete API of the same snapshot still runs

    run_with_db(out, bank_db, body)
