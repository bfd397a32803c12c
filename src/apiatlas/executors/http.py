"""Runs REST operations (``http`` bindings) on an upstream API with httpx: auth, timeouts, retries, size cap.

A session is a sequence of calls on one connection pool: HTTP has no transaction, so a chain's
earlier calls stay done when a later one fails. Only idempotent methods are retried.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from contextvars import ContextVar
from typing import Any

import httpx
from pydantic import BaseModel, ConfigDict, Field, SecretStr

from apiatlas.catalog.model import Api, DomainType, SideEffect
from apiatlas.errors import ReasonCode
from apiatlas.executors.base import (
    CallRequest,
    CallResult,
    ExecutionLimits,
    Executor,
    ExecutorSession,
    error_result,
    ok_result,
)
from apiatlas.executors.errors import ValidationError
from apiatlas.executors.http_request import HttpCall, build_call
from apiatlas.executors.http_response import (
    Body,
    error_text,
    parse_body,
    reason_for_status,
    retry_after_s,
    status_message,
    tables_of,
)

RETRY_STATUSES = frozenset({429, 502, 503, 504})

# Headers of the MCP request being answered (lower-case names); set by the server around each tool call.
caller_headers_var: ContextVar[Mapping[str, str] | None] = ContextVar("apiatlas_caller_headers", default=None)


@contextmanager
def caller_headers(headers: Mapping[str, str] | None) -> Iterator[None]:
    """Make the MCP caller's request headers visible to HTTP calls made inside this block."""
    token = caller_headers_var.set({k.lower(): v for k, v in headers.items()} if headers else None)
    try:
        yield
    finally:
        caller_headers_var.reset(token)


class HttpSettings(BaseModel):
    """How the HTTP executor talks to its upstream, beyond the common ExecutionLimits."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    bearer_token: SecretStr | None = (
        None  # sent as ``Authorization: Bearer …`` unless a caller's is forwarded
    )
    pass_through_header: str | None = None  # this header of the MCP caller becomes the upstream Authorization
    headers: dict[str, str] = Field(default_factory=dict)  # fixed headers, e.g. an API version
    retries: int = Field(default=2, ge=0, le=10)  # extra attempts for idempotent calls
    backoff_s: float = Field(default=0.2, ge=0)  # first wait; doubles per attempt
    max_backoff_s: float = Field(default=5.0, ge=0)  # longest wait, also the longest Retry-After honoured
    max_response_bytes: int = Field(default=2_000_000, ge=1024)  # body bytes read; the rest is cut (stated)
    verify_tls: bool = True


class HttpExecutor(Executor):
    """The HTTP executor: ``http`` bindings (``METHOD /path``) against ``base_url``."""

    def __init__(
        self,
        base_url: str,
        limits: ExecutionLimits | None = None,
        *,
        types: Mapping[str, DomainType] | None = None,
        settings: HttpSettings | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.limits = limits or ExecutionLimits()
        self.types = dict(types or {})
        self.settings = settings or HttpSettings()
        self._transport = transport
        self._client: httpx.AsyncClient | None = None
        self._client_loop: asyncio.AbstractEventLoop | None = None

    def _http(self) -> httpx.AsyncClient:
        """The connection pool of the running event loop (a pool cannot move between loops)."""
        loop = asyncio.get_running_loop()
        if self._client is None or self._client_loop is not loop:
            self._client_loop = loop
            read_s = self.limits.statement_timeout_ms / 1000.0
            self._client = httpx.AsyncClient(
                timeout=httpx.Timeout(read_s, connect=float(self.limits.connect_timeout_s)),
                headers={"User-Agent": "apiatlas", "Accept": "application/json", **self.settings.headers},
                transport=self._transport,
                verify=self.settings.verify_tls,
                follow_redirects=False,
            )
        return self._client

    def session(self) -> AbstractAsyncContextManager[ExecutorSession]:
        return self._session()

    @asynccontextmanager
    async def _session(self) -> AsyncIterator[ExecutorSession]:
        yield _HttpSession(self)

    async def close(self) -> None:
        client, self._client = self._client, None
        if client is not None and self._client_loop is asyncio.get_running_loop():
            await client.aclose()
        # a pool opened by another (finished) event loop went down with it: nothing left to close

    def authorization(self) -> str | None:
        """The upstream Authorization value: the caller's forwarded header, else the configured token."""
        if self.settings.pass_through_header:
            forwarded = (caller_headers_var.get() or {}).get(self.settings.pass_through_header.lower())
            if forwarded:
                return forwarded
        if self.settings.bearer_token is not None:
            return f"Bearer {self.settings.bearer_token.get_secret_value()}"
        return None


