"""The SQL Server executor's connection pool, on a scripted pymssql connection.

No SQL Server runs where apiatlas is developed, so ``pymssql.connect`` is replaced by ``FakeServer``:
it records every statement it receives and keeps each connection's ``#`` tables the way SQL Server
does (CREATE of an existing one fails; they outlive a rollback here, the worst case), so a batch or
a release step that leaves them behind shows up on the next call of the same connection.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

import pymssql
import pytest

from apiatlas.errors import ReasonCode
from apiatlas.executors import CallRequest, CallResult, ExecutionLimits, executor_for_url
from apiatlas.executors.sqlserver import SqlServerExecutor
from occupancy import Occupancy
from test_exec_sqlserver_batch import accounts_api

T = TypeVar("T")
URL = "mssql://reader:secret@db.bank.local/Core"
_TEMP = re.compile(r"\[#([^\]]+)\]")


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


class FakeCursor:
    def __init__(self, conn: FakeConnection) -> None:
        self.conn = conn
        self.sets: list[tuple[list[str], list[tuple[Any, ...]]]] = []
        self.description: list[tuple[str]] | None = None

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        self.sets = self.conn.run(sql)
        self._show(0)

    def fetchall(self) -> list[tuple[Any, ...]]:
        return self.sets[0][1] if self.sets else []

    def nextset(self) -> bool | None:
        self.sets = self.sets[1:]
        self._show(0)
        return True if self.sets else None

    def _show(self, index: int) -> None:
        self.description = [(c,) for c in self.sets[index][0]] if len(self.sets) > index else None


class FakeConnection:
    """One pymssql connection: its statements go to the server's log, its ``#`` tables are its own."""

    def __init__(self, server: FakeServer, number: int) -> None:
        self.server = server
        self.number = number
        self.temp_tables: set[str] = set()
        self.dead = False  # the server dropped it: every statement fails
        self.rollback_fails = False
        self.closed = False

    def cursor(self) -> FakeCursor:
        return FakeCursor(self)

    def run(self, sql: str) -> list[tuple[list[str], list[tuple[Any, ...]]]]:
        self.server.record(self.number, sql)
        if self.dead or self.closed:
            raise pymssql.OperationalError((20006, b"Write to the server failed"))
        sets: list[tuple[list[str], list[tuple[Any, ...]]]] = []
        for line in sql.splitlines():
            names = _TEMP.findall(line)
            if line.startswith("CREATE TABLE"):
                if names[0] in self.temp_tables:
                    raise pymssql.OperationalError(
                        (2714, f"There is already an object named '#{names[0]}' in the database.".encode())
                    )
                self.temp_tables.add(names[0])
            elif line.startswith("DROP TABLE IF EXISTS"):
                self.temp_tables.difference_update(names)
            elif line.startswith("EXEC") and self.server.failing_calls > 0:
                self.server.failing_calls -= 1
                raise pymssql.OperationalError((50001, b"Owner list is empty"))
            elif line.startswith("SELECT TOP") and names:
                if names[0] not in self.temp_tables:
                    raise pymssql.OperationalError((208, f"Invalid object name '#{names[0]}'.".encode()))
                sets.append((["AccountID", "AccNumber", "OpenDate"], [(1, "40817", None)]))
            elif line == "SELECT 1":
                sets.append(([""], [(1,)]))
        return sets

    def commit(self) -> None:
        self.run("COMMIT")

    def rollback(self) -> None:
        self.server.record(self.number, "ROLLBACK")
        if self.rollback_fails:
            raise pymssql.OperationalError((20006, b"Write to the server failed"))

    def close(self) -> None:
        self.server.record(self.number, "CLOSE")
        self.closed = True
        with self.server.lock:
            self.server.open_now -= 1


