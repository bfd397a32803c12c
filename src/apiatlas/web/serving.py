"""The web pages under ``/ui`` of ``apiatlas serve --transport http`` without ``--security``: one reader,
the server's own navigator (one search index for the tools and the pages), the whole catalog's reports."""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.routing import Mount

from apiatlas.snapshot import Snapshot
from apiatlas.web.app import single_site_app
from apiatlas.web.ask import attach_assistant
from apiatlas.web.site import Reports, WebSite

if TYPE_CHECKING:
    from apiatlas.server.app import AtlasServer

UI_PATH = "/ui"


def mount_pages(app: Starlette, server: AtlasServer) -> Starlette:
    """``app`` with the pages mounted at ``/ui`` (over the server's navigator); returns ``app``."""
    navigator = server.navigator
    if navigator is None:  # a server not made by build_server: nothing to show
        return app
    snapshot = navigator.snapshot
    reports = Reports(snapshot) if isinstance(snapshot, Snapshot) else None
    site = attach_assistant(WebSite.of_navigator(navigator, reports), server.core)
    app.router.routes.append(Mount(UI_PATH, app=single_site_app(site)))
    return app
