"""Limits over HTTP: rate limits per principal and per tool, the execution cap, size caps, retry-after."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult

from apiatlas.catalog.model import Api, BusinessObject, Catalog, ExecutorBinding, Param
from apiatlas.executors.base import ExecutionLimits
from apiatlas.executors.registry import executor_for_url
from apiatlas.passes.config import BuildConfig
from apiatlas.passes.types import assign_schemas, merge_types
from apiatlas.security.config import RateLimits
from apiatlas.security.guard import RETRY_AFTER_META
from apiatlas.snapshot import Snapshot, write_snapshot
from apiatlas.sources.bank_html.domain_types import BANK_TYPES
from local_server import free_port
from test_security_http import PREFIX, gateway, mcp_client, security_config, write_keys
from test_server_catalog import structured, write_server_snapshot


def retry_after(result: CallToolResult) -> float:
    value = (result.meta or {}).get(RETRY_AFTER_META)
    assert isinstance(value, int | float), result.meta
    return float(value)


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Snapshot]:
    path = write_server_snapshot(tmp_path_factory.mktemp("limits") / "bank.atlas")
    with Snapshot.open(path) as snapshot:
        yield snapshot


def test_rate_limits_per_principal_and_per_tool_answer_with_retry_after(
    snap: Snapshot, tmp_path: Path
) -> None:
    keys, plain = write_keys(tmp_path, {"ann": ["retail"], "bob": ["retail"]})
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    limits = RateLimits(per_principal="4/minute", per_tool={"describe_api": "1/minute"})

    async def main() -> None:
        async with mcp_client(url, plain["ann"]) as ann:
            first = structured(await ann.call_tool(f"{PREFIX}describe_api", {"api": "API_Acc_GetRest"}))
            assert first["status"] == "ok"
            again = await ann.call_tool(f"{PREFIX}describe_api", {"api": "API_Acc_GetRest"})
            assert (
                structured(again)["reason"] == "RATE_LIMITED"
                and "describe_api" in structured(again)["message"]
            )
            assert 0 < retry_after(again) <= 60
            assert "retry after" in structured(again)["next_actions"][0]
            for _ in range(2):  # the principal's budget is 4 calls a minute; the refused describe counted
                ok = structured(await ann.call_tool(f"{PREFIX}search", {"query": "счёт"}))
                assert ok.get("reason") != "RATE_LIMITED"
            spent = await ann.call_tool(f"{PREFIX}search", {"query": "счёт"})
            assert (
                structured(spent)["reason"] == "RATE_LIMITED"
                and "principal 'ann'" in structured(spent)["message"]
            )
            assert 0 < retry_after(spent) <= 60
        async with mcp_client(url, plain["bob"]) as bob:  # another principal has its own budget
            fresh = structured(await bob.call_tool(f"{PREFIX}search", {"query": "счёт"}))
            assert fresh.get("reason") != "RATE_LIMITED"

    security = security_config(tmp_path, port, keys, limits=limits)
    with gateway(snap, security, port) as front:
        anyio.run(main)
        metrics = httpx.get(f"http://127.0.0.1:{port}/metrics").text
    assert 'apiatlas_tool_errors_total{tool="search",reason="RATE_LIMITED"} 1' in metrics
    assert 'apiatlas_tool_calls_total{tool="describe_api",role="retail",status="ok"} 1' in metrics
    assert 'apiatlas_tool_duration_seconds_count{tool="search"} 4' in metrics
    assert front.limits.executing == 0


def test_request_and_response_size_caps(snap: Snapshot, tmp_path: Path) -> None:
    keys, plain = write_keys(tmp_path, {"ann": ["retail"]})
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    security = security_config(
        tmp_path, port, keys, limits=RateLimits(max_request_bytes=2048, max_response_bytes=1024)
    )

    async def main() -> None:
        async with mcp_client(url, plain["ann"]) as ann:
            small = structured(await ann.call_tool(f"{PREFIX}list_business_objects", {}))  # about 0.5 KB
            assert small.get("reason") != "TOO_LARGE"
            contract = structured(  # a full contract is well over 1 KB
                await ann.call_tool(f"{PREFIX}describe_api", {"api": "API_Prs_FindListByFIO"})
            )
            assert contract["reason"] == "TOO_LARGE" and "1024" in contract["message"]
            with pytest.raises(MCPError):  # refused with HTTP 413 before it reaches any tool
                await ann.call_tool(f"{PREFIX}search", {"query": "счёт " * 300})

    with gateway(snap, security, port):
        anyio.run(main)
        raw = httpx.post(
            url,
            content=b"x" * 4096,
            headers={"Authorization": f"Bearer {plain['ann']}", "Content-Type": "application/json"},
        )
        assert raw.status_code == 413 and raw.json()["error"] == "request_too_large"
        metrics = httpx.get(f"http://127.0.0.1:{port}/metrics").text
        assert 'apiatlas_http_rejected_total{reason="too_large"} 2' in metrics


def sleep_snapshot(path: Path) -> Path:
    """One object with the bank's test procedure ``API_Test_Sleep`` (pg_sleep)."""
    cat = Catalog(source_kind="bank_html")
    cat.objects = {"Test": BusinessObject(key="Test", title="Проверки", api_keys=["API_Test_Sleep"])}
    cat.apis = {
        "API_Test_Sleep": Api(
            key="API_Test_Sleep",
            object_key="Test",
            title="Пауза",
            params=[Param(name="Seconds", domain_type="DSMONEY", required=True)],
            executor=ExecutorBinding(kind="sql_procedure", target='api."API_Test_Sleep"'),
            entry_point=True,
        )
    }
    cat.types = merge_types({}, BuildConfig.for_source("bank_html"), BANK_TYPES)
    assign_schemas(cat, cat.types)
    write_snapshot(cat, path, options={"source": "tests/test_limits_http.py"})
    return path


