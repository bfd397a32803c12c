"""``apiatlas bench load``'s report: whole-run figures, the phases and windows apart, the target judged."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

import typer

WINDOW_S = 10  # seconds per window of the per-window search figures


def _server_side(audit: Path, run: Any, until: float | None) -> dict[str, Any]:
    """The server's own time per tool call (the audit record's duration: admission to result), for the
    whole run and for the calls that started in the connect phase: what the client's figures add on
    top is transport, serialization and the load generator's own work."""
    from apiatlas.security.audit import read_audit
    from apiatlas.security.load import percentiles

    records, _ = read_audit(audit) if audit.exists() else ([], [])
    started = [
        (datetime.fromisoformat(r.time).timestamp() - r.duration_ms / 1000 - run.wall_start, r)
        for r in records
    ]
    during = [(at, r) for at, r in started if at < run.seconds]  # not the reference calls after it
    out: dict[str, Any] = {}
    for phase, chosen in (
        ("whole_run", during),
        ("connect_phase", [(at, r) for at, r in during if until is not None and at < until]),
    ):
        out[phase] = {
            kind: {
                "calls": sum(1 for _, r in chosen if r.tool == tool),
                **percentiles([r.duration_ms for _, r in chosen if r.tool == tool]),
            }
            for kind, tool in (("search", "search"), ("execute", "execute_api"))
        }
    return out


TARGET_SEARCH_P99_MS = 250.0  # issue 7: zero errors and search p99 under 250 ms over the whole run


def build_report(outcome: dict[str, Any], sessions: int, server_alive: bool, fault: bool) -> dict[str, Any]:
    """Whole-run figures first; the connect phase, the rest of the run and the server's own times
    apart and labelled; the target judged on the whole run."""
    from apiatlas.security.load import percentiles

    run, marks = outcome["run"], outcome["marks"]
    report: dict[str, Any] = {"sessions": sessions, "seconds": round(run.seconds, 1), **run.figures()}
    report["session_failures"] = run.session_failures
    # the connect phase: every session starts its handshake at 0 s; it ends when the last one is done
    connected = run.all_connected_at()
    report["connect_phase"] = run.connect_figures()
    if connected is not None:
        report["connect_phase"]["calls"] = run.figures(0.0, connected)
        report["after_connect_phase"] = run.figures(connected) if run.seconds > connected else None
    report["first_call_at_s"] = round(min((s.started for s in run.samples), default=0.0), 2)
    report["server_side"] = _server_side(outcome["audit"], run, connected)
    # where in the run the slow calls are: search p50/p99 per window of WINDOW_S seconds
    windows = [
        (start, min(start + WINDOW_S, run.seconds))
        for start in range(0, int(run.seconds), WINDOW_S)
        if run.seconds - start >= 1
    ]
    report["search_by_window"] = [
        {"from_s": start, **run.figures(start, until)["search"]} for start, until in windows
    ]
    # how late the load generator's own event loop was (its 50 sessions share one loop and the cores):
    # an answer that arrived then waited that long before its call was timed as done
    report["generator_lag_by_window"] = [
        {"from_s": start, **percentiles([ms for at, ms in run.lags if start <= at < until])}
        for start, until in windows
    ]
    report["reference"] = outcome["reference"]
    report["cpu"] = outcome["cpu"]
    report["load_average"] = {"start": outcome["load_average_start"], "end": outcome["load_average_end"]}
    if not fault:
        p99 = report["search"]["p99_ms"]
        report["target"] = {
            "errors": report["errors"],
            "search_p99_ms": p99,
            "search_p99_limit_ms": TARGET_SEARCH_P99_MS,
            "met": report["errors"] == 0
            and not run.session_failures
            and p99 is not None
            and p99 < TARGET_SEARCH_P99_MS,
        }
    if marks:
        report["fault"] = _fault(run, marks, server_alive)
    return report


