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


def test_bench_compile_sizes_side_by_side(tmp_path: Path) -> None:
    """Several --apis: one metered fresh-process compile each, per pass time, CPU and peak memory."""
    args = ["bench", "compile", "--apis", "40", "--apis", "80", "--embeddings", "none", "--runs", "1"]
    result = CliRunner().invoke(app, [*args, "--json", "--keep", str(tmp_path)])
    assert result.exit_code == 0, result.output
    small, large = json.loads(result.stdout)
    assert (small["apis"], large["apis"]) == (40, 80)
    for f in (small, large):
        assert f["embeddings"] == "none" and f["deterministic"] is True
        assert set(f["compile_passes_s"]) >= {"funnel", "types", "graph", "entry_points", "index"}
        assert f["peak_rss_mib"] >= max(f["peak_mib_by_step"].values()) * 0.99 > 0
        assert f["peak_mib_by_step"]["pass graph"] > 0 and f["compile_cpu_s"] > 0
        assert set(f["graph_capped"]) == {"name_type", "alias", "type_only"}
    assert all((tmp_path / f"apis-{n}" / "bench.atlas").is_file() for n in (40, 80))
    table = CliRunner().invoke(app, [*args, "--keep", str(tmp_path)], env={"COLUMNS": "240"})
    assert table.exit_code == 0, table.output
    assert "pass graph" in table.stdout and "2.0× APIs" in table.stdout
