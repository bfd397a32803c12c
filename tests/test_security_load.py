"""`apiatlas bench load --fault` end to end: real sessions, the database stopped and restarted mid-load."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def test_bench_load_survives_a_database_outage_without_a_server_restart() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("APIATLAS_DB")}
    # not under tmp_path: pytest makes it 0700, which locks out the pgserver user when tests run as root
    work = Path(tempfile.mkdtemp(prefix="apiatlas-bench-load-"))
    args = [
        "bench",
        "load",
        "--seconds",
        "14",
        "--sessions",
        "4",
        "--fault",
        "--json",
        "--workdir",
        str(work),
    ]
    done = subprocess.run(
        [sys.executable, "-m", "apiatlas.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    try:
        assert done.returncode == 0, done.stderr[-3000:]
        audit = (work / "audit.jsonl").read_text(encoding="utf-8").splitlines()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report = json.loads(done.stdout)
    assert report["sessions"] == 4 and report["session_failures"] == []
    assert report["search"]["calls"] > 10 and report["execute"]["calls"] > 10
    fault = report["fault"]
    assert fault["database_down_at_s"] < fault["database_up_at_s"] < report["seconds"]
    assert fault["failed_calls"] > 0 and set(fault["failure_reasons"]) == {"UPSTREAM_UNAVAILABLE"}
    assert set(report["error_reasons"]) == {"UPSTREAM_UNAVAILABLE"}  # search kept working during the outage
    assert fault["recovered_without_restart"] and not fault["server_restarted"]
    assert fault["after_recovery"] is not None and fault["after_recovery"]["errors"] == 0
    assert fault["after_recovery"]["execute"]["calls"] > 0
    # the connect phase is reported apart, inside the whole run; a fault run is not judged on the target
    phase = report["connect_phase"]
    assert phase["sessions_connected"] == 4 and phase["sessions_failed"] == 0
    assert 0 < phase["all_connected_at_s"] < report["first_call_at_s"] + 1
    assert phase["handshake"]["p99_ms"] >= phase["handshake"]["p50_ms"] > 0
    assert phase["tools_list"]["p99_ms"] >= phase["tools_list"]["p50_ms"] > 0
    assert phase["calls"]["calls"] + report["after_connect_phase"]["calls"] == report["calls"]
    assert "target" not in report
    assert report["searches_by_words_only"] >= 0  # counted (few sessions: nothing waits for the model)
    lags = report["generator_lag_by_window"]  # how late the load generator's own loop ran, per window
    assert lags and all(w["max_ms"] >= w["p99_ms"] >= 0 for w in lags if w["max_ms"] is not None)
    assert report["server_side"]["whole_run"]["search"]["calls"] == report["search"]["calls"]
    assert report["cpu"]["server_s"] is not None and report["cpu"]["server_s"] > 0
    # every call is audited: the load's and the reference session's after it
    assert report["reference"]["calls"] > 0 and report["reference"]["errors"] == 0
    assert len(audit) == report["calls"] + report["reference"]["calls"]
