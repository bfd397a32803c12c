"""`bench load`'s printed report: every section of a full report; a short one without the optional parts."""

from __future__ import annotations

from typing import Any

import pytest

from apiatlas.commands.bench_load_report import print_report

TIMES = {"calls": 10, "p50_ms": 1.5, "p99_ms": 9.0, "max_ms": 12.0}
KINDS = {"search": TIMES, "execute": {**TIMES, "calls": 7}}


def report(*, full: bool) -> dict[str, Any]:
    """A report of the shape build_report makes; ``full`` adds what a fault run under a target reports."""
    phase = {"handshake": TIMES, "tools_list": TIMES, "sessions_connected": 4, "sessions_failed": 0}
    out: dict[str, Any] = {
        **KINDS,
        "sessions": 4,
        "seconds": 14,
        "cpu": {"server_s": 3.2, "load_generator_s": 2.1, "cores": 2, "wall_s": 14},
        "load_average": {"start": 1.0, "end": 2.0},
        "calls": 17,
        "throughput_per_s": 1.2,
        "errors": 1 if full else 0,
        "error_reasons": {"UPSTREAM_UNAVAILABLE": 1} if full else {},
        "answered_nothing_fits": 2,
        "searches_by_words_only": 0,
        "connect_phase": {**phase, "all_connected_at_s": 0.8},
        "server_side": {"whole_run": KINDS, "connect_phase": KINDS},
        "reference": {"handshake_ms": 3, "tools_list_ms": 4, "search_p50_ms": 5, "execute_p50_ms": 6},
        "session_failures": [],
    }
    if full:
        out["connect_phase"]["calls"] = {"calls": 3, "errors": 0, **KINDS}
        out["after_connect_phase"] = {"calls": 14, "throughput_per_s": 1.0, "errors": 1, **KINDS}
        out["search_by_window"] = [
            {"from_s": 0, "p50_ms": 1, "p99_ms": 2},
            {"from_s": 10, "p50_ms": 3, "p99_ms": 4},
        ]
        out["generator_lag_by_window"] = [{"from_s": 0, "p99_ms": 1, "max_ms": 2}]
        out["target"] = {"met": False, "search_p99_limit_ms": 100, "errors": 1, "search_p99_ms": 120}
        out["fault"] = {
            "database_down_at_s": 4,
            "database_up_at_s": 7,
            "failed_calls": 3,
            "failure_reasons": ["UPSTREAM_UNAVAILABLE"],
            "after_recovery": {"calls": 5, "errors": 0},
            "first_execute_ok_after_restart_s": 0.5,
            "recovered_without_restart": True,
            "executes_after_restart": 2,
            "server_restarted": False,
            "outages": [
                {
                    "database_down_at_s": 4,
                    "database_up_at_s": 7,
                    "failed_calls": 3,
                    "first_execute_ok_after_restart_s": 0.5,
                    "executes_after_restart": 2,
                }
            ],
        }
    return out


def test_a_full_report_prints_every_section_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    print_report(report(full=True))
    lines = capsys.readouterr().out.splitlines()
    starts = [
        "4 sessions x 14 s",
        "whole run: 17 calls",
        "connect phase",
        "  calls started during the connect phase: 3, 0 errors",
        "after the connect phase: 14 calls",
        "search p50/p99 ms by 10 s window: 0s 1/2, 10s 3/4",
        "load generator's event loop",
        "server's own time per call (audit), whole run",
        "server's own time per call (audit), connect phase",
        "reference, one session alone",
        "target (0 errors, search p99 < 100 ms over the whole run): MISSED",
        "fault: database stopped and restarted at 4-7 s; 3 calls failed",
        "  first execute ok 0.5 s after the (slowest) restart; after recovery: 5 calls, 0 errors; server rec",
    ]
    found = [next(i for i, line in enumerate(lines) if line.startswith(start)) for start in starts]
    assert found == sorted(found)


def test_a_short_report_leaves_out_what_it_does_not_hold(capsys: pytest.CaptureFixture[str]) -> None:
    print_report(report(full=False))
    text = capsys.readouterr().out
    assert "reference, one session alone" in text and "whole run: 17 calls, 1.2 calls/s, 0 errors" in text
    for absent in ("after the connect phase", "window", "target", "fault", "calls started during"):
        assert absent not in text
