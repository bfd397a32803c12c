"""The SQL executors' common part: each session leases one pooled connection (``pool.py``)."""

from __future__ import annotations

import contextlib
from abc import abstractmethod
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Generic, TypeVar

from apiatlas.catalog.model import DomainType
from apiatlas.executors.base import Executor, ExecutorSession
from apiatlas.executors.pool import ConnectionPool
from apiatlas.executors.unavailable import UnavailableSession

C = TypeVar("C")


class PooledSession(ExecutorSession):
    """A session on one leased connection; ``failed`` set by a call keeps the session from committing."""

    failed: bool = False


class PooledExecutor(Executor, Generic[C]):
    """An executor whose sessions each lease a connection from ``_pool`` (one transaction per session).

    A database that cannot be reached gives an ``UnavailableSession``: every call is still validated,
    then answered UPSTREAM_UNAVAILABLE with the driver's first line. On leaving, the session's work is
    committed only when writes are enabled and no call failed."""

    _pool: ConnectionPool[C]
    types: dict[str, DomainType]

    @abstractmethod
    def _open(self, connection: C) -> PooledSession:
        """The driver's session on a leased connection."""

    @property
    def max_connections(self) -> int:
        """Connections in use at once, at most."""
        return self._pool.max_connections

    @property
    def idle_connections(self) -> int:
        """Open connections waiting in the pool."""
        return self._pool.idle_connections

    def session(self) -> AbstractAsyncContextManager[ExecutorSession]:
        return self._session()

    @asynccontextmanager
    async def _session(self) -> AsyncIterator[ExecutorSession]:
        async with contextlib.AsyncExitStack() as stack:
            try:
                lease = await stack.enter_async_context(self._pool.lease())
            except self._pool.driver.errors as exc:
                yield UnavailableSession(f"database unavailable: {first_line(exc)}", self.limits, self.types)
                return
            session = self._open(lease.connection)
            try:
                yield session
            finally:
                lease.commit = not self.limits.read_only and not session.failed

    async def warm(self) -> int:
        """Fill the idle pool (connections opened concurrently) before the first calls need them; how
        many were opened. A database that cannot be reached now is left to the first call to report."""
        return await self._pool.warm()

    async def close(self) -> None:
        await self._pool.close()


def first_line(exc: BaseException) -> str:
    """The first line of a driver's error (its class name when it has no text)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
