"""apiatlas config (a client's snippet, run as written) and apiatlas registry-entry (server.json)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import anyio
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from typer.testing import CliRunner

from apiatlas.cli import app
from test_server_catalog import write_server_snapshot


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_server_snapshot(tmp_path_factory.mktemp("config") / "core bank.atlas")


def snippet(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(app, ["config", *args])
    assert result.exit_code == 0, result.output
    return json.loads("\n".join(line for line in result.output.splitlines() if not line.startswith("#")))


def test_the_claude_desktop_snippet_starts_a_server_the_official_client_talks_to(snap: Path) -> None:
    entry = snippet(str(snap), "--client", "claude-desktop")["mcpServers"]["core-bank"]  # type: ignore[index]
    assert Path(entry["args"][1]) == snap.resolve() and Path(entry["command"]).is_absolute()

    async def main() -> list[str]:
        env = {k: v for k, v in os.environ.items() if k != "APIATLAS_DB_URL"}
        params = StdioServerParameters(command=entry["command"], args=entry["args"], env=env)
        async with Client(params) as client:
            return [t.name for t in (await client.list_tools()).tools]

    assert "bank_get_playbook" in anyio.run(main)


def test_credentials_are_named_never_written(snap: Path) -> None:
    db = "postgresql://atlas_reader@db.local:5432/bank"
    vscode = snippet(str(snap), "--client", "vscode", "--db", db)
    server = vscode["servers"]["core-bank"]  # type: ignore[index]
    assert server["env"] == {"PGPASSWORD": "${input:db-password}"} and vscode["inputs"][0]["password"] is True  # type: ignore[index]
    cursor = snippet(str(snap), "--client", "cursor", "--db", db)["mcpServers"]["core-bank"]  # type: ignore[index]
    assert cursor["env"] == {"PGPASSWORD": "${env:PGPASSWORD}"} and db in cursor["args"]
    http = snippet(str(snap), "--client", "http", "--url", "https://atlas.bank/mcp")["mcpServers"][
        "core-bank"
    ]  # type: ignore[index]
    assert http == {
        "type": "http",
        "url": "https://atlas.bank/mcp",
        "headers": {"Authorization": "Bearer ${env:APIATLAS_API_KEY}"},
    }
    refused = CliRunner().invoke(app, ["config", str(snap), "--db", "postgresql://a:pw@h/db"])
    assert refused.exit_code == 2 and "PGPASSWORD" in refused.output and "pw@" not in refused.output
    unknown = CliRunner().invoke(app, ["config", str(snap), "--client", "emacs"])
    assert unknown.exit_code == 2 and "claude-desktop" in unknown.output


def test_registry_entry_writes_server_json(snap: Path, tmp_path: Path) -> None:
    out = tmp_path / "server.json"
    done = CliRunner().invoke(app, ["registry-entry", str(snap), "--name", "io.example/bank", "-o", str(out)])
    assert done.exit_code == 0, done.output
    entry = json.loads(out.read_text(encoding="utf-8"))
    assert entry["name"] == "io.example/bank" and entry["$schema"].endswith("server.schema.json")
    assert len(entry["description"]) <= 100 and entry["version"]
    (package,) = entry["packages"]
    assert package["registryType"] == "pypi" and package["transport"] == {"type": "stdio"}
    assert [a.get("value") for a in package["packageArguments"]] == ["serve", str(snap.resolve())]
    assert {v["name"]: v["isSecret"] for v in package["environmentVariables"]} == {
        "APIATLAS_DB_URL": False,
        "PGPASSWORD": True,
    }
    bad = CliRunner().invoke(app, ["registry-entry", str(snap), "--name", "bank"])
    assert bad.exit_code == 2 and "reverse-DNS" in bad.output
