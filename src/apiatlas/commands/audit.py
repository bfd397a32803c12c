"""``apiatlas audit FILE``: summarise an audit log — top APIs, error rates, slowest calls."""

from __future__ import annotations

import json
import statistics
from collections import Counter, defaultdict
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from apiatlas.cli_app import app
from apiatlas.security.audit import AuditRecord, read_audit


def _p(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 3)


def summarise(records: list[AuditRecord], top: int) -> dict[str, Any]:
    """Figures of an audit log: totals, per tool, per API, per principal, slowest calls."""
    by_tool: dict[str, list[AuditRecord]] = defaultdict(list)
    by_api: dict[str, list[AuditRecord]] = defaultdict(list)
    for r in records:
        by_tool[r.tool].append(r)
        if r.api:
            by_api[r.api].append(r)

    def figures(group: list[AuditRecord]) -> dict[str, Any]:
        errors = sum(1 for r in group if r.status == "error")
        durations = [r.duration_ms for r in group]
        return {
            "calls": len(group),
            "errors": errors,
            "error_rate": round(errors / len(group), 4) if group else 0.0,
            "p50_ms": _p(durations, 0.5),
            "p99_ms": _p(durations, 0.99),
            "rows": sum(r.rows or 0 for r in group),
        }

    apis = sorted(by_api.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:top]
    slowest = sorted(records, key=lambda r: -r.duration_ms)[:top]
    times = [r.time for r in records]
    return {
        "calls": len(records),
        "errors": sum(1 for r in records if r.status == "error"),
        "from": min(times) if times else None,
        "to": max(times) if times else None,
        "mean_ms": round(statistics.fmean(r.duration_ms for r in records), 3) if records else 0.0,
        "reasons": dict(Counter(r.reason for r in records if r.reason).most_common()),
        "principals": dict(Counter(r.principal for r in records).most_common(top)),
        "tools": {tool: figures(group) for tool, group in sorted(by_tool.items())},
        "top_apis": {api: figures(group) for api, group in apis},
        "slowest": [
            {
                "time": r.time,
                "principal": r.principal,
                "tool": r.tool,
                "api": r.api,
                "duration_ms": r.duration_ms,
                "status": r.status,
                "reason": r.reason,
            }
            for r in slowest
        ],
    }


def _print(summary: dict[str, Any], console: Console) -> None:
    console.print(
        f"{summary['calls']} calls, {summary['errors']} errors, mean {summary['mean_ms']} ms "
        f"({summary['from']} .. {summary['to']})"
    )
    for title, key in (("Tools", "tools"), ("Top APIs", "top_apis")):
        table = Table(title=title)
        for column in ("name", "calls", "errors", "error rate", "p50 ms", "p99 ms", "rows"):
            table.add_column(column, justify="left" if column == "name" else "right")
        for name, f in summary[key].items():
            table.add_row(
                name,
                str(f["calls"]),
                str(f["errors"]),
                f"{f['error_rate']:.1%}",
                str(f["p50_ms"]),
                str(f["p99_ms"]),
                str(f["rows"]),
            )
        console.print(table)
    slow = Table(title="Slowest calls")
    for column in ("time", "principal", "tool", "api", "ms", "status"):
        slow.add_column(column)
    for s in summary["slowest"]:
        status = s["status"] + (f" {s['reason']}" if s["reason"] else "")
        slow.add_row(s["time"], s["principal"], s["tool"], s["api"] or "", str(s["duration_ms"]), status)
    console.print(slow)
    if summary["reasons"]:
        console.print("reasons: " + ", ".join(f"{k} {v}" for k, v in summary["reasons"].items()))


@app.command()
def audit(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="audit log (JSON lines) of apiatlas serve")],
    top: Annotated[int, typer.Option(min=1, help="how many APIs and slow calls to show")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="print the figures as JSON")] = False,
) -> None:
    """Summarise an audit log: calls and error rates per tool and API, the slowest calls."""
    try:
        records, bad = read_audit(file)
    except OSError as exc:
        typer.echo(f"error: cannot read audit log {file}: {exc.strerror}", err=True)
        raise typer.Exit(2) from exc
    summary = summarise(records, top)
    summary["unreadable_lines"] = bad
    if as_json:
        typer.echo(json.dumps(summary, ensure_ascii=False, indent=2))
        return
    if bad:
        typer.echo(f"warning: {len(bad)} line(s) are not audit records: {bad[:10]}", err=True)
    _print(summary, Console())
