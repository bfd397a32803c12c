"""Prometheus metrics of tool calls (calls, errors, latency histograms) in the text exposition format."""

from __future__ import annotations

import bisect
import threading
from collections import defaultdict

BUCKETS_S = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def _label(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


class ToolMetrics:
    """Counters and histograms kept in memory per process (one scrape target per replica)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.calls: dict[tuple[str, str, str], int] = defaultdict(int)  # (tool, role, status)
        self.errors: dict[tuple[str, str], int] = defaultdict(int)  # (tool, reason)
        # (tool, reason) of answers that carry a reason without failing: TRUNCATED, WORDS_ONLY...
        self.noted: dict[tuple[str, str], int] = defaultdict(int)
        self.rejected: dict[str, int] = defaultdict(int)  # HTTP-level refusals by reason
        self.buckets: dict[str, list[int]] = {}
        self.sums: dict[str, float] = defaultdict(float)
        self.counts: dict[str, int] = defaultdict(int)

    def observe(self, tool: str, role: str, status: str, reason: str | None, seconds: float) -> None:
        with self._lock:
            self.calls[(tool, role, status)] += 1
            if status == "error":
                self.errors[(tool, reason or "UNKNOWN")] += 1
            elif reason:
                self.noted[(tool, reason)] += 1
            counts = self.buckets.setdefault(tool, [0] * len(BUCKETS_S))
            index = bisect.bisect_left(BUCKETS_S, seconds)
            if index < len(counts):
                counts[index] += 1
            self.sums[tool] += seconds
            self.counts[tool] += 1

    def reject(self, reason: str) -> None:
        with self._lock:
            self.rejected[reason] += 1

    def exposition(self) -> str:
        """The Prometheus text format (version 0.0.4)."""
        out = [
            "# HELP apiatlas_tool_calls_total Tool calls by tool, role and result status.",
            "# TYPE apiatlas_tool_calls_total counter",
        ]
        with self._lock:
            for (tool, role, status), n in sorted(self.calls.items()):
                out.append(
                    f'apiatlas_tool_calls_total{{tool="{_label(tool)}",role="{_label(role)}",'
                    f'status="{_label(status)}"}} {n}'
                )
            out += _by_tool_and_reason(
                "apiatlas_tool_errors_total", "Tool calls that ended in error, by reason code.", self.errors
            )
            out += _by_tool_and_reason(
                "apiatlas_tool_reasons_total",
                "Tool calls answered with a reason code but not an error (TRUNCATED: rows kept "
                "server-side; WORDS_ONLY: a search ranked by words, the embedding model busy).",
                self.noted,
            )
            out += [
                "# HELP apiatlas_http_rejected_total Requests refused before reaching a tool, by reason.",
                "# TYPE apiatlas_http_rejected_total counter",
            ]
            for reason, n in sorted(self.rejected.items()):
                out.append(f'apiatlas_http_rejected_total{{reason="{_label(reason)}"}} {n}')
            out += [
                "# HELP apiatlas_tool_duration_seconds Tool call latency.",
                "# TYPE apiatlas_tool_duration_seconds histogram",
            ]
            for tool in sorted(self.buckets):
                name = f'apiatlas_tool_duration_seconds_bucket{{tool="{_label(tool)}"'
                running = 0
                for bound, n in zip(BUCKETS_S, self.buckets[tool], strict=True):
                    running += n
                    out.append(f'{name},le="{bound}"}} {running}')
                out.append(f'{name},le="+Inf"}} {self.counts[tool]}')
                out.append(
                    f'apiatlas_tool_duration_seconds_sum{{tool="{_label(tool)}"}} {self.sums[tool]:.6f}'
                )
                out.append(
                    f'apiatlas_tool_duration_seconds_count{{tool="{_label(tool)}"}} {self.counts[tool]}'
                )
        return "\n".join(out) + "\n"


def _by_tool_and_reason(name: str, help_text: str, counts: dict[tuple[str, str], int]) -> list[str]:
    """A counter family labelled by tool and reason code, in the text exposition format."""
    out = [f"# HELP {name} {help_text}", f"# TYPE {name} counter"]
    for (tool, reason), n in sorted(counts.items()):
        out.append(f'{name}{{tool="{_label(tool)}",reason="{_label(reason)}"}} {n}')
    return out
