"""Set-up for any snapshot: a client's configuration snippet with this machine's paths (credentials named
by environment variable, never written inline) and the MCP registry's ``server.json``."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from apiatlas import __version__
from apiatlas.errors import ConfigError, Location
from apiatlas.snapshot import Snapshot
from apiatlas.snapshot.manifest import serving_of

Client = Literal["claude-desktop", "cursor", "vscode", "http"]
CLIENTS: tuple[str, ...] = ("claude-desktop", "cursor", "vscode", "http")
REGISTRY_SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json"
API_KEY_ENV = "APIATLAS_API_KEY"  # what an HTTP client sends as its bearer token
PASSWORD_ENV = "PGPASSWORD"  # libpq reads it: the database password stays out of the snippet
_NAME = re.compile(r"[^A-Za-z0-9_-]+")


def serve_command(
    snapshot: Path, db: str | None, upstream: str | None, extra: list[str]
) -> tuple[str, list[str]]:
    """This machine's ``apiatlas serve`` for ``snapshot``: the installed script, else this interpreter."""
    script = shutil.which("apiatlas") or str(Path(sys.executable).with_name("apiatlas"))
    args = ["serve", str(snapshot.resolve())]
    if db:
        args += ["--db", db]
    if upstream:
        args += ["--upstream", upstream]
    args += extra
    if Path(script).exists():
        return script, args
    return sys.executable, ["-m", "apiatlas.entry", *args]


def check_no_password(url: str | None, option: str) -> None:
    """A URL with a password inline is refused: the snippet would carry it into a client's config file."""
    if url and urlsplit(url).password:
        raise ConfigError(
            f"{option} holds a password; leave it out and set {PASSWORD_ENV} (or a ~/.pgpass file) where the "
            "client starts the server",
            location=Location(anchor=option),
        )


def server_name(snapshot: Path) -> str:
    return _NAME.sub("-", snapshot.stem).strip("-") or "apiatlas"


def client_snippet(
    snapshot: Path,
    client: str,
    *,
    db: str | None = None,
    upstream: str | None = None,
    url: str | None = None,
) -> dict[str, Any]:
    """The snippet ``client`` reads (``claude_desktop_config.json``, ``.cursor/mcp.json``,
    ``.vscode/mcp.json``, or an HTTP client's ``mcpServers`` entry)."""
    if client not in CLIENTS:
        raise ConfigError(f"unknown client {client!r}; one of {', '.join(CLIENTS)}")
    check_no_password(db, "--db")
    name = server_name(snapshot)
    if client == "http":
        endpoint = url or "http://127.0.0.1:8765/mcp"
        entry = {
            "type": "http",
            "url": endpoint,
            "headers": {"Authorization": f"Bearer ${{env:{API_KEY_ENV}}}"},
        }
        return {"mcpServers": {name: entry}}
    command, args = serve_command(snapshot, db, upstream, [])
    if client == "vscode":
        server: dict[str, Any] = {"type": "stdio", "command": command, "args": args}
        inputs = []
        if db:
            server["env"] = {PASSWORD_ENV: "${input:db-password}"}
            inputs = [
                {
                    "type": "promptString",
                    "id": "db-password",
                    "description": "database password",
                    "password": True,
                }
            ]
        return {"servers": {name: server}, "inputs": inputs}
    server = {"command": command, "args": args}
    if db:  # Cursor expands ${env:…}; Claude Desktop passes env as written, so it names the password file
        server["env"] = (
            {PASSWORD_ENV: f"${{env:{PASSWORD_ENV}}}"}
            if client == "cursor"
            else {"PGPASSFILE": str(Path.home() / ".pgpass")}
        )
    return {"mcpServers": {name: server}}


def http_serve_line(snapshot: Path, db: str | None, upstream: str | None) -> str:
    """The command an operator runs for the ``http`` snippet's server."""
    command, args = serve_command(snapshot, db, upstream, ["--transport", "http"])
    return " ".join([command, *(f"'{a}'" if " " in a else a for a in args)])


def registry_entry(snapshot: Path, *, name: str, url: str | None = None) -> dict[str, Any]:
    """``server.json`` for the MCP registry: the PyPI package run over stdio on this snapshot, and the
    Streamable HTTP endpoint when ``url`` is given."""
    if "/" not in name:
        raise ConfigError(
            f"registry name {name!r} must be reverse-DNS with a slash, e.g. io.github.you/{name}"
        )
    with Snapshot.open(snapshot) as snap:
        manifest = snap.manifest()
        kept = len(snap.all_api_keys())
        playbooks = len(snap.playbooks())
    serving = serving_of(manifest)
    description = f"{kept} APIs of a {serving.display_name} through a few MCP tools"[:100]
    env = [{"name": "APIATLAS_DB_URL", "description": "database URL (no password)", "isSecret": False}]
    env.append({"name": PASSWORD_ENV, "description": "database password", "isSecret": True})
    entry: dict[str, Any] = {
        "$schema": REGISTRY_SCHEMA,
        "name": name,
        "title": f"apiatlas: {snapshot.stem}",
        "description": description
        + (f", {playbooks} playbooks" if playbooks and len(description) < 85 else ""),
        "version": __version__,
        "packages": [
            {
                "registryType": "pypi",
                "identifier": "apiatlas",
                "version": __version__,
                "runtimeHint": "uvx",
                "transport": {"type": "stdio"},
                "packageArguments": [
                    {"type": "positional", "value": "serve"},
                    {"type": "positional", "valueHint": "snapshot", "value": str(snapshot.resolve())},
                ],
                "environmentVariables": env if serving.executor == "sql" else [],
            }
        ],
    }
    if url:
        entry["remotes"] = [{"type": "streamable-http", "url": url}]
    return entry
