"""``apiatlas bench compile --json`` on a small generated set: every figure present and consistent."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
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


@pytest.mark.skipif(not Path("/proc/self/smaps_rollup").exists(), reason="no /proc/PID/smaps_rollup here")
def test_tree_memory_counts_the_children_too(tmp_path: Path) -> None:
    """``--tree-memory`` sums this process's PSS and its live children's: a child holding 200 MiB of its own
    shows in the tree's peak, not in this process's."""
    import subprocess
    import sys
    import time

    from apiatlas.commands.bench_compile_meter import MIB, StepMeter, TreeMemory, descendants, pss_bytes

    ready = tmp_path / "ready"
    touch_every_page = f"b = bytearray({200 * MIB}); b[::4096] = b'x' * len(b[::4096]); "
    code = touch_every_page + f"open({str(ready)!r}, 'w').close(); "
    child = subprocess.Popen([sys.executable, "-c", code + "import time; time.sleep(60)"])
    try:
        deadline = time.monotonic() + 60
        while not ready.exists():
            assert child.poll() is None and time.monotonic() < deadline, "the 200 MiB child did not start"
            time.sleep(0.05)
        assert child.pid in descendants(os.getpid())
        with StepMeter() as meter, TreeMemory(meter) as tree:
            tree._sample()
        assert tree.processes_at_peak >= 2
        assert tree.peak >= pss_bytes(os.getpid()) + 190 * MIB
        assert tree.figures()["tree_peak_pss_mib"] >= 190
    finally:
        child.kill()
        child.wait()


def test_bench_compile_tree_memory_figures(tmp_path: Path) -> None:
    args = ["bench", "compile", "--apis", "40", "--embeddings", "none", "--runs", "1", "--tree-memory"]
    result = CliRunner().invoke(app, [*args, "--json", "--keep", str(tmp_path)])
    assert result.exit_code == 0, result.output
    f = json.loads(result.stdout)
    assert f["tree_peak_pss_mib"] > 0 and f["tree_processes_at_peak"] >= 1
    assert f["tree_peak_pss_mib"] >= max(f["tree_peak_pss_mib_by_step"].values())