class FakeServer:
    """Stands in for ``pymssql.connect``: opens FakeConnections, or refuses while ``refusing``."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.connections: list[FakeConnection] = []
        self.log: list[tuple[int, str]] = []  # (connection number, statement)
        self.open_now = 0
        self.most_open = 0
        self.refusing = False
        self.failing_calls = 0  # the next n EXECs raise the procedure's error 50001

    def connect(self, **kwargs: Any) -> FakeConnection:
        assert kwargs["autocommit"] is False and kwargs["server"] == "db.bank.local"
        if self.refusing:
            raise pymssql.OperationalError(
                (
                    20009,
                    b"Unable to connect: Adaptive Server is unavailable or does not exist (db.bank.local)",
                )
            )
        with self.lock:
            conn = FakeConnection(self, len(self.connections))
            self.connections.append(conn)
            self.open_now += 1
            self.most_open = max(self.most_open, self.open_now)
        return conn

    def record(self, number: int, sql: str) -> None:
        with self.lock:
            self.log.append((number, sql))

    def statements(self, number: int) -> list[str]:
        return [sql for n, sql in self.log if n == number]


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> FakeServer:
    fake = FakeServer()
    monkeypatch.setattr(pymssql, "connect", fake.connect)
    return fake


def accounts_call() -> CallRequest:
    return CallRequest(
        api=accounts_api(),
        args={"SurName": "Иванов"},
        input_tables={"pAPI_Account_OwnerID": [{"OwnerID": 5}]},
    )


def test_sequential_sessions_reuse_one_connection(server: FakeServer) -> None:
    async def go() -> tuple[list[CallResult], int]:
        async with executor_for_url(URL, ExecutionLimits(), pool=(4, 4)) as executor:
            results = [await executor.call(accounts_call()) for _ in range(3)]
            assert isinstance(executor, SqlServerExecutor)
            return results, executor.idle_connections

    results, idle = run(go())
    assert [(r.status, r.rows_returned) for r in results] == [("ok", 1)] * 3
    assert (len(server.connections), idle) == (1, 1)
    pings = [s for s in server.statements(0) if s == "SELECT 1"]
    assert len(pings) == 2  # pinged before each reuse
    assert server.statements(0)[-1] == "CLOSE"  # close() closed the idle connection


def test_no_more_than_max_connections_at_once(server: FakeServer) -> None:
    in_use = Occupancy()

    async def one(executor: SqlServerExecutor) -> CallResult:
        async with executor.session() as session, in_use.held():
            return await session.call(accounts_call())

    async def go() -> list[CallResult]:
        async with SqlServerExecutor(URL, max_connections=2) as executor:
            return list(await asyncio.gather(*(one(executor) for _ in range(7))))

    results = run(go())
    assert [r.status for r in results] == ["ok"] * 7
    assert (in_use.most, server.most_open, len(server.connections)) == (2, 2, 2)


def test_a_dead_idle_connection_is_replaced(server: FakeServer) -> None:
    async def go() -> tuple[CallResult, CallResult, int]:
        async with SqlServerExecutor(URL, max_connections=2) as executor:
            first = await executor.call(accounts_call())
            server.connections[0].dead = True  # the server went away and came back
            second = await executor.call(accounts_call())
            return first, second, executor.idle_connections

    first, second, idle = run(go())
    assert (first.status, second.status, idle) == ("ok", "ok", 1)
    assert len(server.connections) == 2
    assert server.statements(0)[-2:] == ["SELECT 1", "CLOSE"]  # the failed ping closed it


def test_connect_failure_is_an_unavailable_result(server: FakeServer) -> None:
    server.refusing = True

    async def go() -> tuple[CallResult, CallResult]:
        async with SqlServerExecutor(URL, max_connections=1) as executor:
            down = await executor.call(accounts_call())
            bad_input = await executor.call(CallRequest(api=accounts_api(), args={"Unknown": 1}))
            return down, bad_input

    down, bad_input = run(go())
    assert (down.status, down.reason) == ("error", ReasonCode.UPSTREAM_UNAVAILABLE)
    assert down.message is not None and down.message.startswith("database unavailable: ")
    assert "Adaptive Server is unavailable" in down.message
    assert bad_input.reason is ReasonCode.INVALID_ARGUMENT  # the input is still checked first


def test_a_failed_call_is_rolled_back_and_its_temp_tables_dropped(server: FakeServer) -> None:
    server.failing_calls = 1

    async def go() -> tuple[CallResult, CallResult, int]:
        async with SqlServerExecutor(URL, ExecutionLimits(read_only=False), max_connections=1) as executor:
            failed = await executor.call(accounts_call())
            leftovers = len(server.connections[0].temp_tables)
            after = await executor.call(accounts_call())  # same connection: CREATE must not collide
            return failed, after, leftovers

    failed, after, leftovers = run(go())
    assert (failed.reason, failed.error_code) == (ReasonCode.TOOL_EXECUTION_ERROR, None)
    assert (after.status, after.rows_returned, len(server.connections)) == ("ok", 1, 1)
    assert leftovers == 0
    log = server.statements(0)
    assert log[1:4] == [
        "ROLLBACK",
        "DROP TABLE IF EXISTS [#pAPI_Account_List], [#pAPI_Account_OwnerID];",
        "COMMIT",
    ]
    assert log[-2:] == ["COMMIT", "CLOSE"]  # the good call committed (writes enabled)


def test_a_failing_rollback_closes_the_connection(server: FakeServer) -> None:
    server.failing_calls = 1

    async def go() -> tuple[CallResult, CallResult, int]:
        async with SqlServerExecutor(URL, max_connections=1) as executor:
            await executor.warm()
            server.connections[0].rollback_fails = True
            failed = await executor.call(accounts_call())
            idle = executor.idle_connections
            after = await executor.call(accounts_call())
            return failed, after, idle

    failed, after, idle = run(go())
    assert (failed.status, after.status, idle) == ("error", "ok", 0)
    assert server.statements(0)[-2:] == ["ROLLBACK", "CLOSE"] and server.connections[0].closed
    assert len(server.connections) == 2


def test_temp_tables_do_not_outlive_a_call_on_a_pooled_connection(server: FakeServer) -> None:
    async def go() -> list[set[str]]:
        seen = []
        async with SqlServerExecutor(URL, ExecutionLimits(read_only=False), max_connections=1) as executor:
            for _ in range(2):
                result = await executor.call(accounts_call())
                assert result.status == "ok"
                seen.append(set(server.connections[0].temp_tables))
        return seen

    assert run(go()) == [set(), set()]
    batches = [s for s in server.statements(0) if s.startswith("SET NOCOUNT ON;")]
    assert len(batches) == 2 and len(server.connections) == 1
    for batch in batches:
        assert batch.splitlines()[-1] == "DROP TABLE IF EXISTS [#pAPI_Account_OwnerID], [#pAPI_Account_List];"
        assert batch.splitlines()[1:4] == [
            "SET XACT_ABORT ON;",
            "SET LOCK_TIMEOUT 5000;",
            "SET TRANSACTION ISOLATION LEVEL READ COMMITTED;",
        ]  # every batch sets its own options: none is inherited from the previous call


def test_a_connection_lost_during_a_call_is_closed_not_pooled(server: FakeServer) -> None:
    async def go() -> tuple[CallResult, int]:
        async with SqlServerExecutor(URL, max_connections=1) as executor:
            async with executor.session() as session:
                server.connections[0].dead = True  # lost after it was opened, during the session
                result = await session.call(accounts_call())
            return result, executor.idle_connections

    result, idle = run(go())
    assert (result.reason, idle) == (ReasonCode.UPSTREAM_UNAVAILABLE, 0)
    assert server.connections[0].closed and server.statements(0)[-1] == "CLOSE"
    assert "ROLLBACK" not in server.statements(0)  # nothing to roll back on a lost connection


def test_close_closes_the_idle_connections(server: FakeServer) -> None:
    async def go() -> tuple[int, int]:
        executor = SqlServerExecutor(URL, max_connections=3, max_idle=2)
        opened = await executor.warm()
        await executor.close()
        return opened, executor.idle_connections

    assert run(go()) == (2, 0)
    assert [c.closed for c in server.connections] == [True, True]


def test_the_pool_size_comes_from_executor_for_url(server: FakeServer) -> None:
    async def go() -> tuple[int, int, int]:
        sized = executor_for_url(URL, ExecutionLimits(), pool=(6, 1))
        default = executor_for_url(URL, ExecutionLimits())
        assert isinstance(sized, SqlServerExecutor) and isinstance(default, SqlServerExecutor)
        opened = await sized.warm()
        await sized.close()
        return sized.max_connections, opened, default.max_connections

    assert run(go()) == (6, 1, 16)
