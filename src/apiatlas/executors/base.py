"""The executor interface every backend implements (like an httpx transport) and its request/result models."""

from __future__ import annotations

import base64
import time
from abc import ABC, abstractmethod
from contextlib import AbstractAsyncContextManager
from datetime import date, datetime, timedelta
from datetime import time as dtime
from decimal import Decimal
from types import TracebackType
from typing import Any, Literal
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field

from apiatlas.catalog.model import Api
from apiatlas.errors import ReasonCode


class ExecutionLimits(BaseModel):
    """Guards applied to every call: time, rows, value sizes and whether anything may be written."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    statement_timeout_ms: int = Field(default=5000, gt=0)
    max_rows: int = Field(default=500, gt=0)  # per output table
    max_value_bytes: int = Field(default=4096, gt=0)  # per string value, in and out
    max_input_rows: int = Field(default=1000, gt=0)  # per input table
    read_only: bool = True  # False: writes are kept (commit) — only when an operator enabled them
    connect_timeout_s: int = Field(default=5, gt=0)


class CallRequest(BaseModel):
    """One API call as the agent asked for it: JSON arguments and input-table rows."""

    model_config = ConfigDict(extra="forbid")

    api: Api
    args: dict[str, Any] = Field(default_factory=dict)
    input_tables: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)


class TableResult(BaseModel):
    """Rows of one output table (JSON-safe values), capped at ``ExecutionLimits.max_rows``."""

    name: str
    columns: list[str]
    rows: list[dict[str, Any]]
    row_count: int  # rows kept in ``rows``
    truncated: bool  # more rows existed, or a value was cut at max_value_bytes


class CallResult(BaseModel):
    """The outcome of one call: always a status and a reason code, never an exception."""

    api_key: str
    status: Literal["ok", "error"]
    reason: ReasonCode
    message: str | None = None
    error_code: str | None = None  # the API's documented error code raised by the procedure
    tables: list[TableResult] = Field(default_factory=list)
    rows_returned: int = 0
    truncated: bool = False
    duration_ms: float = 0.0

    def table(self, name: str) -> TableResult | None:
        """The output table called ``name`` (case-insensitive), or None."""
        for table in self.tables:
            if table.name.lower() == name.lower():
                return table
        return None


def ok_result(api_key: str, tables: list[TableResult], started: float) -> CallResult:
    """A successful result: NO_MATCH when its output tables are empty, TRUNCATED when capped, else OK.

    A call with no output table at all (a procedure that only acts) is plainly OK.
    """
    rows = sum(t.row_count for t in tables)
    truncated = any(t.truncated for t in tables)
    empty = bool(tables) and rows == 0
    reason = ReasonCode.NO_MATCH if empty else ReasonCode.TRUNCATED if truncated else ReasonCode.OK
    return CallResult(
        api_key=api_key,
        status="ok",
        reason=reason,
        message="the call returned no rows" if empty else None,
        tables=tables,
        rows_returned=rows,
        truncated=truncated,
        duration_ms=elapsed_ms(started),
    )


def error_result(
    api_key: str, reason: ReasonCode, message: str, started: float, error_code: str | None = None
) -> CallResult:
    """A failed call's result."""
    return CallResult(
        api_key=api_key,
        status="error",
        reason=reason,
        message=message,
        error_code=error_code,
        duration_ms=elapsed_ms(started),
    )


def elapsed_ms(started: float) -> float:
    """Milliseconds since ``started`` (a ``time.perf_counter()`` value)."""
    return round((time.perf_counter() - started) * 1000.0, 3)


def json_value(value: Any, max_bytes: int) -> tuple[Any, bool]:
    """A database value as a JSON-safe value, and whether it was cut at ``max_bytes``."""
    if value is None or isinstance(value, bool | int | float):
        return value, False
    if isinstance(value, Decimal):
        if value == value.to_integral_value() and abs(value) < 2**53:
            return int(value), False
        return float(value), False
    if isinstance(value, datetime | date | dtime):
        return value.isoformat(), False
    if isinstance(value, timedelta):
        return value.total_seconds(), False
    if isinstance(value, bytes | bytearray | memoryview):
        value = base64.b64encode(bytes(value)).decode("ascii")
    elif isinstance(value, UUID) or not isinstance(value, str):
        value = str(value)
    encoded = value.encode("utf-8")
    if len(encoded) <= max_bytes:
        return value, False
    return encoded[:max_bytes].decode("utf-8", errors="ignore") + "…", True


class ExecutorSession(ABC):
    """Several calls in one transaction (a chain): each call sees what the earlier ones did."""

    @abstractmethod
    async def call(self, request: CallRequest) -> CallResult:
        """Run one call inside the session's transaction; errors come back as an error CallResult."""


class Executor(ABC):
    """Runs API calls against one upstream (a database, an HTTP API); one subclass per backend."""

    limits: ExecutionLimits

    async def call(self, request: CallRequest) -> CallResult:
        """Run one call in its own transaction (rolled back unless writes are enabled)."""
        async with self.session() as session:
            return await session.call(request)

    @abstractmethod
    def session(self) -> AbstractAsyncContextManager[ExecutorSession]:
        """One transaction for several calls; rolled back on exit unless writes are enabled."""

    async def warm(self) -> int:
        """Open what the first calls would otherwise open while others wait (a pool's idle
        connections); how many. Nothing to do by default; failures are left to the first call."""
        return 0

    @abstractmethod
    async def close(self) -> None:
        """Release connections; the executor must not be used afterwards."""

    async def __aenter__(self) -> Executor:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()
