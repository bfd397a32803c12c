"""The audit trail over HTTP: a redacted JSON line and a span per tool call; ``apiatlas audit`` sums it up."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from apiatlas.executors.base import ExecutionLimits
from apiatlas.executors.registry import executor_for_url
from apiatlas.security.config import AuditSettings, RateLimits, RoleSettings
from apiatlas.snapshot import Snapshot
from local_server import free_port
from test_limits_http import sleep_snapshot
from test_security_http import PREFIX, gateway, mcp_client, security_config, write_keys
from test_server_catalog import structured

SECRET_VALUE = "Михалов-секрет"


def test_every_call_is_audited_with_redaction_and_exported_as_a_span(bank_db: str, tmp_path: Path) -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    keys, plain = write_keys(tmp_path, {"ann": ["teller"], "bob": ["teller"]})
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    log_file = tmp_path / "logs" / "audit.jsonl"
    security = security_config(
        tmp_path,
        port,
        keys,
        limits=RateLimits(per_tool={"describe_api": "1/minute"}),
        audit=AuditSettings(file=log_file, redact=["surname", "password"], otel=True),
        roles={"teller": RoleSettings()},
    )
    executor = executor_for_url(bank_db, ExecutionLimits())
    calls: list[tuple[str, str, dict[str, Any]]] = [
        ("ann", "search", {"query": "пауза"}),
        ("ann", "describe_api", {"api": "API_Test_Sleep"}),
        ("ann", "execute_api", {"api": "API_Test_Sleep", "args": {"Seconds": 0.2}}),
        ("ann", "execute_api", {"api": "API_Test_Sleep", "args": {"Seconds": 0}, "input_tables": {}}),
        (
            "bob",
            "execute_api",
            {"api": "API_Test_Sleep", "args": {"SurName": SECRET_VALUE, "Password": "pw1"}},
        ),
        ("bob", "describe_api", {"api": "API_Nope"}),
        ("bob", "describe_api", {"api": "API_Test_Sleep"}),  # bob's second describe: over the per-tool limit
        ("bob", "no_such_tool", {}),
    ]
    answers: list[dict[str, Any]] = []

    async def main() -> None:
        for who in ("ann", "bob"):
            async with mcp_client(url, plain[who]) as client:
                for caller, tool, args in calls:
                    if caller == who:
                        answers.append(structured(await client.call_tool(PREFIX + tool, args)))

    with Snapshot.open(sleep_snapshot(tmp_path / "sleep.atlas")) as snapshot:
        with gateway(snapshot, security, port, executor):
            anyio.run(main)
        anyio.run(executor.close)
    text = log_file.read_text(encoding="utf-8")
    lines = [json.loads(line) for line in text.splitlines()]
    assert len(lines) == len(calls)
    assert SECRET_VALUE not in text and "pw1" not in text and text.count("[REDACTED]") == 2
    for line, (caller, tool, args), answer in zip(lines, calls, answers, strict=True):
        assert line["principal"] == caller and line["role"] == "teller" and line["tool"] == tool
        assert line["status"] == answer["status"] and line.get("reason") == answer.get("reason")
        assert line["duration_ms"] >= 0 and line["time"].endswith("+00:00")
        assert line.get("api") == args.get("api")
        assert line.get("evidence_id") == answer.get("evidence_id")
    slow = lines[2]
    assert (
        slow["evidence_id"]
        and slow["rows"] == 0
        and slow["arguments"] == {"api": "API_Test_Sleep", "args": {"Seconds": 0.2}}
    )
    assert slow["duration_ms"] >= 200
    assert lines[4]["arguments"]["args"] == {"SurName": "[REDACTED]", "Password": "[REDACTED]"}
    assert lines[6]["reason"] == "RATE_LIMITED" and lines[5]["reason"] == "UNKNOWN_API"
    spans = [s for s in exporter.get_finished_spans() if s.name.startswith("tool ")]  # not the SDK's own
    assert [s.name for s in spans] == [f"tool {tool}" for _, tool, _ in calls]
    assert spans[2].attributes is not None and spans[2].attributes["apiatlas.principal"] == "ann"
    assert SECRET_VALUE not in str(spans[4].attributes)

    summary = subprocess.run(
        [sys.executable, "-m", "apiatlas.cli", "audit", str(log_file), "--json", "--top", "3"],
        capture_output=True,
        text=True,
        check=True,
    )
    figures = json.loads(summary.stdout)
    assert figures["calls"] == len(calls)
    assert figures["errors"] == sum(1 for a in answers if a["status"] == "error")
    assert next(iter(figures["top_apis"])) == "API_Test_Sleep"
    assert figures["top_apis"]["API_Test_Sleep"]["calls"] == 5
    assert figures["slowest"][0]["duration_ms"] == max(line["duration_ms"] for line in lines)
    assert figures["reasons"]["RATE_LIMITED"] == 1
    human = subprocess.run(
        [sys.executable, "-m", "apiatlas.cli", "audit", str(log_file)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "Slowest calls" in human.stdout and "API_Test_Sleep" in human.stdout
    missing = subprocess.run(
        [sys.executable, "-m", "apiatlas.cli", "audit", str(tmp_path / "none.jsonl")],
        capture_output=True,
        text=True,
    )
    assert missing.returncode == 2 and "cannot read audit log" in missing.stderr
