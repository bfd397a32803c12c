"""``apiatlas web``: web pages for people over a snapshot (catalog, graph, search, plan, reports)."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Annotated
from urllib.parse import urlsplit

import typer

from apiatlas.cli_app import app
from apiatlas.errors import ApiatlasError

DEFAULT_PORT = 8780


def shown_url(url: str | None) -> str | None:
    """A database or upstream URL as the pages may show it: scheme, host and path, never credentials."""
    if not url:
        return None
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}"


@app.command("web")
def web_command(
    snapshot_path: Annotated[Path, typer.Argument(metavar="SNAP", help="snapshot file (*.atlas)")],
    db: Annotated[
        str | None, typer.Option("--db", help="database URL of a SQL snapshot (the Ask page reads it)")
    ] = None,
    upstream: Annotated[
        str | None,
        typer.Option("--upstream", help="base URL of a REST snapshot's API (the Ask page calls it)"),
    ] = None,
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = DEFAULT_PORT,
    config_file: Annotated[Path | None, typer.Option("--config", help="server config YAML")] = None,
    drift: Annotated[
        Path | None, typer.Option("--drift", help="drift report JSON (default: SNAP's stem + .drift.json)")
    ] = None,
) -> None:
    """Serve read-only web pages of a snapshot: catalog, API pages and graph, search, plan, reports, and
    the Ask page (the evidence assistant; it needs --db or --upstream)."""
    import uvicorn

    from apiatlas.commands.serve import _executor_url, check_search, load_config, make_executor
    from apiatlas.server.app import atlas_core
    from apiatlas.snapshot import Snapshot
    from apiatlas.snapshot.manifest import serving_of
    from apiatlas.web.app import single_site_app
    from apiatlas.web.ask import attach_assistant
    from apiatlas.web.site import Reports, WebSite

    logging.basicConfig(
        stream=sys.stderr, level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )
    try:
        config = load_config(config_file, None, None)
        snapshot = Snapshot.open(snapshot_path)
        check_search(snapshot, config)
        runs_on = _executor_url(serving_of(snapshot.manifest()).executor, db, upstream, config)
        executor = make_executor(db, snapshot, config, upstream)  # as serve makes it: the assistant's
        core = atlas_core(snapshot, executor, config, config.prefix_for(snapshot.manifest()))
        site = attach_assistant(WebSite.of_navigator(core.navigator, Reports(snapshot, drift)), core)
        site.runs_on = shown_url(runs_on)
        site.warm()
    except ApiatlasError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    typer.echo(f"apiatlas web: http://{host}:{port}/ ({snapshot_path.name}; Ctrl-C stops)", err=True)
    try:
        uvicorn.run(single_site_app(site), host=host, port=port, log_level="warning")
    finally:
        if executor is not None:  # its connection pool or HTTP client, also after Ctrl-C
            import anyio

            anyio.run(executor.close)
        snapshot.close()
