"""Prometheus exposition of tool calls: counters by status, errors and non-error reasons, histograms."""

from __future__ import annotations

from apiatlas.security.metrics import ToolMetrics


def test_errors_and_reasons_that_are_not_errors_are_counted_apart() -> None:
    metrics = ToolMetrics()
    metrics.observe("search", "agent", "ok", None, 0.004)
    metrics.observe("search", "agent", "ok", "WORDS_ONLY", 0.003)
    metrics.observe("execute_api", "agent", "ok", "TRUNCATED", 0.02)
    metrics.observe("execute_api", "agent", "error", "UPSTREAM_UNAVAILABLE", 5.0)
    text = metrics.exposition()
    assert 'apiatlas_tool_calls_total{tool="search",role="agent",status="ok"} 2' in text
    assert 'apiatlas_tool_reasons_total{tool="search",reason="WORDS_ONLY"} 1' in text
    assert 'apiatlas_tool_reasons_total{tool="execute_api",reason="TRUNCATED"} 1' in text
    assert 'apiatlas_tool_errors_total{tool="execute_api",reason="UPSTREAM_UNAVAILABLE"} 1' in text
    noted = [line for line in text.splitlines() if line.startswith("apiatlas_tool_reasons_total{")]
    assert len(noted) == 2  # an error is not also a noted reason
    assert 'apiatlas_tool_duration_seconds_bucket{tool="search",le="0.005"} 2' in text
    assert 'apiatlas_tool_duration_seconds_bucket{tool="execute_api",le="2.5"} 1' in text
    assert 'apiatlas_tool_duration_seconds_bucket{tool="execute_api",le="+Inf"} 2' in text
    assert text.endswith("\n") and "# TYPE apiatlas_tool_reasons_total counter" in text
