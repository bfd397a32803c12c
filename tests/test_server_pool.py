"""The database pool of `apiatlas serve` (server config ``database_pool``) and warming up before listening."""

from __future__ import annotations

import logging
from pathlib import Path

import anyio
import pytest

from apiatlas.commands.serve import make_executor
from apiatlas.errors import ConfigError
from apiatlas.executors.postgres import PostgresExecutor
from apiatlas.security.config import RateLimits, RoleSettings, SecurityConfig
from apiatlas.security.gateway import SecureGateway
from apiatlas.server.app import build_server
from apiatlas.server.config import DEFAULT_CONCURRENT_EXECUTIONS, DatabasePool, ServerConfig
from apiatlas.snapshot import Snapshot
from test_server_catalog import write_server_snapshot


def test_the_pool_has_one_connection_per_admitted_execution_by_default() -> None:
    assert RateLimits().max_concurrent_executions == DEFAULT_CONCURRENT_EXECUTIONS
    assert DatabasePool().sized() == (DEFAULT_CONCURRENT_EXECUTIONS, DEFAULT_CONCURRENT_EXECUTIONS)
    assert DatabasePool().sized(50) == (50, 50)
    assert DatabasePool(max_connections=8, max_idle=2).sized(50) == (8, 2)
    assert DatabasePool(max_idle=100).sized(10) == (10, 10)  # never more idle than the pool holds
    assert DatabasePool(max_idle=0).sized(10) == (10, 0)


def test_the_pool_is_read_from_the_config_file(tmp_path: Path) -> None:
    config = tmp_path / "serve.yaml"
    config.write_text("database_pool:\n  max_connections: 24\n  max_idle: 4\n", encoding="utf-8")
    assert ServerConfig.load(config).database_pool.sized(50) == (24, 4)
    config.write_text("database_pool:\n  size: 24\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="size"):
        ServerConfig.load(config)
    config.write_text("database_pool:\n  max_connections: 0\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="max_connections"):
        ServerConfig.load(config)


def test_serve_sizes_the_postgres_pool_from_the_config_or_the_execution_cap(tmp_path: Path) -> None:
    snapshot = Snapshot.open(write_server_snapshot(tmp_path / "bank.atlas"))
    url = "postgresql://apiatlas@127.0.0.1:1/bank"  # nothing connects until the first call
    try:
        derived = make_executor(url, snapshot, ServerConfig(), max_concurrent_executions=40)
        default = make_executor(url, snapshot, ServerConfig())
        chosen = ServerConfig(database_pool=DatabasePool(max_connections=6, max_idle=1))
        explicit = make_executor(url, snapshot, chosen, max_concurrent_executions=40)
    finally:
        snapshot.close()
    assert isinstance(derived, PostgresExecutor) and derived.max_connections == 40
    assert isinstance(default, PostgresExecutor)
    assert default.max_connections == DEFAULT_CONCURRENT_EXECUTIONS
    assert isinstance(explicit, PostgresExecutor) and explicit.max_connections == 6


def test_warming_builds_each_roles_search_before_the_first_call(tmp_path: Path) -> None:
    snapshot = Snapshot.open(write_server_snapshot(tmp_path / "bank.atlas"))
    roles = {"retail": RoleSettings(objects=["Prs", "Acc"]), "reader": RoleSettings()}
    security = SecurityConfig(roles=roles)
    security.auth.keys_file = tmp_path / "keys.yaml"
    security.auth.keys_file.write_text("keys: []\n", encoding="utf-8")
    try:
        front = SecureGateway(snapshot, None, ServerConfig(tool_prefix="bank_"), security)
        navigators = {role: server.navigator for role, server in front.servers.items()}
        assert all(n is not None and "search_engine" not in vars(n) for n in navigators.values())
        spent = front.warm()
        assert set(spent) == {"retail", "reader"}
        for role, navigator in navigators.items():
            assert navigator is not None
            index = vars(navigator).get("search_engine")
            assert index is not None, role
            assert index.snapshot is front.servers[role].view  # each role's own view, not the base
    finally:
        snapshot.close()


def test_the_gateway_fills_the_database_pool_before_it_serves(tmp_path: Path, bank_db: str) -> None:
    snapshot = Snapshot.open(write_server_snapshot(tmp_path / "bank.atlas"))
    security = SecurityConfig(limits=RateLimits(max_concurrent_executions=5))
    security.auth.keys_file = tmp_path / "keys.yaml"
    security.auth.keys_file.write_text("keys: []\n", encoding="utf-8")
    executor = make_executor(bank_db, snapshot, ServerConfig(), None, 5)
    assert isinstance(executor, PostgresExecutor)

    async def serve() -> tuple[int, int]:
        front = SecureGateway(snapshot, executor, ServerConfig(tool_prefix="bank_"), security)
        before = executor.idle_connections
        async with front.lifespan(front.asgi()):
            during = executor.idle_connections
        await executor.close()
        return before, during

    try:
        assert anyio.run(serve) == (0, 5)
    finally:
        snapshot.close()


def test_a_failed_warm_up_is_logged_and_left_to_the_first_call(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    snapshot = Snapshot.open(write_server_snapshot(tmp_path / "bank.atlas"))
    try:
        server = build_server(snapshot, None, ServerConfig())

        def broken() -> None:
            raise RuntimeError("no vectors")

        server.warm_up = broken
        with caplog.at_level(logging.ERROR, logger="apiatlas.server"):
            server.warm()
    finally:
        snapshot.close()
    assert "warming the search up failed" in caplog.text and "no vectors" in caplog.text
