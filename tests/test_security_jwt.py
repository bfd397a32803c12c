"""JWT verification against a JWKS URL: signature, issuer, audience, expiry, scopes and roles claims."""

from __future__ import annotations

import functools
import http.server
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest

from apiatlas.errors import ConfigError
from apiatlas.security.auth import Authenticator, AuthError, JwtVerifier
from apiatlas.security.config import JwtSettings
from test_security_http import AUDIENCE, ISSUER, Idp


@pytest.fixture
def jwks_url(tmp_path: Path) -> Iterator[tuple[str, Idp]]:
    idp = Idp(tmp_path)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/jwks.json", idp
    finally:
        server.shutdown()
        thread.join(5)


def test_tokens_are_checked_against_a_jwks_url(jwks_url: tuple[str, Idp], tmp_path: Path) -> None:
    url, idp = jwks_url
    settings = JwtSettings(jwks_url=url, issuer=ISSUER, audience=AUDIENCE, required_scopes=["apiatlas.read"])
    auth = Authenticator(None, JwtVerifier(settings))

    async def check(token: str) -> str:
        try:
            principal, exp = await auth.authenticate(token)
        except AuthError as exc:
            return f"{exc.status} {exc.message}"
        assert exp is not None and exp > time.time()
        return f"ok {principal.name} {','.join(principal.roles)} {principal.method}"

    async def main() -> dict[str, str]:
        cases = {
            "valid": idp.token(subject="olga", roles=["operator", "retail"]),
            "space roles": idp.token(subject="olga", roles="retail audit"),
            "expired": idp.token(exp=int(time.time()) - 600),
            "audience": idp.token(aud="another-service"),
            "issuer": idp.token(iss="https://elsewhere.test"),
            "no scope": idp.token(scope="openid"),
            "forged": Idp(tmp_path / "..").token(),
            "no exp": idp.token(exp=None),
        }
        return {name: await check(token) for name, token in cases.items()}

    seen = anyio.run(main)
    assert seen["valid"] == "ok olga operator,retail jwt"
    assert seen["space roles"] == "ok olga retail,audit jwt"
    assert seen["expired"] == "401 token expired"
    assert seen["audience"] == "401 token not issued for this server (audience)"
    assert seen["issuer"] == "401 token from an untrusted issuer"
    assert seen["no scope"] == "403 token lacks scope(s): apiatlas.read"
    assert seen["forged"].startswith("401 ") and seen["no exp"].startswith("401 ")


def test_jwt_settings_need_exactly_one_key_source(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="exactly one of jwks_file and jwks_url"):
        JwtVerifier(JwtSettings(issuer=ISSUER, audience=AUDIENCE))
    bad = tmp_path / "jwks.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ConfigError, match="invalid JWKS file"):
        JwtVerifier(JwtSettings(jwks_file=bad, issuer=ISSUER, audience=AUDIENCE))
