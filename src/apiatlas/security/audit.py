"""The audit trail: one JSON line per tool call (who, what, redacted arguments, outcome), or a span."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from apiatlas.security.config import AuditSettings

REDACTED = "[REDACTED]"


class AuditRecord(BaseModel):
    """One tool call as the audit log keeps it."""

    model_config = ConfigDict(extra="ignore")

    time: str
    principal: str
    role: str
    tool: str
    api: str | None = None
    arguments: dict[str, Any] = {}
    rows: int | None = None
    duration_ms: float
    status: str
    reason: str | None = None
    evidence_id: str | None = None
    session: str | None = None


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def redact(value: Any, fields: frozenset[str]) -> Any:
    """``value`` with every mapping entry whose key contains a configured field name replaced."""
    if isinstance(value, dict):
        return {
            k: REDACTED if any(f in str(k).lower() for f in fields) else redact(v, fields)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [redact(v, fields) for v in value]
    return value


def apis_of(tool: str, arguments: dict[str, Any]) -> str | None:
    """The API a call is about: its ``api`` argument, or the chain's step APIs joined by '>'."""
    if isinstance(arguments.get("api"), str):
        return str(arguments["api"])
    steps = arguments.get("steps")
    if isinstance(steps, list):
        names = [str(s.get("api")) for s in steps if isinstance(s, dict) and s.get("api")]
        return ">".join(names) or None
    return None


class AuditLog:
    """Appends audit records as JSON lines (thread-safe) and, when asked, emits OpenTelemetry spans."""

    def __init__(self, settings: AuditSettings) -> None:
        self.settings = settings
        self.fields = frozenset(f.lower() for f in settings.redact)
        self._lock = threading.Lock()
        if settings.file is not None:
            settings.file.parent.mkdir(parents=True, exist_ok=True)

    def record(
        self,
        *,
        principal: str,
        role: str,
        tool: str,
        arguments: dict[str, Any],
        result: dict[str, Any],
        duration_ms: float,
        session: str | None,
    ) -> AuditRecord:
        rows = result.get("rows_returned")
        entry = AuditRecord(
            time=now_iso(),
            principal=principal,
            role=role,
            tool=tool,
            api=apis_of(tool, arguments),
            arguments=redact(arguments, self.fields),
            rows=rows if isinstance(rows, int) else None,
            duration_ms=round(duration_ms, 3),
            status=str(result.get("status", "error")),
            reason=result.get("reason"),
            evidence_id=result.get("evidence_id") or _first(result.get("evidence_ids")),
            session=session,
        )
        if self.settings.file is not None:
            line = entry.model_dump_json(exclude_none=True) + "\n"
            with self._lock, self.settings.file.open("a", encoding="utf-8") as out:
                out.write(line)
        if self.settings.otel:
            emit_span(entry)
        return entry


def _first(value: Any) -> str | None:
    return str(value[0]) if isinstance(value, list) and value else None


def emit_span(entry: AuditRecord) -> None:
    """One span named after the tool with the record's fields as attributes (the global tracer provider)."""
    from opentelemetry import trace

    tracer = trace.get_tracer("apiatlas.audit")
    end = datetime.fromisoformat(entry.time)
    end_ns = int(end.timestamp() * 1e9)
    start_ns = end_ns - int(entry.duration_ms * 1e6)
    span = tracer.start_span(f"tool {entry.tool}", start_time=start_ns)
    for key, value in entry.model_dump(exclude_none=True, exclude={"arguments", "time"}).items():
        span.set_attribute(f"apiatlas.{key}", value)
    span.set_attribute("apiatlas.arguments", json.dumps(entry.arguments, ensure_ascii=False, default=str))
    if entry.status == "error":
        span.set_status(trace.Status(trace.StatusCode.ERROR, entry.reason or "error"))
    span.end(end_time=max(end_ns, start_ns))


def read_audit(path: Path) -> tuple[list[AuditRecord], list[int]]:
    """Every record of an audit file and the numbers of lines that were not valid records."""
    records: list[AuditRecord] = []
    bad: list[int] = []
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                records.append(AuditRecord.model_validate_json(line))
            except ValueError:
                bad.append(number)
    return records, bad
