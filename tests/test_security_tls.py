"""TLS through uvicorn's options from the security file: HTTPS works with the server's certificate only."""

from __future__ import annotations

import datetime
import ipaddress
import ssl
from pathlib import Path

import httpx
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from apiatlas.security.config import TlsSettings
from apiatlas.security.gateway import SecureGateway, uvicorn_tls
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot import Snapshot
from local_server import free_port, serve_asgi
from test_security_http import PREFIX, security_config, write_keys
from test_server_catalog import write_server_snapshot


def self_signed(folder: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / "server.crt", folder / "server.key"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    return cert_file, key_file


def test_the_gateway_serves_https_with_the_configured_certificate(tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    keys, _ = write_keys(tmp_path, {"ann": ["retail"]})
    port = free_port()
    security = security_config(tmp_path, port, keys)
    security.auth.resource_url = f"https://127.0.0.1:{port}/mcp"
    security.tls = TlsSettings(certfile=cert, keyfile=key)
    options = uvicorn_tls(security)
    assert options == {"ssl_certfile": str(cert), "ssl_keyfile": str(key)}
    with Snapshot.open(write_server_snapshot(tmp_path / "bank.atlas")) as snap:
        front = SecureGateway(snap, None, ServerConfig(tool_prefix=PREFIX), security)
        with serve_asgi(front.asgi(), port, **options):
            trusted = ssl.create_default_context(cafile=str(cert))
            body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
            with httpx.Client(verify=trusted, timeout=10) as https:
                denied = https.post(f"https://127.0.0.1:{port}/mcp", json=body)
                assert denied.status_code == 401
                assert (
                    f'resource_metadata="https://127.0.0.1:{port}/.well-known'
                    in denied.headers["WWW-Authenticate"]
                )
                meta = https.get(f"https://127.0.0.1:{port}/.well-known/oauth-protected-resource/mcp").json()
                assert meta["resource"].startswith("https://")
            with pytest.raises(httpx.ConnectError), httpx.Client(timeout=10) as untrusting:
                untrusting.get(f"https://127.0.0.1:{port}/.well-known/oauth-protected-resource")
            with pytest.raises(httpx.HTTPError), httpx.Client(timeout=5) as plain_http:
                plain_http.get(f"http://127.0.0.1:{port}/.well-known/oauth-protected-resource")
