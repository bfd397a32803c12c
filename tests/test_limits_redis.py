"""Two replicas on loopback sharing one Redis share one rate-limit budget (Redis started by the test)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest

from apiatlas.errors import ReasonCode
from apiatlas.security.config import RateLimits
from apiatlas.security.limits import CallLimits, LimitBreach
from apiatlas.snapshot import Snapshot
from local_server import free_port
from test_security_http import PREFIX, gateway, mcp_client, security_config, write_keys
from test_server_catalog import structured, write_server_snapshot

REDIS = shutil.which("redis-server")


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if REDIS is None:
        pytest.skip("redis-server is not installed (./run test installs it with apt where it can)")
    port = free_port()
    folder = tmp_path_factory.mktemp("redis")
    process = subprocess.Popen(
        [
            REDIS,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(folder),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert process.poll() is None, "redis-server exited"
            assert time.monotonic() < deadline, "redis-server did not listen"
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(10)


def test_two_replicas_sharing_one_redis_share_one_budget(redis_url: str, tmp_path: Path) -> None:
    keys, plain = write_keys(tmp_path, {"ann": ["retail"], "bob": ["retail"]})
    snap_path = write_server_snapshot(tmp_path / "bank.atlas")
    ports = [free_port(), free_port()]
    limits = RateLimits(storage=redis_url, per_principal="5/minute")
    answers: list[str] = []

    async def calls(port: int, key: str, count: int) -> None:
        async with mcp_client(f"http://127.0.0.1:{port}/mcp", key) as client:
            for _ in range(count):
                data = structured(await client.call_tool(f"{PREFIX}search", {"query": "счёт"}))
                answers.append(str(data.get("reason") or data["status"]))

    with (
        Snapshot.open(snap_path) as snap,
        gateway(snap, security_config(tmp_path, ports[0], keys, limits=limits), ports[0]),
        gateway(snap, security_config(tmp_path, ports[1], keys, limits=limits), ports[1]),
    ):
        anyio.run(calls, ports[0], plain["ann"], 3)
        anyio.run(calls, ports[1], plain["ann"], 3)  # the same principal on the other replica
        assert "RATE_LIMITED" not in answers[:5] and answers[5] == "RATE_LIMITED", answers
        anyio.run(calls, ports[0], plain["ann"], 1)  # and back on the first: still spent
        assert answers[6] == "RATE_LIMITED"
        anyio.run(calls, ports[1], plain["bob"], 1)  # another principal's budget is untouched
        assert answers[7] != "RATE_LIMITED"


def test_memory_storage_keeps_one_budget_per_replica(tmp_path: Path) -> None:
    """The contrast: without Redis each replica counts on its own (why scale-out needs Redis)."""
    keys, plain = write_keys(tmp_path, {"ann": ["retail"]})
    snap_path = write_server_snapshot(tmp_path / "bank.atlas")
    ports = [free_port(), free_port()]
    limits = RateLimits(per_principal="2/minute")
    answers: list[str] = []

    async def calls(port: int, count: int) -> None:
        async with mcp_client(f"http://127.0.0.1:{port}/mcp", plain["ann"]) as client:
            for _ in range(count):
                data = structured(await client.call_tool(f"{PREFIX}search", {"query": "счёт"}))
                answers.append(str(data.get("reason") or data["status"]))

    with (
        Snapshot.open(snap_path) as snap,
        gateway(snap, security_config(tmp_path, ports[0], keys, limits=limits), ports[0]),
        gateway(snap, security_config(tmp_path, ports[1], keys, limits=limits), ports[1]),
    ):
        anyio.run(calls, ports[0], 2)
        anyio.run(calls, ports[1], 2)
    assert "RATE_LIMITED" not in answers and len(answers) == 4


def test_an_unreachable_redis_refuses_calls_with_a_clear_reason() -> None:
    limits = CallLimits(RateLimits(storage=f"redis://127.0.0.1:{free_port()}/0", per_principal="5/minute"))

    async def main() -> LimitBreach:
        with pytest.raises(LimitBreach) as caught:
            await limits.admit("ann", "search")
        return caught.value

    breach = anyio.run(main)
    assert breach.code == ReasonCode.UPSTREAM_UNAVAILABLE and breach.retry_after_s == 1.0
    assert "rate-limit storage redis://127.0.0.1:" in breach.message and "unreachable" in breach.message
