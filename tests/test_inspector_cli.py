"""The MCP Inspector CLI against ``apiatlas serve`` of the compiled sample bank: strict schemas, calls."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

BANK_DOCS = Path(__file__).resolve().parents[1] / "examples" / "bank" / "docs"
TOOLS = {
    "list_business_objects", "list_apis", "describe_api", "search",
    "dependency_chain", "plan_chain", "execute_api", "execute_chain", "fetch_evidence", "get_playbook",
}  # fmt: skip


def inspector() -> str:
    path = os.environ.get("APIATLAS_INSPECTOR")
    if not path:
        pytest.skip("APIATLAS_INSPECTOR is not set (./run test installs the MCP Inspector and sets it)")
    return path


@pytest.fixture(scope="module")
def bank_snap(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("inspector") / "bank.atlas"
    done = subprocess.run(
        [sys.executable, "-m", "apiatlas.cli", "compile", str(BANK_DOCS), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr + done.stdout
    return out


def run_inspector(
    snap: Path, *method: str, db: str | None = None
) -> tuple[subprocess.CompletedProcess[str], Any]:
    serve = [sys.executable, "-m", "apiatlas.cli", "serve", str(snap), *(["--db", db] if db else [])]
    env = {k: v for k, v in os.environ.items() if k != "APIATLAS_DB_URL"}
    done = subprocess.run(
        [inspector(), "--cli", "--connect-timeout", "120000", *method, "--format", "json", *serve],
        capture_output=True,
        text=True,
        timeout=180,
        env=env,
    )
    return done, json.loads(done.stdout) if done.stdout.strip() else None


def test_tools_list_passes_the_strict_schema_check(bank_snap: Path) -> None:
    done, envelope = run_inspector(bank_snap, "--method", "tools/list", "--strict")
    assert done.returncode == 0, done.stderr[-3000:]
    tools = {t["name"]: t for t in envelope["result"]["tools"]}
    assert set(tools) == {f"bank_{name}" for name in TOOLS}
    for tool in tools.values():
        first, _, second = tool["description"].partition(". ")
        assert first and second.startswith("Use when"), tool["description"]
        assert set(tool["annotations"]) >= {
            "readOnlyHint",
            "destructiveHint",
            "idempotentHint",
            "openWorldHint",
        }
        assert tool["inputSchema"]["type"] == "object" and tool["outputSchema"]["type"] == "object"
    findings = envelope.get("schemaFindings", [])
    assert all(f["severity"] != "error" for item in findings for f in item["findings"])


def test_tools_call_search_answers_structured_content(bank_snap: Path) -> None:
    done, envelope = run_inspector(
        bank_snap,
        "--method",
        "tools/call",
        "--tool-name",
        "bank_search",
        "--tool-arg",
        "query=API_Acc_GetRest",
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = envelope["result"]
    assert result.get("isError") is not True
    hit = result["structuredContent"]["hits"][0]
    assert hit["api_key"] == "API_Acc_GetRest" and hit["exact"] is True


@pytest.mark.slow
def test_tools_call_execute_api_runs_on_the_sample_bank(bank_snap: Path, bank_db: str) -> None:
    done, envelope = run_inspector(
        bank_snap,
        "--method", "tools/call", "--tool-name", "bank_execute_api",
        "--tool-arg", "api=API_Prs_FindListByFIO", 'args={"SurName": "Михалов"}',
        db=bank_db,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    answer = envelope["result"]["structuredContent"]
    assert answer["status"] == "ok" and answer["evidence_id"], answer
    table = answer["tables"][0]
    surnames = {row[table["columns"].index("SurName")] for row in table["rows"]}
    assert surnames == {"Михалов"}
