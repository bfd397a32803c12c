"""The authenticated HTTP front: 401s, protected-resource metadata, /metrics, and one MCP server per role.

Each request to the MCP path is authenticated, mapped to the principal's role and handed to that
role's Streamable HTTP app, whose server reads the snapshot only through the role's ``RoleView``.
"""

from __future__ import annotations

import hashlib
import json
import ssl
import sys
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any
from urllib.parse import urlsplit

import uvicorn
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from starlette.applications import Starlette
from starlette.authentication import AuthCredentials
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from apiatlas.executors.base import Executor
from apiatlas.gc_phases import settle_heap
from apiatlas.security.audit import AuditLog
from apiatlas.security.auth import Authenticator, AuthError
from apiatlas.security.checks import check_tool_names
from apiatlas.security.config import SecurityConfig
from apiatlas.security.guard import CallGuard, GuardedServer
from apiatlas.security.limits import CallLimits
from apiatlas.security.metrics import CONTENT_TYPE, ToolMetrics
from apiatlas.security.roles import RolePolicy, RoleView, role_for
from apiatlas.security.secrets import read_secret
from apiatlas.server.app import build_server, served_tool_names
from apiatlas.server.config import ServerConfig
from apiatlas.server.tools.common import EVIDENCE_SCOPE_HEADER
from apiatlas.snapshot import Snapshot
from apiatlas.web.secured import secured_pages

WELL_KNOWN = "/.well-known/oauth-protected-resource"


def metadata_path(resource_url: str) -> str:
    """RFC 9728: the metadata lives at the well-known prefix followed by the resource's path."""
    path = urlsplit(resource_url).path.rstrip("/")
    return WELL_KNOWN + path


def metadata_url(resource_url: str) -> str:
    parts = urlsplit(resource_url)
    return f"{parts.scheme}://{parts.netloc}{metadata_path(resource_url)}"


def _bearer(scope: Scope) -> str | None:
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
    auth = headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return headers.get("x-api-key") or None


def _content_length(scope: Scope) -> int:
    for key, value in scope.get("headers", []):
        if key.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return 0
    return 0


