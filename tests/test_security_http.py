"""Authentication and roles over Streamable HTTP: 401s, protected-resource metadata, what each role sees."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp_types import ElicitRequestParams, ElicitResult

from apiatlas.executors.base import Executor
from apiatlas.security.auth import hash_api_key, new_api_key
from apiatlas.security.config import (
    AuditSettings,
    AuthSettings,
    JwtSettings,
    RateLimits,
    RoleSettings,
    SecurityConfig,
)
from apiatlas.security.gateway import SecureGateway
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot import Snapshot
from local_server import free_port, serve_asgi
from test_server_catalog import structured, write_server_snapshot

ISSUER = "https://idp.bank.test"
AUDIENCE = "apiatlas-test"
PREFIX = "bank_"
ROLES = {
    "retail": RoleSettings(objects=["Prs", "Acc"]),  # no securities deals (DSec)
    "reader": RoleSettings(
        tools=["list_business_objects", "list_apis", "describe_api", "search", "execute_api"]
    ),
    "operator": RoleSettings(write_apis=["API_Acc_SetPurpose"]),
}


class Idp:
    """A test identity provider: one RSA key published as a JWKS file, tokens signed with it."""

    def __init__(self, folder: Path) -> None:
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.key.public_key()))
        self.jwks_file = folder / "jwks.json"
        self.jwks_file.write_text(json.dumps({"keys": [{**jwk, "kid": "k1", "use": "sig", "alg": "RS256"}]}))

    def token(self, subject: str = "alice", roles: list[str] | str | None = None, **override: Any) -> str:
        claims: dict[str, Any] = {
            "sub": subject,
            "iss": ISSUER,
            "aud": AUDIENCE,
            "exp": int(time.time()) + 600,
            "roles": roles if roles is not None else ["retail"],
            "scope": "apiatlas.read",
        }
        claims.update(override)
        return jwt.encode(claims, self.key, algorithm="RS256", headers={"kid": "k1"})


def write_keys(folder: Path, roles: dict[str, list[str]]) -> tuple[Path, dict[str, str]]:
    """A keys file with one fresh key per principal; returns the file and the plain keys."""
    plain = {name: new_api_key() for name in roles}
    entries = [
        {"id": f"{name}-1", "principal": name, "roles": r, "hash": hash_api_key(plain[name])}
        for name, r in roles.items()
    ]
    path = folder / "keys.yaml"
    path.write_text(json.dumps({"keys": entries}), encoding="utf-8")
    return path, plain


def security_config(
    folder: Path,
    port: int,
    keys_file: Path,
    idp: Idp | None = None,
    limits: RateLimits | None = None,
    audit: AuditSettings | None = None,
    roles: dict[str, RoleSettings] | None = None,
) -> SecurityConfig:
    return SecurityConfig(
        auth=AuthSettings(
            resource_url=f"http://127.0.0.1:{port}/mcp",
            keys_file=keys_file,
            jwt=JwtSettings(jwks_file=idp.jwks_file, issuer=ISSUER, audience=AUDIENCE) if idp else None,
        ),
        roles=roles or ROLES,
        limits=limits or RateLimits(),
        audit=audit or AuditSettings(file=folder / "audit.jsonl"),
    )


@contextmanager
def gateway(
    snapshot: Snapshot,
    security: SecurityConfig,
    port: int,
    executor: Executor | None = None,
    write_executor: Executor | None = None,
) -> Iterator[SecureGateway]:
    """The authenticated server on 127.0.0.1:``port`` (uvicorn in a thread) until the block ends."""
    front = SecureGateway(
        snapshot, executor, ServerConfig(tool_prefix=PREFIX), security, write_executor=write_executor
    )
    with serve_asgi(front.asgi(), port):
        yield front


@asynccontextmanager
async def mcp_client(url: str, token: str, **options: Any) -> AsyncIterator[Client]:
    async with (
        create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http,
        Client(streamable_http_client(url, http_client=http), **options) as client,
    ):
        yield client


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Snapshot]:
    path = write_server_snapshot(tmp_path_factory.mktemp("security") / "bank.atlas")
    with Snapshot.open(path) as snapshot:
        yield snapshot


def test_requests_without_a_valid_credential_get_401_with_the_standard_header(
    snap: Snapshot, tmp_path: Path
) -> None:
    idp = Idp(tmp_path)
    keys, plain = write_keys(tmp_path, {"ann": ["retail"], "nobody": ["unknown-role"]})
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    other_idp = Idp(tmp_path / "..")  # another key pair: a forged signature
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    wrong = {
        "no token": None,
        "bad key": "aa_not-a-key",
        "garbage jwt": "eyJhbGciOi.x.y",
        "expired": idp.token(exp=int(time.time()) - 3600),
        "wrong audience": idp.token(aud="someone-else"),
        "wrong issuer": idp.token(iss="https://evil.test"),
        "forged": other_idp.token(),
    }
    with gateway(snap, security_config(tmp_path, port, keys, idp), port):
        with httpx.Client(timeout=10) as http:
            for case, token in wrong.items():
                headers = {"Authorization": f"Bearer {token}"} if token else {}
                response = http.post(url, json=body, headers=headers)
                assert response.status_code == 401, case
                challenge = response.headers["WWW-Authenticate"]
                assert challenge.startswith("Bearer ") and 'error="invalid_token"' in challenge, case
                assert (
                    f'resource_metadata="http://127.0.0.1:{port}/.well-known/oauth-protected-resource/mcp"'
                    in (challenge)
                )
            assert (
                "expired"
                in http.post(url, json=body, headers={"Authorization": f"Bearer {wrong['expired']}"}).text
            )
            no_role = http.post(url, json=body, headers={"Authorization": f"Bearer {plain['nobody']}"})
            assert no_role.status_code == 403 and "insufficient_scope" in no_role.headers["WWW-Authenticate"]
            meta = http.get(f"http://127.0.0.1:{port}/.well-known/oauth-protected-resource/mcp").json()
            assert meta["resource"] == url and meta["authorization_servers"] == [ISSUER]

        async def main() -> None:
            for token in (idp.token(), plain["ann"], idp.token(aud=[AUDIENCE, "other"])):
                async with mcp_client(url, token) as client:
                    names = {t.name for t in (await client.list_tools()).tools}
                    assert f"{PREFIX}search" in names

        anyio.run(main)


def test_a_role_without_an_object_sees_none_of_its_apis_anywhere(snap: Snapshot, tmp_path: Path) -> None:
    keys, plain = write_keys(tmp_path, {"ann": ["retail"], "root": ["operator"]})
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    dsec = {"API_DSec_FindListIDByAccID", "API_DealSecurity_FindListByID"}

    async def seen(token: str) -> set[str]:
        """Every API key the principal meets in lists, search, contracts, chains and chain runs."""
        found: set[str] = set()
        async with mcp_client(url, token) as client:

            async def call(tool: str, args: dict[str, Any]) -> dict[str, Any]:
                return structured(await client.call_tool(PREFIX + tool, args))

            objects = await call("list_business_objects", {})
            found |= {o["key"] for o in objects["objects"]}
            for key in ("Prs", "Acc", "DSec"):
                page = await call("list_apis", {"object_key": key})
                found |= {a["key"] for a in page.get("apis", [])}
            for query in ("сделки с ценными бумагами", "API_DSec_FindListIDByAccID", "DealSecurity счет"):
                found |= {h["api_key"] for h in (await call("search", {"query": query})).get("hits", [])}
                found |= {
                    h["api_key"]
                    for h in (await call("search", {"query": query, "object_key": "DSec"})).get("hits", [])
                }
            for api in (
                "API_DSec_FindListIDByAccID",
                "API_DealSecurity_FindListByID",
                "API_DSec_FindListIDByAcc",
                "API_Acc_FindListByListOwnerID",
            ):
                described = await call("describe_api", {"api": api})
                if described["status"] == "ok":
                    found.add(described["api"]["key"])
                    found |= {d["producer_api"] for d in described["api"].get("depends_on", [])}
                found |= set(described.get("suggestions", []))
            down = await call(
                "dependency_chain",
                {
                    "api": "API_Acc_FindListByListOwnerID",
                    "direction": "downstream",
                    "min_confidence": "type_only",
                },
            )
            found |= {k for level in down.get("levels", []) for k in level}
            found |= {link["consumer_api"] for link in down.get("links", [])}
            up = await call("dependency_chain", {"api": "API_DealSecurity_FindListByID"})
            found |= {k for level in up.get("levels", []) for k in level}
            chain = await call(
                "execute_chain",
                {"steps": [{"api": "API_Acc_FindListByListOwnerID"}, {"api": "API_DSec_FindListIDByAccID"}]},
            )
            assert chain["status"] == "error"
            if chain["reason"] != "UNKNOWN_API":
                found |= {s["api"] for s in chain["steps"] if s["api"]}
        return found

    with gateway(snap, security_config(tmp_path, port, keys), port):
        retail = anyio.run(seen, plain["ann"])
        everything = anyio.run(seen, plain["root"])
    assert "DSec" in everything and dsec <= everything  # the same walk finds them when granted
    assert "DSec" not in retail and not (dsec & retail), sorted(dsec & retail)
    assert {"Prs", "Acc", "API_Prs_FindListByFIO", "API_Acc_FindListByListOwnerID"} <= retail


def test_a_write_api_is_absent_for_a_reader_and_confirmed_by_the_user_for_an_operator(
    snap: Snapshot, tmp_path: Path
) -> None:
    keys, plain = write_keys(tmp_path, {"rita": ["reader"], "oleg": ["operator"]})
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    asked: list[str] = []

    def answering(action: str, confirm: bool) -> Any:
        async def callback(context: Any, params: ElicitRequestParams) -> ElicitResult:
            asked.append(params.message)
            return ElicitResult(action=action, content={"confirm": confirm} if action == "accept" else None)

        return callback

    async def main() -> None:
        async with mcp_client(url, plain["rita"]) as reader:
            tools = {t.name for t in (await reader.list_tools()).tools}
            assert f"{PREFIX}search" in tools and f"{PREFIX}execute_chain" not in tools  # per-role tool set
            listed = structured(await reader.call_tool(f"{PREFIX}list_apis", {"object_key": "Acc"}))
            assert "API_Acc_SetPurpose" not in {a["key"] for a in listed["apis"]}
            absent = structured(
                await reader.call_tool(f"{PREFIX}describe_api", {"api": "API_Acc_SetPurpose"})
            )
            assert absent["reason"] == "UNKNOWN_API"
            run = structured(
                await reader.call_tool(
                    f"{PREFIX}execute_api", {"api": "API_Acc_SetPurpose", "args": {"AccountID": 1}}
                )
            )
            assert run["reason"] == "UNKNOWN_API" and not asked
            hidden_tool = structured(await reader.call_tool(f"{PREFIX}execute_chain", {"steps": []}))
            assert hidden_tool["reason"] == "INVALID_ARGUMENT" and "no tool named" in hidden_tool["message"]
        call = {"api": "API_Acc_SetPurpose", "args": {"AccountID": 2000001}}
        async with mcp_client(
            url, plain["oleg"], elicitation_callback=answering("decline", False)
        ) as operator:
            listed = structured(await operator.call_tool(f"{PREFIX}list_apis", {"object_key": "Acc"}))
            assert "API_Acc_SetPurpose" in {a["key"] for a in listed["apis"]}
            declined = structured(await operator.call_tool(f"{PREFIX}execute_api", call))
            assert declined["reason"] == "NOT_CONFIRMED" and "decline" in declined["message"]
            assert len(asked) == 1 and "API_Acc_SetPurpose" in asked[0] and "2000001" in asked[0]
            reads = structured(await operator.call_tool(f"{PREFIX}execute_api", {"api": "API_Acc_GetRest"}))
            assert reads["reason"] != "NOT_CONFIRMED" and len(asked) == 1  # reads are never asked about
        async with mcp_client(url, plain["oleg"], elicitation_callback=answering("accept", True)) as operator:
            accepted = structured(await operator.call_tool(f"{PREFIX}execute_api", call))
            assert accepted["reason"] != "NOT_CONFIRMED" and len(asked) == 2
        async with mcp_client(url, plain["oleg"]) as no_elicitation:
            refused = structured(await no_elicitation.call_tool(f"{PREFIX}execute_api", call))
            assert refused["reason"] == "NOT_CONFIRMED" and "elicitation" in refused["message"]

    with gateway(snap, security_config(tmp_path, port, keys), port):
        anyio.run(main)


def test_apiatlas_serve_with_a_security_file(tmp_path: Path) -> None:
    """The real command: `apiatlas serve --transport http --security FILE` (keys file, roles, audit log)."""
    snap_path = write_server_snapshot(tmp_path / "bank.atlas")
    keys, plain = write_keys(tmp_path, {"ann": ["retail"]})
    port = free_port()
    security = tmp_path / "security.yaml"
    security.write_text(
        json.dumps(
            {
                "auth": {"keys_file": keys.name},  # resource_url from --host/--port
                "roles": {"retail": {"objects": ["Prs", "Acc"]}},
                "audit": {"file": "audit.jsonl"},
            }
        ),
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("APIATLAS_DB")}
    command = [sys.executable, "-m", "apiatlas.cli", "serve", str(snap_path), "--transport", "http"]
    process = subprocess.Popen(
        [*command, "--port", str(port), "--security", str(security)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.monotonic() + 60
        while True:
            with socket.socket() as attempt:
                if attempt.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            assert time.monotonic() < deadline, "apiatlas serve --security did not listen"
            time.sleep(0.1)
        denied = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        assert denied.status_code == 401
        metadata = f"http://127.0.0.1:{port}/.well-known/oauth-protected-resource/mcp"
        assert f'resource_metadata="{metadata}"' in denied.headers["WWW-Authenticate"]
        assert httpx.get(metadata).json()["resource"] == url

        async def main() -> None:
            async with mcp_client(url, plain["ann"]) as client:
                objects = structured(await client.call_tool(f"{PREFIX}list_business_objects", {}))
                assert [o["key"] for o in objects["objects"]] == ["Acc", "Prs"]

        anyio.run(main)
    finally:
        process.terminate()
        out, _ = process.communicate(timeout=20)
    assert out == b""
    audited = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert [(a["principal"], a["tool"]) for a in audited] == [("ann", "list_business_objects")]


def test_stateless_mode_authenticates_every_request(snap: Snapshot, tmp_path: Path) -> None:
    """Replicas without sticky sessions: no server-held session, each request authenticated on its own."""
    keys, plain = write_keys(tmp_path, {"ann": ["retail"]})
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    security = security_config(tmp_path, port, keys)
    security.session_mode = "stateless"

    async def main() -> None:
        async with mcp_client(url, plain["ann"]) as client:
            found = structured(await client.call_tool(f"{PREFIX}search", {"query": "API_Acc_GetRest"}))
            assert found["hits"][0]["api_key"] == "API_Acc_GetRest"
            hidden = structured(
                await client.call_tool(f"{PREFIX}describe_api", {"api": "API_DSec_FindListIDByAccID"})
            )
            assert hidden["reason"] == "UNKNOWN_API"

    with gateway(snap, security, port):
        anyio.run(main)
        with httpx.Client(timeout=10) as http:
            body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
            assert http.post(url, json=body).status_code == 401
