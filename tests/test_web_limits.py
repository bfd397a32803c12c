"""The web pages under ``/ui`` of the authenticated gateway count as the tool calls they answer like: the
principal's rate limit for that tool refuses a page past its budget (429), and every page view is one
audit line (``tool: web:<tool>``, the query as arguments, the outcome)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from apiatlas.security.config import AuditSettings, AuthSettings, RateLimits, RoleSettings, SecurityConfig
from apiatlas.security.gateway import SecureGateway
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot import Snapshot
from local_server import free_port, serve_asgi
from test_security_http import write_keys


def test_page_views_are_rate_limited_and_audited_as_their_tools(bank_snapshot: Path, tmp_path: Path) -> None:
    keys_file, keys = write_keys(tmp_path, {"teller": ["retail"], "viewer": ["browser"]})
    audit = tmp_path / "audit.jsonl"
    port = free_port()
    security = SecurityConfig(
        auth=AuthSettings(resource_url=f"http://127.0.0.1:{port}/mcp", keys_file=keys_file),
        roles={
            "retail": RoleSettings(objects=["Prs", "Acc"]),
            "browser": RoleSettings(tools=["list_business_objects", "list_apis", "describe_api"]),
        },
        limits=RateLimits(per_tool={"search": "2/minute"}),
        audit=AuditSettings(file=audit, redact=["q"]),
    )
    with Snapshot.open(bank_snapshot) as snap:
        front = SecureGateway(snap, None, ServerConfig(tool_prefix="bank_"), security)
        with serve_asgi(front.asgi(), port):
            base = f"http://127.0.0.1:{port}/ui"
            teller = {"Authorization": f"Bearer {keys['teller']}"}
            query = {"q": "счета клиента"}
            found = [httpx.get(f"{base}/search", params=query, headers=teller) for _ in range(3)]
            assert [r.status_code for r in found] == [200, 200, 429]
            assert "RATE_LIMITED" in found[2].text and "retry after" in found[2].text
            assert httpx.get(f"{base}/", headers=teller).status_code == 200  # another tool's budget
            viewer = {"Authorization": f"Bearer {keys['viewer']}"}
            assert httpx.get(f"{base}/plan", params={"request": "x"}, headers=viewer).status_code == 403
            assert httpx.get(f"{base}/", headers={"Authorization": "Bearer aa_nope"}).status_code == 401
    lines = [json.loads(line) for line in audit.read_text(encoding="utf-8").splitlines()]
    pages = [(e["principal"], e["tool"], e["status"], e.get("reason")) for e in lines]
    assert pages == [
        ("teller", "web:search", "ok", None),
        ("teller", "web:search", "ok", None),
        ("teller", "web:search", "error", "RATE_LIMITED"),
        ("teller", "web:list_business_objects", "ok", None),
        ("viewer", "web:plan_chain", "error", "INVALID_ARGUMENT"),  # not granted: as an unknown tool
    ]  # the failed sign-in reached no page: the gateway's authentication answered it
    assert lines[0]["role"] == "retail" and lines[0]["arguments"] == {"q": "[REDACTED]"}
    assert all(e["duration_ms"] >= 0 for e in lines)