def _fault(run: Any, marks: list[dict[str, float]], server_alive: bool) -> dict[str, Any]:
    """The outages' figures: failed calls and their reasons, and for each outage when the first execute
    succeeded after the restart (before the next outage); recovered when every one had such an execute."""
    from apiatlas.security.load import ANSWERED_EMPTY

    failed = [s for s in run.samples if s.status == "error" and s.reason not in ANSWERED_EMPTY]
    outages: list[dict[str, Any]] = []
    for index, mark in enumerate(marks):
        down, up = mark["down"], mark["up"]
        until = marks[index + 1]["down"] if index + 1 < len(marks) else run.seconds
        executes = [s for s in run.samples if s.kind == "execute" and up <= s.started < until]
        first_ok = min((s.started for s in executes if s.status != "error"), default=None)
        outages.append(
            {
                "database_down_at_s": round(down, 1),
                "database_up_at_s": round(up, 1),
                "failed_calls": sum(1 for s in failed if down <= s.started < until),
                "first_execute_ok_after_restart_s": round(first_ok - up, 2) if first_ok is not None else None,
                "executes_after_restart": len(executes),
            }
        )
    waits = [o["first_execute_ok_after_restart_s"] for o in outages]
    last_up = marks[-1]["up"]
    return {
        "database_down_at_s": outages[0]["database_down_at_s"],
        "database_up_at_s": outages[0]["database_up_at_s"],
        "failed_calls": len(failed),
        "failure_reasons": dict(Counter(s.reason for s in failed)),
        "failed_before_stop": sum(1 for s in failed if s.started < marks[0]["down"]),
        "first_execute_ok_after_restart_s": None if None in waits else max(waits),  # the slowest outage
        "after_recovery": run.figures(last_up + 2.0) if run.seconds > last_up + 2.0 else None,
        "server_restarted": not server_alive,
        "recovered_without_restart": server_alive and None not in waits,
        "executes_after_restart": sum(o["executes_after_restart"] for o in outages),
        "outages": outages,
    }


def _kinds(figures: dict[str, Any]) -> None:
    for kind in ("search", "execute"):
        k = figures[kind]
        latency = f"p50 {k['p50_ms']} ms  p99 {k['p99_ms']} ms  max {k['max_ms']} ms"
        typer.echo(f"  {kind:<8} {k['calls']:>7} calls  {latency}")


def print_report(report: dict[str, Any]) -> None:
    """The report for a reader: the whole run, the connect phase, after it and by window, the server's
    own times and the reference session, then the target and the fault."""
    _print_run(report)
    _print_connect_phase(report)
    _print_after_connect_phase(report)
    _print_server_side(report)
    _print_verdicts(report)


def _print_run(report: dict[str, Any]) -> None:
    cpu, load = report["cpu"], report["load_average"]
    typer.echo(
        f"{report['sessions']} sessions x {report['seconds']} s (think {report.get('think_ms', 0):g} ms "
        f"± {report.get('think_jitter', 0) * 100:g}%, database pool {report.get('database_pool')}); "
        f"load average {load['start']} at the start, {load['end']} at the end; CPU seconds: server "
        f"{cpu['server_s']}, load generator {cpu['load_generator_s']} "
        f"({cpu['cores']} cores x {cpu['wall_s']} s)"
    )
    typer.echo(
        f"whole run: {report['calls']} calls, {report['throughput_per_s']} calls/s, "
        f"{report['errors']} errors {report['error_reasons'] or ''}"
    )
    _kinds(report)
    typer.echo(
        f"  answered 'nothing fits' (NO_MATCH / NO_CONFIDENT_MATCH): {report['answered_nothing_fits']}; "
        f"searches ranked by words alone, the embedding model busy (WORDS_ONLY): "
        f"{report['searches_by_words_only']}"
    )


