"""``apiatlas bench compile --json`` on a small generated set: every figure present and consistent."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from apiatlas.cli import app
from apiatlas.snapshot import Snapshot


def test_bench_compile_json_figures(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["bench", "compile", "--apis", "120", "--json", "--runs", "1", "--keep", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    f = json.loads(result.stdout)
    assert f["apis"] == 120
    assert f["deterministic"] is True
    assert set(f["compile_stages_s"]) >= {"parse", "passes", "snapshot", "report"}
    assert f["compile_s"] >= sum(f["compile_stages_s"].values()) * 0.99
    assert f["funnel"][0] == ["parsed", 120]
    assert f["info_subprocess_s"] > 0 and f["open_manifest_ms"] > 0
    snap = tmp_path / "bench.atlas"
    assert f["snapshot_bytes"] == snap.stat().st_size
    with Snapshot.open(snap) as s:
        assert s.counts()["kept_apis"] == f["kept_apis"]
        assert s.counts()["edges"] == f["edges"]
    assert (tmp_path / "docs" / "BObjects").is_dir()
