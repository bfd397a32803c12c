"""Every tool call of a role's server passes here: limits, write confirmation, timeout, audit and metrics."""

from __future__ import annotations

import hashlib
import json
import logging
import time
from dataclasses import dataclass
from typing import Any

import anyio
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.elicitation import render_elicitation_schema
from mcp.server.mcpserver import Context
from mcp_types import (
    CallToolResult,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    InputRequiredResult,
)
from mcp_types.version import is_version_at_least
from pydantic import BaseModel, Field

from apiatlas.catalog.model import SideEffect
from apiatlas.errors import ReasonCode
from apiatlas.security.audit import AuditLog
from apiatlas.security.limits import CallLimits, LimitBreach
from apiatlas.security.metrics import ToolMetrics
from apiatlas.security.roles import RoleView
from apiatlas.server.app import AtlasServer
from apiatlas.server.results import ToolResult
from apiatlas.server.tools import apis_run_by
from apiatlas.server.tools.common import render

log = logging.getLogger("apiatlas.security")
RETRY_AFTER_META = "apiatlas/retry_after_s"
CONFIRM_KEY = "apiatlas_confirm"
MRTR_VERSION = "2026-07-28"  # input_required results instead of server-to-client requests


def call_digest(tool: str, arguments: dict[str, Any]) -> str:
    """Binds a confirmation to one exact call (tool and arguments)."""
    payload = json.dumps([tool, arguments], sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class Confirmation(BaseModel):
    """What the user is asked before a write API runs."""

    confirm: bool = Field(description="Run this call now?")


@dataclass
class CallGuard:
    """Shared by every role's server of one process: limits, audit and metrics."""

    limits: CallLimits
    audit: AuditLog
    metrics: ToolMetrics


def caller_of(context: Context[Any, Any] | None) -> tuple[str, str | None]:
    """The authenticated principal's name (``local`` without HTTP auth) and the HTTP session id."""
    if context is None:
        return "local", None
    try:
        request = context.request_context.request
    except ValueError:
        return "local", None
    scope = getattr(request, "scope", None) or {}
    user = scope.get("user")
    name = user.access_token.client_id if isinstance(user, AuthenticatedUser) else "local"
    headers = getattr(request, "headers", None)
    return name, headers.get("mcp-session-id") if headers is not None else None


def refusal(
    code: ReasonCode, message: str, next_actions: list[str], retry_after_s: float | None
) -> CallToolResult:
    result = render(ToolResult(status="error", reason=code, message=message, next_actions=next_actions))
    if retry_after_s is not None:
        result.meta = {**(result.meta or {}), RETRY_AFTER_META: retry_after_s}
    return result


class GuardedServer(AtlasServer):
    """An AtlasServer for one role: only the role's tools, every call limited, confirmed and audited."""

    role: str
    view: RoleView
    guard: CallGuard
    prefix: str
    timeout_s: float

    def restrict(self, role: str, view: RoleView, guard: CallGuard, prefix: str, timeout_s: float) -> None:
        """Bind the role, drop the tools it is not granted (they are not listed, not callable)."""
        self.role, self.view, self.guard, self.prefix, self.timeout_s = role, view, guard, prefix, timeout_s
        for name in list(self.accepted):
            if not view.policy.tool_granted(name.removeprefix(prefix)):
                self.remove_tool(name)
                del self.accepted[name]

    def write_apis_in(self, tool: str, arguments: dict[str, Any]) -> list[str]:
        """The write/destructive APIs this call would run (only granted ones are visible at all)."""
        out = []
        for name in apis_run_by(tool, arguments):
            api = self.view.get_api(name)
            if api is not None and api.side_effect is not SideEffect.READ:
                out.append(api.key)
        return out

    async def confirmed(
        self, apis: list[str], tool: str, arguments: dict[str, Any], context: Context[Any, Any] | None
    ) -> str | InputRequiredResult | None:
        """None when the user confirmed this exact call, else why not, or the question to ask first.

        Protocol 2026-07-28 and later: the question goes back as an ``InputRequiredResult`` and the
        client retries with the answer (bound to the call by ``request_state``); older sessions get
        a server-to-client ``elicitation/create`` mid-call.
        """
        if context is None:
            return "no client to ask for confirmation"
        caps = context.client_capabilities
        if caps is None or caps.elicitation is None:
            return "this client cannot ask its user for confirmation (no elicitation support)"
        shown = json.dumps(arguments, ensure_ascii=False, default=str)[:2000]
        message = f"Confirm a call that changes data: {', '.join(apis)} with {shown}"
        if is_version_at_least(context.protocol_version or "", MRTR_VERSION):
            state = call_digest(tool, arguments)
            answer = (context.input_responses or {}).get(CONFIRM_KEY)
            if answer is None or context.request_state != state:
                question = ElicitRequestFormParams(
                    message=message, requested_schema=render_elicitation_schema(Confirmation)
                )
                return InputRequiredResult(
                    input_requests={CONFIRM_KEY: ElicitRequest(params=question)}, request_state=state
                )
            if not isinstance(answer, ElicitResult):
                return "the client answered the confirmation with something else"
            yes = answer.action == "accept" and (answer.content or {}).get("confirm") is True
            return None if yes else f"the user did not confirm ({answer.action})"
        try:
            result = await context.elicit(message, Confirmation)
        except Exception as exc:  # the client failed or timed out answering
            log.warning("elicitation failed: %s", exc)
            return f"confirmation could not be obtained: {exc}"
        if result.action == "accept" and result.data.confirm:
            return None
        return f"the user did not confirm ({result.action})"

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        started = time.perf_counter()
        principal, session = caller_of(context)
        tool = name.removeprefix(self.prefix)
        result: CallToolResult | InputRequiredResult
        try:
            result = await self.limited_call(principal, name, tool, arguments, context)
        except LimitBreach as breach:
            wait = breach.retry_after_s
            result = refusal(
                breach.code,
                breach.message,
                [
                    f"retry after {wait:.1f} s"
                    if wait is not None
                    else "send a smaller request or ask for less"
                ],
                wait,
            )
        except TimeoutError:
            result = refusal(
                ReasonCode.TIMEOUT,
                f"{name} did not finish within {self.timeout_s:g} s",
                ["narrow the inputs and call again"],
                None,
            )
        except Exception:  # a bug in a guard must not take the server down; the call is refused and audited
            log.exception("guard of %s failed", name)
            result = refusal(
                ReasonCode.TOOL_EXECUTION_ERROR,
                "internal error while checking this call; the server keeps serving",
                ["retry once; if it fails again, report it to the operator"],
                None,
            )
        elapsed = time.perf_counter() - started
        self.account(principal, session, tool, arguments, result, elapsed)
        return result

    async def limited_call(
        self,
        principal: str,
        name: str,
        tool: str,
        arguments: dict[str, Any],
        context: Context[Any, Any] | None,
    ) -> CallToolResult | InputRequiredResult:
        """The call within the limits (sizes, rate, an execution slot), confirmed when it writes, timed out;
        a ``LimitBreach`` or ``TimeoutError`` is left to ``call_tool`` to answer."""
        self.guard.limits.check_request_size(len(json.dumps(arguments, default=str).encode("utf-8")))
        await self.guard.limits.admit(principal, tool)
        result: CallToolResult | InputRequiredResult
        async with self.guard.limits.execution_slot(tool):
            writes = self.write_apis_in(tool, arguments) if name in self.accepted else []
            why_not = await self.confirmed(writes, tool, arguments, context) if writes else None
            if isinstance(why_not, InputRequiredResult):
                result = why_not
            elif why_not is not None:
                result = refusal(
                    ReasonCode.NOT_CONFIRMED,
                    f"{', '.join(writes)} changes data and was not run: {why_not}",
                    ["tell the user what the call would do and ask them to confirm it"],
                    None,
                )
            else:
                with anyio.fail_after(self.timeout_s):
                    result = await super().call_tool(name, arguments, context)
        if isinstance(result, CallToolResult) and result.structured_content is not None:
            size = len(json.dumps(result.structured_content, default=str).encode("utf-8"))
            self.guard.limits.check_response_size(size)
        return result

    def account(
        self,
        principal: str,
        session: str | None,
        tool: str,
        arguments: dict[str, Any],
        result: CallToolResult | InputRequiredResult,
        elapsed: float,
    ) -> None:
        data: dict[str, Any] = (
            dict(result.structured_content or {})
            if isinstance(result, CallToolResult)
            else {"status": "input_required"}
        )
        if isinstance(result, CallToolResult) and "status" not in data:
            data["status"] = "error" if result.is_error else "ok"
        try:
            self.guard.audit.record(
                principal=principal,
                role=self.role,
                tool=tool,
                arguments=arguments,
                result=data,
                duration_ms=elapsed * 1000,
                session=session,
            )
        except OSError as exc:  # a full disk must not take the service down; it is logged loudly
            log.error("audit record not written: %s", exc)
        self.guard.metrics.observe(tool, self.role, str(data.get("status")), data.get("reason"), elapsed)
