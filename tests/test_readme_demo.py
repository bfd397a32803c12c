"""The README's commands: the demo runs from a clean clone, and CI runs the README's test command."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


def test_readme_names_the_two_commands_and_ci_runs_the_test_one() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "./run demo" in readme and "./run test" in readme
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^exec \./run test\b", ci, re.MULTILINE), ci
    run = (REPO / "run").read_text(encoding="utf-8")
    assert '"$venv/bin/pytest"' in run and '"$venv/bin/ruff" check' in run and '"$venv/bin/mypy"' in run


@pytest.mark.skipif(shutil.which("git") is None or not (REPO / ".git").exists(), reason="not a git checkout")
def test_demo_from_a_clean_clone(tmp_path: Path) -> None:
    """Clone the committed tree and run ``apiatlas demo`` from the clone's own sources and examples."""
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True)
    env = {**os.environ, "PYTHONPATH": str(clone / "src"), "COLUMNS": "160"}
    env.pop("APIATLAS_DB_URL", None)
    done = subprocess.run(
        [sys.executable, "-m", "apiatlas.cli", "demo", "--workdir", str(tmp_path / "work")],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = done.stdout
    assert done.returncode == 0, out[-4000:] + done.stderr[-4000:]
    # the compile used the clone's own documentation
    assert str(clone / "examples" / "bank" / "docs") in out.replace("\n", "")
    # Михалов's securities deals came back through the chain in one call
    assert re.search(r"step 3 API_DealSecurity_FindListByID: ok, [1-9]\d* row", out), out[-3000:]
    # the Ivanov ambiguity is surfaced, not hidden
    assert "15 clients match" in out
    # the server ran as the reader login, which the database refuses a direct table read
    assert re.search(r"as atlas_reader, SELECT \* FROM \S+: permission denied", out), out[-3000:]
    # the balance of his account was answered, and the client snippet names the snapshot
    assert "pAPI_Account_Rest: 1 row" in out
    # the assistant's conversation: a client, his accounts, their balance, an ambiguous name clarified
    assert out.count("FULLY_ANSWERED") >= 4 and "BLOCKED_BY_AMBIGUITY" in out, out[-3000:]
    assert '"mcpServers"' in out and str(tmp_path / "work" / "bank.atlas") in out.replace("\n", "")
