"""``apiatlas bench cold-start``: spawns ``apiatlas serve``, times the first tools/list (official client)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from apiatlas.snapshot import write_snapshot
from test_snapshot_catalog import mini_catalog


def test_cold_start_prints_each_run_and_the_median(tmp_path: Path) -> None:
    path = tmp_path / "mini.atlas"
    write_snapshot(mini_catalog(), path, options={})
    bench = [sys.executable, "-m", "apiatlas.entry", "bench", "cold-start"]
    env = {**os.environ, "APIATLAS_CACHE": str(tmp_path / "cache")}
    args = [*bench, str(path), "--runs", "1", "--json"]
    result = subprocess.run(args, capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert len(figures["cold_start_ms"]) == 1 and figures["median_ms"] > 0
    assert len(figures["without_held_answers_ms"]) == 1  # the baseline, in the same run
    assert len(figures["first_start_ms"]) == len(figures["first_start_first_call_ms"]) == 1  # new folder
    assert figures["snapshot_record_applies"] is False  # write_snapshot keeps no first answers (compile does)
    assert len(figures["first_call_ms"]) == len(figures["without_held_answers_first_call_ms"]) == 1
    assert list((tmp_path / "cache" / "stdio-start").glob("*.json"))  # the answers the timed starts held
    assert figures["target_ms"] == 300.0 and "before" in figures["load_average_1min"]
    missing = subprocess.run([*bench, str(tmp_path / "none.atlas")], capture_output=True, text=True)
    assert missing.returncode == 2 and "snapshot not found" in missing.stderr


def test_serve_starts_without_numpy_or_the_planner() -> None:
    """What the first requests do not need is not imported by the server's start-up path."""
    probe = (
        "import sys; import apiatlas.commands.serve, apiatlas.server.app, apiatlas.search.providers; "
        "print(sorted(m for m in ('numpy', 'httpx', 'apiatlas.planning.planner', "
        "'apiatlas.search.hybrid') if m in sys.modules))"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]", loaded.stdout
