"""Call limits: rate limits per principal and per tool (``limits``; memory or Redis), concurrency caps.

Each breach is a ``LimitBreach`` with a reason code and the seconds to wait before retrying.
With ``storage: redis://...`` every replica counts against the same budget.
"""

from __future__ import annotations

import math
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from limits import RateLimitItem, parse
from limits.aio.storage import Storage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string

from apiatlas.errors import ApiatlasError, ConfigError, ReasonCode
from apiatlas.security.config import RateLimits
from apiatlas.server.tools import EXECUTING_TOOL_NAMES

EXECUTING_TOOLS = EXECUTING_TOOL_NAMES  # the tools that run APIs (server/tools: a spec with runs_apis)


class LimitBreach(ApiatlasError):
    """A call refused by a limit; ``retry_after_s`` says when it may succeed (None: never as sent)."""

    code = ReasonCode.RATE_LIMITED

    def __init__(self, message: str, *, code: ReasonCode, retry_after_s: float | None) -> None:
        super().__init__(message, code=code)
        self.retry_after_s = retry_after_s


def _storage_uri(uri: str) -> str:
    return uri if uri.startswith("async+") else "async+" + uri


def _item(text: str, where: str) -> RateLimitItem:
    try:
        return parse(text)
    except ValueError as exc:
        raise ConfigError(f"{where}: not a rate limit like '60/minute': {text!r}") from exc


class CallLimits:
    """Rate limits and the concurrent-execution cap of one server process."""

    def __init__(self, settings: RateLimits, namespace: str = "apiatlas") -> None:
        self.settings = settings
        self.namespace = namespace
        try:
            storage = storage_from_string(_storage_uri(settings.storage))
        except Exception as exc:  # limits raises ConfigurationError / ImportError by scheme
            raise ConfigError(f"limits.storage {settings.storage!r}: {exc}") from exc
        if not isinstance(storage, Storage):
            raise ConfigError(f"limits.storage {settings.storage!r} has no asynchronous implementation")
        self.storage = storage
        self.limiter = MovingWindowRateLimiter(self.storage)
        self.per_principal = (
            _item(settings.per_principal, "limits.per_principal") if settings.per_principal else None
        )
        self.per_tool = {t: _item(v, f"limits.per_tool.{t}") for t, v in settings.per_tool.items()}
        self.executing = 0

    async def _hit(self, item: RateLimitItem, what: str, *ids: str) -> None:
        try:
            if await self.limiter.hit(item, self.namespace, *ids):
                return
            stats = await self.limiter.get_window_stats(item, self.namespace, *ids)
        except Exception as exc:  # the shared storage (Redis) is unreachable: refuse, do not crash
            raise LimitBreach(
                f"rate-limit storage {self.settings.storage} is unreachable ({type(exc).__name__}); "
                "calls are refused until it is back",
                code=ReasonCode.UPSTREAM_UNAVAILABLE,
                retry_after_s=1.0,
            ) from exc
        wait = max(0.0, stats.reset_time - time.time())
        raise LimitBreach(
            f"rate limit {item} for {what} reached; retry after {math.ceil(wait)} s",
            code=ReasonCode.RATE_LIMITED,
            retry_after_s=round(wait, 3),
        )

    async def admit(self, principal: str, tool: str) -> None:
        """Count one call of ``tool`` by ``principal``; ``LimitBreach`` when a budget is spent."""
        if self.per_principal is not None:
            await self._hit(self.per_principal, f"principal '{principal}'", "principal", principal)
        item = self.per_tool.get(tool)
        if item is not None:
            await self._hit(item, f"tool '{tool}' of principal '{principal}'", "tool", tool, principal)

    @asynccontextmanager
    async def execution_slot(self, tool: str) -> AsyncIterator[None]:
        """Hold one of the process's execution slots while an executing tool runs (others pass freely)."""
        if tool not in EXECUTING_TOOLS:
            yield
            return
        cap = self.settings.max_concurrent_executions
        if self.executing >= cap:
            raise LimitBreach(
                f"{cap} executions already running on this server; retry after 1 s",
                code=ReasonCode.BUSY,
                retry_after_s=1.0,
            )
        self.executing += 1
        try:
            yield
        finally:
            self.executing -= 1

    def check_request_size(self, size: int) -> None:
        if size > self.settings.max_request_bytes:
            raise LimitBreach(
                f"request of {size} bytes exceeds the cap of {self.settings.max_request_bytes} bytes",
                code=ReasonCode.TOO_LARGE,
                retry_after_s=None,
            )

    def check_response_size(self, size: int) -> None:
        if size > self.settings.max_response_bytes:
            raise LimitBreach(
                f"response of {size} bytes exceeds the cap of {self.settings.max_response_bytes} bytes",
                code=ReasonCode.TOO_LARGE,
                retry_after_s=None,
            )

    async def reset(self) -> None:
        await self.storage.reset()
