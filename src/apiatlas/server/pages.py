"""The HTTP server's public manifest: ``GET /tools.json`` (tools and playbooks as the caller sees them) and
a small HTML page at ``/`` saying the same for a person setting a client up."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from apiatlas import __version__

if TYPE_CHECKING:
    from starlette.applications import Starlette

    from apiatlas.server.app import AtlasServer


async def listing(server: AtlasServer) -> dict[str, Any]:
    """What ``server`` serves: its name, the tools (name, title, description, annotations) in tools/list
    order, the playbooks (name, trigger) and the MCP path."""
    tools = [
        {
            "name": t.name,
            "description": t.description,
            "annotations": t.annotations.model_dump(by_alias=True, exclude_none=True)
            if t.annotations
            else {},
        }
        for t in await server.list_tools()
    ]
    core = server.core
    playbooks = (
        [{"name": p.name, "trigger": p.trigger} for p in core.playbooks.by_name.values()] if core else []
    )
    return {
        "server": server.name,
        "title": server.title,
        "version": __version__,
        "tools": tools,
        "playbooks": playbooks,
    }


def render_page(data: dict[str, Any], mcp_url: str) -> str:
    """The listing as a small HTML page."""
    tools = "".join(
        f"<li><code>{escape(t['name'])}</code> — {escape(t['description'] or '')}</li>" for t in data["tools"]
    )
    playbooks = (
        "".join(
            f"<li><code>{escape(p['name'])}</code> — {escape(p['trigger'])}</li>" for p in data["playbooks"]
        )
        or "<li>none</li>"
    )
    title = escape(data.get("title") or data["server"])
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title></head><body>"
        f"<h1>{title}</h1><p>MCP (Streamable HTTP) at <code>{escape(mcp_url)}</code>; "
        "the same list as JSON at <a href='tools.json'>tools.json</a>. "
        "<code>apiatlas config SNAP --client …</code> prints a client's snippet.</p>"
        f"<h2>Tools ({len(data['tools'])})</h2><ul>{tools}</ul>"
        f"<h2>Playbooks ({len(data['playbooks'])})</h2><ul>{playbooks}</ul></body></html>"
    )


async def listing_response(server: AtlasServer, request: Request, *, html: bool) -> Response:
    data = await listing(server)
    if not html:
        return JSONResponse(data)
    mcp_url = str(request.base_url).rstrip("/") + server_path(request)
    return HTMLResponse(render_page(data, mcp_url))


def server_path(request: Request) -> str:
    return str(request.app.state.mcp_path) if hasattr(request.app.state, "mcp_path") else "/mcp"


def add_pages(app: Starlette, server: AtlasServer, mcp_path: str = "/mcp") -> None:
    """``GET /`` and ``GET /tools.json`` on ``app``, listing what ``server`` serves."""

    async def page(request: Request) -> Response:
        return await listing_response(server, request, html=True)

    async def manifest(request: Request) -> Response:
        return await listing_response(server, request, html=False)

    app.state.mcp_path = mcp_path
    app.router.routes.extend(
        [Route("/", page, methods=["GET"]), Route("/tools.json", manifest, methods=["GET"])]
    )
