"""The web pages under ``/ui`` of the authenticated gateway: the same credentials and roles as MCP.

A request carries the API key or bearer token in the ``Authorization`` (or ``X-API-Key``) header, as an MCP
client does, or in the cookie the sign-in form sets. It is checked by the gateway's own ``Authenticator``;
the principal's role picks a ``WebSite`` over that role's server's navigator, whose reader is the role's
``RoleView``: an API hidden from the role is absent from every page, as from every tool. The whole-catalog
reports are shown only to a role that sees every API; a page answering like a tool the role is not granted
is refused.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from apiatlas.assistant.trace import Turn
from apiatlas.security.auth import AuthError
from apiatlas.security.roles import role_for
from apiatlas.snapshot import Snapshot
from apiatlas.web.app import PAGE_GUARD_KEY, STATIC, PageError, link_maker, render, web_app
from apiatlas.web.ask import GUARD_KEY, PRINCIPAL_KEY, Record, attach_assistant
from apiatlas.web.site import Reports, WebSite

if TYPE_CHECKING:
    from apiatlas.security.gateway import SecureGateway

COOKIE = "apiatlas_ui"
# a page's error status as the audit line's reason: the code an MCP call meets in the same case (a tool
# the role is not granted does not exist for it: INVALID_ARGUMENT, as a call of an unknown tool)
_PAGE_REASONS = {403: "INVALID_ARGUMENT", 404: "NO_MATCH", 409: "NOT_EXECUTABLE", 429: "RATE_LIMITED"}
SITE_KEY = "apiatlas.site"


def _credential(scope: Scope) -> str | None:
    """The bearer token or API key of the request: its header (as MCP clients send it), else the cookie."""
    from apiatlas.security.gateway import _bearer  # the gateway's own reading of the headers

    header = _bearer(scope)
    if header:
        return header
    return Request(scope).cookies.get(COOKIE) or None


def _same_origin(request: Request) -> bool:
    """A form post from these pages (a browser sends Origin on a POST); a post without it is let through."""
    origin = request.headers.get("origin")
    return origin is None or urlsplit(origin).netloc == request.headers.get("host", "")


class SecuredPages:
    """Role sites over the gateway's role servers, and the ASGI app that signs readers in and routes them."""

    def __init__(self, gateway: SecureGateway, snapshot: Snapshot) -> None:
        self.gateway = gateway
        everything = len(snapshot.all_api_keys(include_dropped=True))
        reports = Reports(snapshot)
        self.sites: dict[str, WebSite] = {}
        for role, server in gateway.servers.items():
            view, navigator = server.view, server.navigator
            assert navigator is not None  # build_server sets it
            sees_all = len(view.all_api_keys(include_dropped=True)) == everything
            site = WebSite.of_navigator(navigator, reports if sees_all else None, role=role)
            granted = [t for t in _tool_names() if view.policy.tool_granted(t)]
            site.tools = frozenset(granted)
            attach_assistant(site, server.core)  # the role's view, as POST /ask plans over it
            self.sites[role] = site
        self.pages = web_app(lambda request: request.scope[SITE_KEY])
        self.secure_cookie = gateway.security.tls is not None

    async def guard(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Let the request through to its role's pages, or answer the sign-in page (401) or a refusal."""
        request = Request(scope, receive)
        token = _credential(scope)
        if token is None:
            await self.sign_in(request, None, 401)(scope, receive, send)
            return
        try:
            principal, _ = await self.gateway.authenticator.authenticate(token)
        except AuthError as exc:
            await self.sign_in(request, exc.message, exc.status)(scope, receive, send)
            return
        role = role_for(principal.roles, self.gateway.security.roles)
        if role is None:
            refused = PageError(f"principal '{principal.name}' has no role this server knows", 403)
            await render(request, None, "error.html", {"error": refused}, status=403)(scope, receive, send)
            return
        scope[SITE_KEY] = self.sites[role]
        scope[PRINCIPAL_KEY] = principal.name  # conversations scoped per principal, as POST /ask's
        scope[GUARD_KEY] = lambda: self.ask_guard(str(principal.name), role)
        scope[PAGE_GUARD_KEY] = lambda tool, query: self.page_guard(str(principal.name), role, tool, query)
        await self.pages(scope, receive, send)

    @asynccontextmanager
    async def ask_guard(self, principal: str, role: str) -> AsyncIterator[Record]:
        """A question asked on the Ask page, as POST /ask treats one: the principal's rate limit for
        ``ask``, an execution slot while it runs, one audit line (``tool: ask``) with its outcome."""
        limits = self.gateway.limits
        await limits.admit(principal, "ask")
        started = time.perf_counter()
        result: dict[str, Any] = {"status": "error", "reason": "TOOL_EXECUTION_ERROR"}

        def record(turn: Turn) -> None:
            answer = turn.answer
            result["status"] = "ok" if answer.outcome.answered else "error"
            result["reason"] = answer.reasons[0].value if answer.reasons else None
            result["evidence_ids"] = answer.evidence_ids

        try:
            async with limits.execution_slot("execute_chain"):
                yield record
        finally:
            self._audit(principal, role, "ask", {}, result, started)

    @asynccontextmanager
    async def page_guard(
        self, principal: str, role: str, tool: str, query: dict[str, Any]
    ) -> AsyncIterator[Callable[[int], None]]:
        """One page view as a call of the tool it answers like: the principal's rate limit for that tool
        (a spent budget is a 429 page), one audit line (``tool: web:<tool>``, the query as arguments)."""
        from apiatlas.security.limits import LimitBreach

        started = time.perf_counter()
        outcome: dict[str, Any] = {"status": "error", "reason": "TOOL_EXECUTION_ERROR"}

        def done(status: int) -> None:
            outcome["status"] = "ok" if status < 400 else "error"
            fallback = "TOOL_EXECUTION_ERROR" if status >= 500 else "INVALID_ARGUMENT"
            outcome["reason"] = None if status < 400 else _PAGE_REASONS.get(status, fallback)

        try:
            await self.gateway.limits.admit(principal, tool)
        except LimitBreach as breach:
            outcome["reason"] = breach.code.value
            self._audit(principal, role, f"web:{tool}", query, outcome, started)
            raise PageError(f"{breach.code.value}: {breach.message}", status=429) from breach
        try:
            yield done
        finally:
            self._audit(principal, role, f"web:{tool}", query, outcome, started)

    def _audit(
        self,
        principal: str,
        role: str,
        tool: str,
        arguments: dict[str, Any],
        outcome: dict[str, Any],
        started: float,
    ) -> None:
        """One audit line of the pages (a question asked, a page viewed), as the gateway writes a call's."""
        self.gateway.guard.audit.record(
            principal=principal, role=role, tool=tool, arguments=arguments, result=outcome,
            duration_ms=(time.perf_counter() - started) * 1000, session=None,
        )  # fmt: skip

    def sign_in(self, request: Request, problem: str | None, status: int) -> Response:
        return render(request, None, "login.html", {"problem": problem}, status=status)

    async def login(self, request: Request) -> Response:
        if request.method == "GET":
            return self.sign_in(request, None, 200)
        if not _same_origin(request):
            return self.sign_in(request, "sign in from these pages", 403)
        form = await request.form()
        token = str(form.get("token") or "").strip()
        try:
            await self.gateway.authenticator.authenticate(token or None)
        except AuthError as exc:
            return self.sign_in(request, exc.message, exc.status)
        answer = RedirectResponse(link_maker(request)(""), status_code=303)
        root = request.scope.get("root_path", "") or "/"
        answer.set_cookie(
            COOKIE, token, httponly=True, samesite="strict", secure=self.secure_cookie, path=root
        )
        return answer

    async def logout(self, request: Request) -> Response:
        answer = RedirectResponse(link_maker(request)("login"), status_code=303)
        answer.delete_cookie(COOKIE, path=request.scope.get("root_path", "") or "/")
        return answer

    def asgi(self) -> Starlette:
        return Starlette(
            routes=[
                Mount("/static", app=StaticFiles(directory=STATIC)),
                Route("/login", self.login, methods=["GET", "POST"]),
                Route("/logout", self.logout, methods=["POST"]),
                Mount("", app=self.guard),
            ]
        )


def _tool_names() -> list[str]:
    from apiatlas.server.tools import TOOL_NAMES

    return list(TOOL_NAMES)


def secured_pages(gateway: SecureGateway, snapshot: Snapshot) -> Starlette:
    """The pages the gateway mounts at ``/ui`` (``SecureGateway.asgi``)."""
    return SecuredPages(gateway, snapshot).asgi()
