"""Evidence belongs to its principal: another principal cannot page it, even without MCP sessions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio

from apiatlas.executors.base import ExecutionLimits
from apiatlas.executors.registry import executor_for_url
from apiatlas.security.config import RoleSettings
from apiatlas.snapshot import Snapshot
from local_server import free_port
from test_limits_http import sleep_snapshot
from test_security_http import PREFIX, gateway, mcp_client, security_config, write_keys
from test_server_catalog import structured


def test_one_principals_evidence_is_not_visible_to_another(bank_db: str, tmp_path: Path) -> None:
    keys, plain = write_keys(tmp_path, {"ann": ["teller"], "bob": ["teller"]})
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    security = security_config(tmp_path, port, keys, roles={"teller": RoleSettings()})
    executor = executor_for_url(bank_db, ExecutionLimits())
    seen: dict[str, Any] = {}

    async def main() -> None:
        async with mcp_client(url, plain["ann"]) as ann:
            ran = structured(
                await ann.call_tool(f"{PREFIX}execute_api", {"api": "API_Test_Sleep", "args": {"Seconds": 0}})
            )
            seen["id"] = ran["evidence_id"]
            own = structured(await ann.call_tool(f"{PREFIX}fetch_evidence", {"evidence_id": seen["id"]}))
            seen["own"] = own.get("reason")
        async with mcp_client(url, plain["ann"]) as ann_again:  # a new connection of the same principal
            again = structured(
                await ann_again.call_tool(f"{PREFIX}fetch_evidence", {"evidence_id": seen["id"]})
            )
            seen["again"] = again.get("reason")
        async with mcp_client(url, plain["bob"]) as bob:
            other = structured(await bob.call_tool(f"{PREFIX}fetch_evidence", {"evidence_id": seen["id"]}))
            seen["other"] = other.get("reason")

    with Snapshot.open(sleep_snapshot(tmp_path / "sleep.atlas")) as snapshot:
        with gateway(snapshot, security, port, executor):
            anyio.run(main)
        anyio.run(executor.close)
    assert seen["id"] and seen["own"] != "UNKNOWN_EVIDENCE" and seen["again"] != "UNKNOWN_EVIDENCE"
    assert seen["other"] == "UNKNOWN_EVIDENCE"