def test_the_execution_cap_refuses_with_retry_after_while_calls_run(bank_db: str, tmp_path: Path) -> None:
    keys, plain = write_keys(tmp_path, {"ann": ["reader"], "bob": ["reader"]})
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    security = security_config(tmp_path, port, keys, limits=RateLimits(max_concurrent_executions=1))
    executor = executor_for_url(bank_db, ExecutionLimits(statement_timeout_ms=10_000))
    outcomes: dict[str, Any] = {}

    async def sleeper() -> None:
        async with mcp_client(url, plain["ann"]) as ann:
            outcomes["slow"] = structured(
                await ann.call_tool(f"{PREFIX}execute_api", {"api": "API_Test_Sleep", "args": {"Seconds": 2}})
            )

    async def main() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(sleeper)
            async with mcp_client(url, plain["bob"]) as bob:
                for _ in range(100):  # until the sleeper's call holds the only slot
                    await anyio.sleep(0.05)
                    if front.limits.executing:
                        break
                assert front.limits.executing == 1
                busy = await bob.call_tool(
                    f"{PREFIX}execute_api", {"api": "API_Test_Sleep", "args": {"Seconds": 0}}
                )
                outcomes["busy"] = structured(busy)
                outcomes["retry"] = retry_after(busy)
                nav = structured(await bob.call_tool(f"{PREFIX}describe_api", {"api": "API_Test_Sleep"}))
                assert nav["status"] == "ok"  # navigation is never capped by executions

    with Snapshot.open(sleep_snapshot(tmp_path / "sleep.atlas")) as snapshot:
        with gateway(snapshot, security, port, executor) as front:
            anyio.run(main)
        anyio.run(executor.close)
    assert outcomes["busy"]["reason"] == "BUSY" and outcomes["retry"] == 1.0
    assert outcomes["slow"]["status"] != "error", outcomes["slow"]
    assert front.limits.executing == 0
