"""Atomic outputs: a refused, failed or interrupted build leaves the previous files byte-identical."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from apiatlas import atomic
from apiatlas.cli import app

BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _temps(folder: Path) -> list[str]:
    names = (p.name for p in folder.iterdir())
    return sorted(n for n in names if n.endswith(atomic.TEMP_SUFFIX) or "journal" in n)


def test_fail_on_error_keeps_the_previous_snapshot_and_report(tmp_path: Path) -> None:
    out, report = tmp_path / "prev.atlas", tmp_path / "prev.report.md"
    good = CliRunner().invoke(app, ["compile", str(BANK / "docs"), "-o", str(out), "--embeddings", "none"])
    assert good.exit_code == 0, good.output
    before = (_sha(out), _sha(report))
    docs = tmp_path / "docs"
    shutil.copytree(BANK / "docs", docs)
    (docs / "BObjects" / "Services" / "API_Broken_FindAll.htm").write_bytes(b"")
    failed = CliRunner().invoke(
        app, ["compile", str(docs), "-o", str(out), "--embeddings", "none", "--fail-on-error"]
    )
    assert failed.exit_code == 1
    assert "left as it was" in failed.stderr
    assert (_sha(out), _sha(report)) == before
    assert _temps(tmp_path) == []


def test_a_failing_writer_leaves_the_target_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "state.json"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(RuntimeError), atomic.staged(target) as tmp:
        tmp.write_text("half", encoding="utf-8")
        raise RuntimeError("disk full")
    assert target.read_text(encoding="utf-8") == "old"
    assert _temps(tmp_path) == []
    atomic.write_text(target, "new")
    assert target.read_text(encoding="utf-8") == "new"
    assert _temps(tmp_path) == []


def test_drift_report_pair_is_written_together(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from apiatlas import drift

    out = tmp_path / "drift.md"
    out.write_text("old", encoding="utf-8")
    (tmp_path / "drift.json").write_text("{}", encoding="utf-8")

    def disk_full(*args: object, **kwargs: object) -> str:
        raise OSError("disk full")

    monkeypatch.setattr(drift.json, "dumps", disk_full)  # the Markdown is written, the JSON fails
    with pytest.raises(OSError):
        drift.write_drift_report(drift.DriftReport(), out)
    assert out.read_text(encoding="utf-8") == "old"
    assert (tmp_path / "drift.json").read_text(encoding="utf-8") == "{}"
    assert _temps(tmp_path) == []


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_mid_compile_keeps_the_previous_snapshot(tmp_path: Path, signum: int) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}
    cli = [sys.executable, "-m", "apiatlas.cli"]
    docs = tmp_path / "docs"
    subprocess.run([*cli, "gen-docs", str(docs), "--apis", "2000"], env=env, check=True, capture_output=True)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    out = out_dir / "prev.atlas"
    out.write_bytes(b"previous snapshot bytes")
    (out_dir / "prev.report.md").write_text("previous report", encoding="utf-8")
    before = (_sha(out), _sha(out_dir / "prev.report.md"))
    proc = subprocess.Popen(
        [*cli, "compile", str(docs), "-o", str(out), "--embeddings", "none"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while not _temps(out_dir) and time.monotonic() < deadline:  # the staging files exist: parsing began
        time.sleep(0.05)
    assert _temps(out_dir), "the compile never started"
    time.sleep(0.3)  # well inside the parse of 2,000 APIs
    assert proc.poll() is None, "the compile finished before the signal"
    proc.send_signal(signum)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode != 0
    assert b"interrupted" in stderr
    assert (_sha(out), _sha(out_dir / "prev.report.md")) == before
    assert _temps(out_dir) == []
