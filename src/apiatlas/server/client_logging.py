"""MCP logging (protocol <= 2025-11-25): the level a session sets; failed tool calls logged at or above it."""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any, get_args

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp_types import (
    EmptyResult,
    LoggingLevel,
    LoggingMessageNotification,
    LoggingMessageNotificationParams,
    SetLevelRequestParams,
)
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from pydantic import BaseModel

from apiatlas.errors import ReasonCode

log = logging.getLogger("apiatlas.server")
LEVELS: tuple[LoggingLevel, ...] = get_args(LoggingLevel)  # least to most severe (RFC 5424 order)
LOGGER_NAME = "apiatlas"
MAX_SESSIONS = 10_000  # levels kept for the most recently active sessions only
# The server or its upstream failed (not the caller's mistake): "error"; any other failure "warning".
SERVER_FAULTS = {
    ReasonCode.TOOL_EXECUTION_ERROR.value,
    ReasonCode.TIMEOUT.value,
    ReasonCode.UPSTREAM_UNAVAILABLE.value,
    ReasonCode.UPSTREAM_AUTH_FAILED.value,
}


def session_key(ctx: ServerRequestContext[Any, Any]) -> str | None:
    """The caller's MCP session: its HTTP session id; ``local`` without HTTP (stdio, in-process)."""
    if ctx.request is None:
        return "local"
    headers = getattr(ctx.request, "headers", None)
    return headers.get("mcp-session-id") if headers is not None else None


def as_dict(result: HandlerResult) -> dict[str, Any]:
    """A handler's result as its JSON object (middleware may see a model or its serialized form)."""
    if isinstance(result, BaseModel):
        return result.model_dump(by_alias=True, mode="json", exclude_none=True)
    return result if isinstance(result, dict) else {}


def at_least(level: LoggingLevel, minimum: LoggingLevel) -> bool:
    """Whether ``level`` is as severe as ``minimum`` or more."""
    return LEVELS.index(level) >= LEVELS.index(minimum)


class SessionLogLevels:
    """The minimum level each connected session asked for with ``logging/setLevel``.

    A session that never asked gets no log messages. Levels are kept per MCP session id (stdio: the
    one connection); a stateless HTTP request has no session, so a level set there is not kept.
    """

    def __init__(self) -> None:
        self.levels: OrderedDict[str, LoggingLevel] = OrderedDict()

    async def set_level(
        self, ctx: ServerRequestContext[Any, Any], params: SetLevelRequestParams
    ) -> EmptyResult:
        """The ``logging/setLevel`` handler: remember the level, answer ``{}``."""
        key = session_key(ctx)
        if key is not None:
            self.levels[key] = params.level
            self.levels.move_to_end(key)
            while len(self.levels) > MAX_SESSIONS:
                self.levels.popitem(last=False)
        return EmptyResult()

    def wants(self, session: str | None, level: LoggingLevel) -> bool:
        """Whether ``session`` asked for messages of ``level``."""
        minimum = self.levels.get(session) if session is not None else None
        return minimum is not None and at_least(level, minimum)

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        """Server middleware: a ``tools/call`` answered with ``isError`` is also sent as a log message."""
        result = await call_next(ctx)
        if (
            ctx.method != "tools/call"
            or not self.levels
            or ctx.protocol_version not in HANDSHAKE_PROTOCOL_VERSIONS
        ):
            return result
        answer = as_dict(result)
        if answer.get("isError") is not True:
            return result
        data = answer.get("structuredContent") or {}
        level: LoggingLevel = "error" if data.get("reason") in SERVER_FAULTS else "warning"
        if self.wants(session_key(ctx), level):
            tool = (ctx.params or {}).get("name")
            entry = {"tool": tool, **{k: data[k] for k in ("reason", "message") if k in data}}
            try:
                message = LoggingMessageNotificationParams(level=level, data=entry, logger=LOGGER_NAME)
                await ctx.session.send_notification(
                    LoggingMessageNotification(params=message), related_request_id=ctx.request_id
                )
            except Exception:  # a log line never costs the caller its answer
                log.warning("could not send a log message for tool %s", tool, exc_info=True)
        return result
