"""One async connection pool for the SQL executors, whatever the driver (psycopg, pymssql, ...).

At most ``max_connections`` connections are in use at once (more sessions wait for a free one) and
up to ``max_idle`` stay open between sessions. An idle connection is pinged before reuse and closed
and replaced when the ping fails, so a database that went away and came back never poisons later
sessions. The driver is described by async callables, and ``errors`` (the driver's own exception
types) says which failures of a ping, a commit or a rollback mean "this connection is done for";
a failure to connect is raised to the caller as the driver raised it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Generic, TypeVar

C = TypeVar("C")
DEFAULT_MAX_CONNECTIONS = 16  # an executor's pool when nothing sizes it (the server sizes it from its config)
log = logging.getLogger("apiatlas.executors")


@dataclass(frozen=True)
class Driver(Generic[C]):
    """How the pool opens, checks, ends and closes a connection of one driver."""

    connect: Callable[[], Awaitable[C]]  # raises the driver's error when the database cannot be reached
    ping: Callable[[C], Awaitable[object]]  # raises one of ``errors`` when the connection is dead
    finish: Callable[[C, bool], Awaitable[object]]  # end the session's transaction: True commits
    close: Callable[[C], Awaitable[object]]
    usable: Callable[[C], bool]  # False: broken or closed, never pooled again
    errors: tuple[type[Exception], ...]  # the driver's errors: a failed ping/finish closes the connection


@dataclass(eq=False)
class Lease(Generic[C]):
    """One connection for one session; set ``commit`` before leaving to keep the session's work."""

    connection: C
    commit: bool = False


class ConnectionPool(Generic[C]):
    """A bounded pool of connections of one driver; ``lease()`` gives one per session."""

    def __init__(self, driver: Driver[C], *, max_connections: int, max_idle: int | None = None) -> None:
        if max_connections < 1 or (max_idle is not None and max_idle < 0):
            raise ValueError(f"pool of {max_connections} connections, {max_idle} idle: need >= 1 and >= 0")
        self.driver = driver
        self.max_connections = max_connections
        self.max_idle = max_connections if max_idle is None else min(max_idle, max_connections)
        self._slots = asyncio.Semaphore(max_connections)
        self._idle: list[C] = []
        self._closed = False

    @property
    def idle_connections(self) -> int:
        """Open connections waiting in the pool."""
        return len(self._idle)

    @asynccontextmanager
    async def lease(self) -> AsyncIterator[Lease[C]]:
        """A connection (pooled and alive, else new) until the session ends; then its transaction is
        committed when ``lease.commit`` is set, else rolled back, and the connection kept idle when
        still usable and there is room, else closed. A failure to connect is raised (driver's error)."""
        async with self._slots:
            lease = Lease(await self._acquire())
            try:
                yield lease
            finally:
                await self._release(lease.connection, commit=lease.commit)

    async def warm(self) -> int:
        """Fill the idle pool (connections opened concurrently) before the first sessions need them;
        how many were opened. A database that cannot be reached now is left to the first session."""
        wanted = self.max_idle - len(self._idle)
        if wanted <= 0 or self._closed:
            return 0
        opened = await asyncio.gather(*(self.driver.connect() for _ in range(wanted)), return_exceptions=True)
        failed = [o for o in opened if isinstance(o, BaseException)]
        for item in failed:
            if not isinstance(item, Exception):
                raise item  # cancelled, interrupted: not a connection failure
        if failed:
            log.warning("database pool: %d of %d connections not opened: %s", len(failed), wanted, failed[0])
        self._idle.extend(o for o in opened if not isinstance(o, BaseException))
        return wanted - len(failed)

    async def close(self) -> None:
        """Close the idle connections; connections in use are closed when their session ends."""
        self._closed = True
        idle, self._idle = self._idle, []
        for conn in idle:
            await self._discard(conn)

    async def _acquire(self) -> C:
        while self._idle:
            conn = self._idle.pop()
            try:
                await self.driver.ping(conn)
                return conn
            except self.driver.errors:
                await self._discard(conn)
        return await self.driver.connect()

    async def _release(self, conn: C, *, commit: bool) -> None:
        try:
            if self.driver.usable(conn):
                await self.driver.finish(conn, commit)
        except self.driver.errors:
            await self._discard(conn)
            return
        if not self.driver.usable(conn) or self._closed or len(self._idle) >= self.max_idle:
            await self._discard(conn)
        else:
            self._idle.append(conn)

    async def _discard(self, conn: C) -> None:
        with contextlib.suppress(*self.driver.errors):
            await self.driver.close(conn)