def _print_connect_phase(report: dict[str, Any]) -> None:
    phase = report["connect_phase"]
    hs, tl = phase["handshake"], phase["tools_list"]
    typer.echo(
        "connect phase (every session starts its handshake at 0 s, then lists the tools): "
        f"{phase['sessions_connected']} ready, {phase['sessions_failed']} failed, the last at "
        f"{phase['all_connected_at_s']} s"
    )
    typer.echo(f"  handshake   p50 {hs['p50_ms']} ms  p99 {hs['p99_ms']} ms  max {hs['max_ms']} ms")
    typer.echo(f"  tools/list  p50 {tl['p50_ms']} ms  p99 {tl['p99_ms']} ms  max {tl['max_ms']} ms")
    if "calls" in phase:
        calls = phase["calls"]
        typer.echo(f"  calls started during the connect phase: {calls['calls']}, {calls['errors']} errors")
        _kinds(calls)


def _print_after_connect_phase(report: dict[str, Any]) -> None:
    steady = report.get("after_connect_phase")
    if steady:
        typer.echo(
            f"after the connect phase: {steady['calls']} calls, {steady['throughput_per_s']} calls/s, "
            f"{steady['errors']} errors"
        )
        _kinds(steady)
    windows = report.get("search_by_window") or []
    if windows:
        typer.echo(
            f"search p50/p99 ms by {WINDOW_S} s window: "
            + ", ".join(f"{w['from_s']}s {w['p50_ms']}/{w['p99_ms']}" for w in windows)
        )
    lags = report.get("generator_lag_by_window") or []
    if lags:
        typer.echo(
            "load generator's event loop, late by p99/max ms per window: "
            + ", ".join(f"{w['from_s']}s {w['p99_ms']}/{w['max_ms']}" for w in lags)
        )


def _print_server_side(report: dict[str, Any]) -> None:
    server = report["server_side"]
    for phase, label in (("whole_run", "whole run"), ("connect_phase", "connect phase")):
        line = ", ".join(
            f"{kind} p50 {k['p50_ms']} ms p99 {k['p99_ms']} ms ({k['calls']})"
            for kind, k in server[phase].items()
        )
        typer.echo(f"server's own time per call (audit), {label}: {line}")
    ref = report["reference"]
    typer.echo(
        f"reference, one session alone right after the load: handshake {ref['handshake_ms']} ms, "
        f"tools/list {ref['tools_list_ms']} ms, "
        f"search p50 {ref['search_p50_ms']} ms, execute p50 {ref['execute_p50_ms']} ms"
    )
    if report["session_failures"]:
        typer.echo(f"  {len(report['session_failures'])} sessions failed: {report['session_failures'][:3]}")


def _print_verdicts(report: dict[str, Any]) -> None:
    target = report.get("target")
    if target:
        verdict = "MET" if target["met"] else "MISSED"
        typer.echo(
            f"target (0 errors, search p99 < {target['search_p99_limit_ms']:g} ms over the whole run): "
            f"{verdict} ({target['errors']} errors, search p99 {target['search_p99_ms']} ms)"
        )
    fault = report.get("fault")
    if fault:
        stops = ", ".join(f"{o['database_down_at_s']}-{o['database_up_at_s']} s" for o in fault["outages"])
        typer.echo(
            f"fault: database stopped and restarted at {stops}; {fault['failed_calls']} calls failed "
            f"(in flight or sent while it was down), reasons {fault['failure_reasons']}"
        )
        after = fault["after_recovery"]
        typer.echo(
            f"  first execute ok {fault['first_execute_ok_after_restart_s']} s after the (slowest) restart; "
            + (f"after recovery: {after['calls']} calls, {after['errors']} errors; " if after else "")
            + _recovery(fault)
        )


def _recovery(fault: dict[str, Any]) -> str:
    if fault["recovered_without_restart"]:
        return "server recovered without restart"
    if not fault["executes_after_restart"] and not fault["server_restarted"]:
        return "not judged: the run ended before any execute after the restart (run longer)"
    return "server DID NOT recover"