class _HttpSession(ExecutorSession):
    """Calls in order on the executor's client; nothing to roll back (HTTP has no transaction)."""

    def __init__(self, executor: HttpExecutor) -> None:
        self.executor = executor
        self.limits = executor.limits
        self.settings = executor.settings

    async def call(self, request: CallRequest) -> CallResult:
        started = time.perf_counter()
        api = request.api
        try:
            if request.input_tables:
                raise ValidationError(
                    f"{api.key} is an HTTP operation: pass its inputs as arguments, not input tables",
                    api_key=api.key,
                )
            if self.limits.read_only and api.side_effect is not SideEffect.READ:
                raise ValidationError(
                    f"{api.key} is classified '{api.side_effect.value}'; read operations only here",
                    api_key=api.key,
                    code=ReasonCode.NOT_EXECUTABLE,
                )
            call = build_call(api, request.args, self.limits, self.executor.types)
        except ValidationError as exc:
            return error_result(api.key, exc.code, exc.message, started)
        return await self._send(api, call, started)

    async def _send(self, api: Api, call: HttpCall, started: float) -> CallResult:
        attempts = 1 + (self.settings.retries if call.idempotent else 0)
        wait = self.settings.backoff_s
        for attempt in range(1, attempts + 1):
            last = attempt == attempts
            try:
                status, headers, body = await self._exchange(call)
            except httpx.TimeoutException as exc:
                what = "connecting" if isinstance(exc, httpx.ConnectTimeout) else "waiting for the answer"
                if isinstance(exc, httpx.ConnectTimeout) and not last:
                    await asyncio.sleep(wait)
                    wait = min(wait * 2, self.settings.max_backoff_s)
                    continue
                limit = self.limits.statement_timeout_ms / 1000.0
                message = f"timed out {what} ({limit:g} s limit) at {call.path}"
                return error_result(api.key, ReasonCode.TIMEOUT, message, started)
            except httpx.TransportError as exc:
                if not last:
                    await asyncio.sleep(wait)
                    wait = min(wait * 2, self.settings.max_backoff_s)
                    continue
                return error_result(
                    api.key,
                    ReasonCode.UPSTREAM_UNAVAILABLE,
                    f"cannot reach the upstream API at {self.executor.base_url}: {type(exc).__name__}"
                    + (f" after {attempt} attempts" if attempt > 1 else ""),
                    started,
                )
            if 200 <= status < 300:
                return self._ok(api, body, started)
            retry_after = retry_after_s(headers.get("retry-after"))
            if status in RETRY_STATUSES and not last:
                delay = wait if retry_after is None else retry_after
                if delay <= self.settings.max_backoff_s:
                    await asyncio.sleep(delay)
                    wait = min(wait * 2, self.settings.max_backoff_s)
                    continue
            reason = reason_for_status(status, call.has_path_params)
            message = status_message(status, reason, error_text(body), retry_after)
            if attempt > 1:
                message += f" (after {attempt} attempts)"
            return error_result(api.key, reason, message, started, error_code=str(status))
        raise AssertionError("unreachable: the last attempt always returns")

    async def _exchange(self, call: HttpCall) -> tuple[int, httpx.Headers, Body]:
        client = self.executor._http()
        headers = dict(call.headers)
        authorization = self.executor.authorization()
        if authorization:
            headers["Authorization"] = authorization
        content: dict[str, Any] = {}
        if call.json_body is not None:
            content["json"] = call.json_body
        elif call.form_body is not None:
            content["data"] = dict(_group(call.form_body))
        request = client.build_request(
            call.method,
            self.executor.base_url + call.path,
            params=tuple(call.query),
            headers=headers,
            cookies=call.cookies or None,
            **content,
        )
        cap = self.settings.max_response_bytes
        budget_s = self.limits.statement_timeout_ms / 1000.0 * 2 + self.limits.connect_timeout_s
        try:
            async with asyncio.timeout(budget_s):
                response = await client.send(request, stream=True)
                try:
                    chunks: list[bytes] = []
                    size = 0
                    cut = False
                    async for chunk in response.aiter_bytes():
                        chunks.append(chunk)
                        size += len(chunk)
                        if size > cap:
                            cut = True
                            break
                finally:
                    await response.aclose()
        except TimeoutError:
            raise httpx.ReadTimeout(f"no complete answer within {budget_s:g} s") from None
        data = b"".join(chunks)[:cap]
        content_type = response.headers.get("content-type", "").lower()
        return response.status_code, response.headers, Body(data, cut, content_type)

    def _ok(self, api: Api, body: Body, started: float) -> CallResult:
        data, whole = parse_body(body)
        if data is None:
            return ok_result(api.key, [], started)
        tables = tables_of(api, data, self.limits, cut=not whole or body.cut)
        result = ok_result(api.key, tables, started)
        table = tables[0]
        if body.cut:
            result.message = (
                f"the response was larger than {self.settings.max_response_bytes} bytes: only its first "
                f"{self.settings.max_response_bytes} bytes were read"
                + (f", {table.row_count} complete rows kept" if table.row_count else "")
                + "; narrow the request (filters, a smaller page size) for the rest"
            )
        return result


def _group(pairs: list[tuple[str, str]]) -> dict[str, str | list[str]]:
    grouped: dict[str, str | list[str]] = {}
    for name, value in pairs:
        previous = grouped.get(name)
        if previous is None:
            grouped[name] = value
        elif isinstance(previous, list):
            previous.append(value)
        else:
            grouped[name] = [previous, value]
    return grouped
