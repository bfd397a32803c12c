"""POST /ask on the HTTP server: behind --security authenticated, audited and seeing only the role's APIs
(the real gateway under uvicorn, the sample bank on the embedded PostgreSQL); without it, one user."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from apiatlas.assistant.http import STATE_ENV
from apiatlas.commands.serve import make_executor
from apiatlas.security.config import AuditSettings, AuthSettings, RoleSettings, SecurityConfig
from apiatlas.security.gateway import SecureGateway
from apiatlas.server.app import build_server, http_app
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot import Snapshot
from local_server import free_port, serve_asgi
from test_security_http import write_keys

ROLES = {"retail": RoleSettings(objects=["Prs", "Acc"]), "people": RoleSettings(objects=["Prs"])}


def test_ask_is_authenticated_audited_and_sees_only_the_roles_apis(
    bank_snapshot: Path, bank_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(STATE_ENV, str(tmp_path / "state.sqlite"))
    keys, plain = write_keys(tmp_path, {"ann": ["retail"], "pat": ["people"]})
    port = free_port()
    security = SecurityConfig(
        auth=AuthSettings(resource_url=f"http://127.0.0.1:{port}/mcp", keys_file=keys),
        roles=ROLES,
        audit=AuditSettings(file=tmp_path / "audit.jsonl"),
    )
    with Snapshot.open(bank_snapshot) as snap:
        executor = make_executor(bank_db, snap, ServerConfig())
        front = SecureGateway(snap, executor, ServerConfig(), security)
        with serve_asgi(front.asgi(), port):
            url = f"http://127.0.0.1:{port}/ask"
            assert httpx.post(url, json={"question": "Найди клиента Михалова"}).status_code == 401

            def ask(who: str, question: str, conversation: str) -> dict[str, object]:
                headers = {"Authorization": f"Bearer {plain[who]}"}
                body = {"question": question, "conversation_id": conversation}
                response = httpx.post(url, json=body, headers=headers, timeout=60)
                assert response.status_code == 200, response.text
                answer: dict[str, object] = response.json()["answer"]
                return answer

            found = ask("ann", "Найди клиента Михалова", "a1")
            assert found["outcome"] == "FULLY_ANSWERED" and found["conversation_id"] == "a1"
            accounts = ask("ann", "А какие у него счета?", "a1")
            assert accounts["outcome"] == "FULLY_ANSWERED"
            assert "API_Acc_FindListByListOwnerID" in accounts["apis"]  # type: ignore[operator]
            other = ask("pat", "А какие у него счета?", "a1")  # another principal's "a1": nothing to refer to
            assert other["outcome"] != "FULLY_ANSWERED"
            people = ask("pat", "какие счета у Михалова", "p1")
            assert not any(a.startswith("API_Acc") for a in people["apis"])  # type: ignore[union-attr]
            bad = httpx.post(url, json={"question": ""}, headers={"Authorization": f"Bearer {plain['ann']}"})
            assert bad.status_code == 400
    lines = [json.loads(x) for x in (tmp_path / "audit.jsonl").read_text().splitlines()]
    asked = [x for x in lines if x["tool"] == "ask"]
    assert len(asked) == 5 and {x["principal"] for x in asked} == {"ann", "pat"}


def test_ask_on_a_server_without_security(
    bank_snapshot: Path, bank_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(STATE_ENV, str(tmp_path / "plain.sqlite"))
    with Snapshot.open(bank_snapshot) as snap:
        executor = make_executor(bank_db, snap, ServerConfig())
        server = build_server(snap, executor, ServerConfig())
        with serve_asgi(http_app(server, ServerConfig())) as port:
            response = httpx.post(
                f"http://127.0.0.1:{port}/ask", json={"question": "Найди клиента Михалова"}, timeout=60
            )
    assert response.status_code == 200
    assert "772976034842" in json.dumps(response.json(), ensure_ascii=False)
