"""The web pages as a Starlette app: server-rendered HTML (Jinja2), one stylesheet, no script at all.

``web_app(site_for)`` serves the pages of ``pages.PAGES`` for the ``WebSite`` that ``site_for`` picks for a
request: one site for ``apiatlas web``, the caller's role's site under ``apiatlas serve`` (``secured.py``).
Every response forbids scripts and any other origin (Content-Security-Policy), so a page can load nothing
from outside apiatlas and run nothing.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from apiatlas import __version__
from apiatlas.errors import ApiatlasError
from apiatlas.web.site import WebSite

STATIC = Path(__file__).parent / "static"
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; img-src 'self' data:; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",  # not no-referrer: it makes a form post's Origin "null"
    "Cache-Control": "no-store",
}

SiteFor = Callable[[Request], WebSite]
Page = Callable[[Request, WebSite], dict[str, Any]]
# Under the gateway (secured.py), one page view as a tool call: the principal's rate limit for the
# tool the page answers like (``reports`` for the reports), and one audit line with the response's
# status. Given that tool and the query, it yields a function to call with the status code.
PAGE_GUARD_KEY = "apiatlas.page_guard"
PageGuard = Callable[[str, dict[str, Any]], AbstractAsyncContextManager[Callable[[int], None]]]

_templates = Environment(
    loader=PackageLoader("apiatlas.web", "templates"),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
)


def _json(value: Any, indent: int | None = None) -> str:
    """A value as JSON the way people read it (non-ASCII kept; the template escapes it)."""
    return json.dumps(value, ensure_ascii=False, indent=indent, sort_keys=indent is not None, default=str)


_templates.filters["json"] = _json


class PageError(ApiatlasError):
    """A page that cannot be shown (an unknown object or API): rendered with its status and a way on."""

    def __init__(self, message: str, status: int = 404, links: list[tuple[str, str]] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.links = links or []


def link_maker(request: Request) -> Callable[..., str]:
    """``u("api", key="GET /x")`` -> the URL of that page under wherever the pages are mounted."""
    root = request.scope.get("root_path", "").rstrip("/")

    def u(path: str = "", **query: Any) -> str:
        shown = {k: v for k, v in query.items() if v not in (None, "")}
        tail = ("?" + urlencode(shown)) if shown else ""
        return f"{root}/{quote(path, safe='/')}{tail}"

    return u


def render(
    request: Request, site: WebSite | None, template: str, context: dict[str, Any], status: int = 200
) -> Response:
    """The page ``template`` for the reader's ``site`` (None: a reader not signed in yet)."""
    started = request.scope.get("apiatlas.started", time.perf_counter())
    body = _templates.get_template(template).render(
        u=link_maker(request),
        site=site,
        version=__version__,
        path=request.url.path,
        elapsed_ms=lambda: f"{(time.perf_counter() - started) * 1000:.0f}",
        **context,
    )
    return HTMLResponse(body, status_code=status, headers=SECURITY_HEADERS)


def page_endpoint(
    site_for: SiteFor, page: Page, template: str, tool: str | None
) -> Callable[[Request], Awaitable[Response]]:
    """The endpoint of one page: pick the reader's site, check its role is granted the page's tool, build
    the context off the event loop, render."""
    from starlette.concurrency import run_in_threadpool

    async def endpoint(request: Request) -> Response:
        request.scope["apiatlas.started"] = time.perf_counter()
        site = site_for(request)
        guard: PageGuard | None = request.scope.get(PAGE_GUARD_KEY)
        if guard is None:
            return await answer(request, site)
        try:
            async with guard(tool or "reports", dict(request.query_params)) as done:
                response = await answer(request, site)
                done(response.status_code)
                return response
        except PageError as exc:  # the rate limit spent: refused before the page was built
            return render(request, site, "error.html", {"error": exc}, status=exc.status)

    async def answer(request: Request, site: WebSite) -> Response:
        if not site.allows(tool):
            refused = PageError(f"your role is not granted the {tool} tool this page answers with", 403)
            return render(request, site, "error.html", {"error": refused}, status=403)
        try:
            context = await run_in_threadpool(page, request, site)
        except PageError as exc:
            return render(request, site, "error.html", {"error": exc}, status=exc.status)
        except ApiatlasError as exc:
            return render(request, site, "error.html", {"error": PageError(str(exc), 400)}, status=400)
        return render(request, site, template, context)

    return endpoint


def web_routes(site_for: SiteFor) -> list[Route | Mount]:
    """The pages and the stylesheet, relative to where they are mounted."""
    from apiatlas.web.ask import ask_routes
    from apiatlas.web.pages import PAGES

    routes: list[Route | Mount] = [
        Route(path, page_endpoint(site_for, page, template, tool), methods=["GET"], name=name)
        for name, (path, page, template, tool) in PAGES.items()
    ]
    routes += ask_routes(site_for)
    routes.append(Mount("/static", app=StaticFiles(directory=STATIC), name="static"))
    return routes


def web_app(site_for: SiteFor) -> Starlette:
    """The web pages for the site ``site_for`` picks per request."""
    return Starlette(routes=web_routes(site_for))


def single_site_app(site: WebSite) -> Starlette:
    """``apiatlas web``: every request sees the one site."""
    return web_app(lambda request: site)