class SecureGateway:
    """Role servers built from one snapshot, and the ASGI app that authenticates and routes to them."""

    def __init__(
        self,
        snapshot: Snapshot,
        executor: Executor | None,
        config: ServerConfig,
        security: SecurityConfig,
        authenticator: Authenticator | None = None,
        write_executor: Executor | None = None,
    ) -> None:
        check_tool_names(
            security, served_tool_names(snapshot, config), config.prefix_for(snapshot.manifest())
        )
        self.config = config
        self.snapshot = snapshot  # the web pages under /ui (apiatlas.web.secured) read the reports from it
        self.executors = [e for e in (executor, write_executor) if e is not None]
        self.security = security.model_copy(deep=True)
        if not self.security.auth.resource_url:
            scheme = "https" if security.tls else "http"
            self.security.auth.resource_url = (
                f"{scheme}://{config.http.host}:{config.http.port}{config.http.path}"
            )
        security = self.security
        self.authenticator = authenticator or Authenticator.from_settings(security.auth)
        self.metrics = ToolMetrics()
        self.limits = CallLimits(security.limits)
        self.guard = CallGuard(self.limits, AuditLog(security.audit), self.metrics)
        prefix = config.prefix_for(snapshot.manifest())
        self.servers: dict[str, GuardedServer] = {}
        self.apps: dict[str, ASGIApp] = {}
        for role, settings in security.roles.items():
            writes = bool(settings.write_apis) and write_executor is not None
            view = RoleView(snapshot, RolePolicy(role, settings), writable=writes)
            runs_on = write_executor if writes else executor
            server = build_server(view, runs_on, config, server_class=GuardedServer)
            assert isinstance(server, GuardedServer)
            server.restrict(role, view, self.guard, prefix, security.limits.call_timeout_s)
            self.servers[role] = server
            self.apps[role] = server.streamable_http_app(
                streamable_http_path=config.http.path,
                host=config.http.host,
                stateless_http=security.session_mode == "stateless",
                max_request_body_size=security.limits.max_request_bytes,
            )

    def warm(self) -> dict[str, float]:
        """Warm every role's server before listening (``AtlasServer.warm``): seconds per role. The
        executors' pools are filled in ``lifespan``, on the event loop that will use them."""
        return {role: server.warm() for role, server in self.servers.items()}

    # -- responses ------------------------------------------------------------------------

    def challenge(self, error: AuthError) -> Response:
        """401/403 with the standard ``WWW-Authenticate: Bearer`` header pointing at the metadata."""
        description = error.message.replace('"', "'")
        header = (
            f'Bearer error="{error.error}", error_description="{description}", '
            f'resource_metadata="{metadata_url(self.security.auth.resource_url)}"'
        )
        self.metrics.reject(error.error)
        return JSONResponse(
            {"error": error.error, "error_description": error.message},
            status_code=error.status,
            headers={"WWW-Authenticate": header},
        )

    async def resource_metadata(self, request: Request) -> Response:
        auth = self.security.auth
        body: dict[str, Any] = {
            "resource": auth.resource_url,
            "authorization_servers": [auth.jwt.issuer] if auth.jwt else [],
            "bearer_methods_supported": ["header"],
            "resource_name": "apiatlas",
        }
        if auth.jwt and auth.jwt.required_scopes:
            body["scopes_supported"] = auth.jwt.required_scopes
        return JSONResponse(body, headers={"Cache-Control": "max-age=300"})

    async def metrics_page(self, request: Request) -> Response:
        return PlainTextResponse(self.metrics.exposition(), media_type=CONTENT_TYPE)

    # -- the MCP endpoint -----------------------------------------------------------------

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        token = _bearer(scope)
        try:
            principal, expires = await self.authenticator.authenticate(token)
            role = role_for(principal.roles, self.security.roles)
            if role is None:
                raise AuthError(
                    f"principal '{principal.name}' has no role this server knows "
                    f"({', '.join(principal.roles) or 'none'})",
                    status=403,
                    error="insufficient_scope",
                )
        except AuthError as exc:
            await self.challenge(exc)(scope, receive, send)
            return
        size = _content_length(scope)
        if size > self.security.limits.max_request_bytes:
            self.metrics.reject("too_large")
            response = JSONResponse(
                {"error": "request_too_large", "error_description": f"{size} bytes > cap"}, status_code=413
            )
            await response(scope, receive, send)
            return
        assert token is not None
        inner = dict(scope)
        # evidence of a call without an MCP session (2026 protocol, stateless mode) is kept per principal
        scoped = [(k, v) for k, v in scope.get("headers", []) if k.lower() != EVIDENCE_SCOPE_HEADER.encode()]
        digest = hashlib.sha256(f"{principal.issuer or ''}|{principal.name}".encode()).hexdigest()[:24]
        inner["headers"] = [*scoped, (EVIDENCE_SCOPE_HEADER.encode(), f"principal-{digest}".encode())]
        inner["user"] = AuthenticatedUser(principal.access_token(token, expires))
        inner["auth"] = AuthCredentials(list(principal.scopes))
        await self.apps[role](inner, receive, send)

    @asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            for server in self.servers.values():
                await stack.enter_async_context(server.session_manager.run())
            for executor in self.executors:  # before the first request: uvicorn listens after this
                await executor.warm()
            try:
                yield
            finally:  # the connections belong to this event loop: closed with it
                for executor in self.executors:
                    await executor.close()

    def asgi(self) -> Starlette:
        """The whole HTTP surface: MCP path (authenticated), metadata and metrics (open)."""
        resource = self.security.auth.resource_url
        routes = [
            Route(metadata_path(resource), self.resource_metadata, methods=["GET"]),
            Route(self.config.http.path, self, methods=["GET", "POST", "DELETE"]),
        ]
        if metadata_path(resource) != WELL_KNOWN:
            routes.append(Route(WELL_KNOWN, self.resource_metadata, methods=["GET"]))
        if self.security.metrics.path:
            routes.append(Route(self.security.metrics.path, self.metrics_page, methods=["GET"]))
        from apiatlas.assistant.http import gateway_ask_route  # the assistant: POST /ask, same auth and audit

        routes.append(gateway_ask_route(self))
        routes += [Route(p, self.listing_page, methods=["GET"]) for p in ("/", "/tools.json")]
        app = Starlette(routes=routes, lifespan=self.lifespan)
        app.mount("/ui", secured_pages(self, self.snapshot))  # the web pages (apiatlas.web), same roles
        return app

    async def listing_page(self, request: Request) -> Response:
        """``/`` and ``/tools.json``: the tools and playbooks the authenticated principal's role sees."""
        from apiatlas.server.pages import listing_response

        try:
            principal, _ = await self.authenticator.authenticate(_bearer(request.scope))
            role = role_for(principal.roles, self.security.roles)
            if role is None:
                raise AuthError("no role this server knows", status=403, error="insufficient_scope")
        except AuthError as exc:
            return self.challenge(exc)
        return await listing_response(self.servers[role], request, html=request.url.path == "/")


def uvicorn_tls(security: SecurityConfig) -> dict[str, Any]:
    """uvicorn's TLS options from the security config (empty without TLS)."""
    tls = security.tls
    if tls is None:
        return {}
    options: dict[str, Any] = {"ssl_certfile": str(tls.certfile), "ssl_keyfile": str(tls.keyfile)}
    if tls.keyfile_password_env:
        options["ssl_keyfile_password"] = read_secret(tls.keyfile_password_env)
    if tls.ca_certs is not None:
        options["ssl_ca_certs"] = str(tls.ca_certs)
        options["ssl_cert_reqs"] = ssl.CERT_REQUIRED
    return options


def needs_write_executor(security: SecurityConfig) -> bool:
    """Whether some role has write APIs enabled (its server then runs on an executor keeping writes)."""
    return any(settings.write_apis for settings in security.roles.values())


def serve_secured(
    snapshot: Snapshot,
    executor: Executor | None,
    config: ServerConfig,
    security: SecurityConfig,
    write_executor: Executor | None = None,
) -> None:
    """Serve the authenticated gateway with uvicorn until interrupted."""
    gateway = SecureGateway(snapshot, executor, config, security, write_executor=write_executor)
    gateway.warm()
    settle_heap()
    print(f"serving (authenticated) on {gateway.security.auth.resource_url}", file=sys.stderr)
    app = gateway.asgi()
    uvicorn.run(
        app, host=config.http.host, port=config.http.port, log_level="warning", **uvicorn_tls(security)
    )


def describe(security: SecurityConfig) -> str:
    """One line for the operator's console: what is protected and how."""
    methods = [m for m, on in (("API keys", security.auth.keys_file), ("JWT", security.auth.jwt)) if on]
    return json.dumps({"auth": methods, "roles": sorted(security.roles), "limits": security.limits.storage})
