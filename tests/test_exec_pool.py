"""The shared connection pool (executors/pool.py) with real PostgreSQL connections (psycopg)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

import psycopg
import pytest

from apiatlas.executors.pool import ConnectionPool, Driver
from occupancy import Occupancy

T = TypeVar("T")
Conn = psycopg.AsyncConnection[Any]


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


class Counted:
    """A psycopg driver that counts the connections it opened and closed."""

    def __init__(self, uri: str) -> None:
        self.uri = uri
        self.opened = 0
        self.closed = 0
        self.most_open = 0  # the most connections open at one time

    async def connect(self) -> Conn:
        conn = await psycopg.AsyncConnection.connect(self.uri, autocommit=False, connect_timeout=2)
        self.opened += 1
        self.most_open = max(self.most_open, self.opened - self.closed)
        return conn

    async def close(self, conn: Conn) -> None:
        self.closed += 1
        await conn.close()

    def driver(self) -> Driver[Conn]:
        return Driver(
            connect=self.connect,
            ping=lambda conn: conn.execute("SELECT 1"),
            finish=lambda conn, commit: conn.commit() if commit else conn.rollback(),
            close=self.close,
            usable=lambda conn: not conn.broken and not conn.closed,
            errors=(psycopg.Error,),
        )


async def backend_pid(conn: Conn) -> int:
    cur = await conn.execute("SELECT pg_backend_pid()")
    row = await cur.fetchone()
    assert row is not None
    return int(row[0])


async def terminate(uri: str, pid: int) -> None:
    async with await psycopg.AsyncConnection.connect(uri, autocommit=True) as admin:
        await admin.execute("SELECT pg_terminate_backend(%s)", (pid,))


def test_sequential_sessions_reuse_one_connection(pg_uri: str) -> None:
    counted = Counted(pg_uri)

    async def go() -> tuple[set[int], int]:
        pool = ConnectionPool(counted.driver(), max_connections=4)
        pids = set()
        for _ in range(5):
            async with pool.lease() as lease:
                pids.add(await backend_pid(lease.connection))
        idle = pool.idle_connections
        await pool.close()
        return pids, idle

    pids, idle = run(go())
    assert (len(pids), counted.opened, idle) == (1, 1, 1)
    assert counted.closed == 1  # close() closed the idle one


def test_no_more_than_max_connections_at_once(pg_uri: str) -> None:
    counted = Counted(pg_uri)
    in_use = Occupancy()

    async def session(pool: ConnectionPool[Conn]) -> int:
        async with pool.lease() as lease, in_use.held():  # the first holds its connection until a second runs
            return await backend_pid(lease.connection)

    async def go() -> tuple[list[int], int]:
        pool = ConnectionPool(counted.driver(), max_connections=2, max_idle=1)
        pids = await asyncio.gather(*(session(pool) for _ in range(8)))
        idle = pool.idle_connections
        await pool.close()
        return list(pids), idle

    pids, idle = run(go())
    assert in_use.most == 2 and counted.most_open == 2 and len(pids) == 8
    assert idle == 1 and counted.opened == counted.closed  # one kept until close(), the others closed


def test_a_dead_idle_connection_is_replaced(pg_uri: str) -> None:
    counted = Counted(pg_uri)

    async def go() -> tuple[int, int, int]:
        pool = ConnectionPool(counted.driver(), max_connections=2)
        async with pool.lease() as lease:
            first = await backend_pid(lease.connection)
        await terminate(pg_uri, first)  # the database drops the idle connection
        async with pool.lease() as lease:
            second = await backend_pid(lease.connection)
        idle = pool.idle_connections
        await pool.close()
        return first, second, idle

    first, second, idle = run(go())
    assert first != second and counted.opened == 2 and idle == 1


def test_commit_keeps_the_work_and_rollback_drops_it(pg_uri: str) -> None:
    with psycopg.connect(pg_uri, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS pool_probe; CREATE TABLE pool_probe (n int)")

    async def go() -> list[int]:
        pool = ConnectionPool(Counted(pg_uri).driver(), max_connections=1)
        for n, commit in ((1, False), (2, True)):
            async with pool.lease() as lease:
                await lease.connection.execute("INSERT INTO pool_probe VALUES (%s)", (n,))
                lease.commit = commit
        async with pool.lease() as lease:
            cur = await lease.connection.execute("SELECT n FROM pool_probe ORDER BY n")
            rows = [r[0] for r in await cur.fetchall()]
        await pool.close()
        return rows

    assert run(go()) == [2]


def test_a_connection_lost_during_a_session_is_not_pooled(pg_uri: str) -> None:
    counted = Counted(pg_uri)

    async def go() -> tuple[int, int]:
        pool = ConnectionPool(counted.driver(), max_connections=1)
        async with pool.lease() as lease:
            await terminate(pg_uri, await backend_pid(lease.connection))
        idle_after_loss = pool.idle_connections
        async with pool.lease() as lease:
            await backend_pid(lease.connection)
        await pool.close()
        return idle_after_loss, counted.opened

    assert run(go()) == (0, 2)


def test_connect_failure_is_the_drivers_error_and_frees_the_slot() -> None:
    counted = Counted("postgresql://apiatlas@127.0.0.1:1/none")

    async def go() -> list[str]:
        pool = ConnectionPool(counted.driver(), max_connections=1)
        raised = []
        for _ in range(2):  # a slot kept by the first failure would make the second wait forever
            with pytest.raises(psycopg.OperationalError) as caught:
                async with pool.lease():
                    pass
            raised.append(type(caught.value).__name__)
        return raised

    assert run(go()) == ["OperationalError", "OperationalError"]


def test_warm_opens_the_idle_connections_and_close_closes_them(pg_uri: str) -> None:
    counted = Counted(pg_uri)

    async def go() -> tuple[int, int, int, int]:
        pool = ConnectionPool(counted.driver(), max_connections=4, max_idle=3)
        opened, again = await pool.warm(), await pool.warm()
        idle = pool.idle_connections
        await pool.close()
        return opened, again, idle, pool.idle_connections

    assert run(go()) == (3, 0, 3, 0)
    assert (counted.opened, counted.closed) == (3, 3)


def test_warming_an_unreachable_database_opens_nothing() -> None:
    async def go() -> tuple[int, int]:
        pool = ConnectionPool(Counted("postgresql://apiatlas@127.0.0.1:1/none").driver(), max_connections=2)
        return await pool.warm(), pool.idle_connections

    assert run(go()) == (0, 0)


def test_a_pool_needs_a_connection() -> None:
    with pytest.raises(ValueError, match="pool of 0 connections"):
        ConnectionPool(Counted("postgresql://x@127.0.0.1:1/none").driver(), max_connections=0)
