"""Secrets and security config: env vars or *_FILE, plaintext passwords refused, bad files and unknown tools
named."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from apiatlas.errors import ConfigError, Location
from apiatlas.security.auth import ApiKeyStore, hash_api_key, new_api_key
from apiatlas.security.config import AuthSettings, RoleSettings, SecurityConfig
from apiatlas.security.gateway import SecureGateway
from apiatlas.security.secrets import (
    configured_database_url,
    database_url,
    has_plaintext_password,
    read_secret,
)
from apiatlas.server.config import ServerConfig
from apiatlas.server.curated import CuratedConfig
from apiatlas.server.tools import TOOL_NAMES
from apiatlas.snapshot import Snapshot


def test_secrets_come_from_the_variable_or_its_file(tmp_path: Path) -> None:
    secret_file = tmp_path / "db_password"
    secret_file.write_text("p@ss:w/rd\n", encoding="utf-8")
    assert read_secret("DB_PASSWORD", {"DB_PASSWORD": "direct"}) == "direct"
    assert read_secret("DB_PASSWORD", {"DB_PASSWORD_FILE": str(secret_file)}) == "p@ss:w/rd"
    assert read_secret("DB_PASSWORD", {}) is None
    with pytest.raises(ConfigError, match="DB_PASSWORD_FILE names an unreadable file"):
        read_secret("DB_PASSWORD", {"DB_PASSWORD_FILE": str(tmp_path / "missing")})
    env = {"PG_PW_FILE": str(secret_file)}
    url = database_url("postgresql://bank:${PG_PW}@db.local:5432/core", allow_plaintext=False, env=env)
    assert url == "postgresql://bank:p%40ss%3Aw%2Frd@db.local:5432/core"
    implicit = database_url(
        "postgresql://bank@db.local/core", allow_plaintext=False, env={"APIATLAS_DB_PASSWORD": "s3"}
    )
    assert implicit == "postgresql://bank:s3@db.local/core"
    with pytest.raises(ConfigError, match="secret NOPE is not set"):
        database_url("postgresql://bank:${NOPE}@db/core", allow_plaintext=False, env={})


def test_a_plaintext_password_is_refused_unless_allowed() -> None:
    plain = "postgresql://bank:hunter2@db.local/core"
    assert has_plaintext_password(plain) and not has_plaintext_password("postgresql://bank:${PW}@db/core")
    with pytest.raises(ConfigError, match="plaintext password"):
        configured_database_url(plain, allow_plaintext=False, env={})
    assert configured_database_url(plain, allow_plaintext=True, env={}) == plain
    # a URL that itself comes from the environment (or its _FILE) is a secret already
    assert configured_database_url(None, allow_plaintext=False, env={"APIATLAS_DB_URL": plain}) == plain
    assert configured_database_url(None, allow_plaintext=False, env={}) is None


def test_serve_refuses_a_plaintext_password_with_a_clear_error(tmp_path: Path) -> None:
    security = tmp_path / "security.yaml"
    keys = tmp_path / "keys.yaml"
    keys.write_text(json.dumps({"keys": []}), encoding="utf-8")
    security.write_text("auth: {keys_file: keys.yaml}\n", encoding="utf-8")
    from test_server_catalog import write_server_snapshot

    snap = write_server_snapshot(tmp_path / "bank.atlas")
    env = {k: v for k, v in os.environ.items() if not k.startswith("APIATLAS_DB")}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "apiatlas.cli",
            "serve",
            str(snap),
            "--transport",
            "http",
            "--security",
            str(security),
            "--db",
            "postgresql://bank:hunter2@127.0.0.1:1/core",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 2 and "plaintext password" in done.stderr and "hunter2" not in done.stderr


def test_security_config_and_keys_file_errors_are_located(tmp_path: Path) -> None:
    bad = tmp_path / "security.yaml"
    bad.write_text("auth: {keys_file: keys.yaml}\nroles: {reader: {objectz: [Acc]}}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"roles\.reader\.objectz") as caught:
        SecurityConfig.load(bad)
    assert caught.value.location.file == str(bad)
    good = tmp_path / "ok.yaml"
    good.write_text("auth: {keys_file: keys.yaml}\naudit: {file: logs/audit.jsonl}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"auth\.keys_file: file not found"):  # checked at load time
        SecurityConfig.load(good)
    (tmp_path / "keys.yaml").write_text("keys: []\n", encoding="utf-8")
    loaded = SecurityConfig.load(good)
    assert (
        loaded.auth.keys_file == tmp_path / "keys.yaml" and loaded.audit.file == tmp_path / "logs/audit.jsonl"
    )
    keys = tmp_path / "keys.yaml"
    keys.write_text("keys: [{id: a, principal: ann, roles: [reader], hash: 'md5:abc'}]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="invalid keys file"):
        ApiKeyStore.load(keys)
    key = new_api_key()
    entry = {"id": "a", "principal": "ann", "roles": ["reader"], "hash": hash_api_key(key)}
    keys.write_text(
        json.dumps({"keys": [entry, {**entry, "hash": hash_api_key(new_api_key())}]}), encoding="utf-8"
    )
    with pytest.raises(ConfigError, match="duplicate key id"):
        ApiKeyStore.load(keys)
    keys.write_text(json.dumps({"keys": [entry]}), encoding="utf-8")
    store = ApiKeyStore.load(keys)
    principal = store.principal_for(key)
    assert principal is not None and principal.name == "ann" and principal.roles == ("reader",)
    assert store.principal_for(key + "x") is None and key not in keys.read_text()


def _security(folder: Path, **settings: Any) -> SecurityConfig:
    """``settings`` written to ``folder/security.yaml`` (with an empty keys file) and loaded from there."""
    (folder / "keys.yaml").write_text(json.dumps({"keys": []}), encoding="utf-8")
    path = folder / "security.yaml"
    path.write_text(yaml.safe_dump({"auth": {"keys_file": "keys.yaml"}, **settings}), encoding="utf-8")
    return SecurityConfig.load(path)


def _gateway_error(snapshot_path: Path, security: SecurityConfig, config: ServerConfig) -> ConfigError:
    with Snapshot.open(snapshot_path) as snapshot, pytest.raises(ConfigError) as caught:
        SecureGateway(snapshot, None, config, security)
    return caught.value


def test_a_role_or_limit_naming_an_unknown_tool_is_a_located_error(tmp_path: Path) -> None:
    from test_server_catalog import write_server_snapshot

    snap = write_server_snapshot(tmp_path / "bank.atlas")
    source = tmp_path / "security.yaml"
    analyst = {"tools": ["describe_api", "serach"]}
    error = _gateway_error(snap, _security(tmp_path, roles={"analyst": analyst}), ServerConfig())
    assert error.location == Location(file=str(source), anchor="roles.analyst.tools")
    assert "role 'analyst' names unknown tool 'serach'" in error.message
    assert error.message.endswith("the tools are " + ", ".join(TOOL_NAMES) + ", '*'")
    prefixed = _security(tmp_path, roles={"analyst": {"tools": ["bank_search"]}})
    error = _gateway_error(snap, prefixed, ServerConfig(tool_prefix="bank_"))
    assert "without the prefix 'bank_': 'search'" in error.message
    limited = _security(tmp_path, limits={"per_tool": {"execute_apis": "5/minute"}})
    error = _gateway_error(snap, limited, ServerConfig())
    assert error.location.anchor == "limits.per_tool" and "'execute_apis'" in error.message
    assert "'*'" not in error.message  # a limit names one tool, never all
    with Snapshot.open(snap) as snapshot:  # every served name (and '*') is accepted
        every = _security(tmp_path, roles={"all": {"tools": [*TOOL_NAMES, "*"]}})
        assert set(SecureGateway(snapshot, None, ServerConfig(), every).servers) == {"all"}


def test_a_role_may_name_a_curated_direct_tool(tmp_path: Path) -> None:
    from test_http_upstream import write_rest_snapshot

    snap = write_rest_snapshot(tmp_path / "rest.atlas")
    curated = tmp_path / "curated.yaml"
    curated.write_text(yaml.safe_dump({"tools": [{"api": "GET /search/person", "name": "find_people"}]}))
    config = ServerConfig(curated=curated)
    with Snapshot.open(snap) as snapshot:
        role = {"tools": ["describe_api", "find_people"]}
        front = SecureGateway(snapshot, None, config, _security(tmp_path, roles={"desk": role}))
        assert set(front.servers["desk"].accepted) == {"api_describe_api", "find_people"}
    unsourced = SecurityConfig(auth=AuthSettings(keys_file=tmp_path / "keys.yaml"))  # built in code
    unsourced.roles = {"desk": RoleSettings(tools=["find_persons"])}
    error = _gateway_error(snap, unsourced, config)
    assert error.message.endswith("fetch_evidence, get_playbook, find_people, '*'")
    assert error.location.file is None


def test_where_a_config_was_read_from_is_not_a_setting_in_it(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="source: Extra inputs are not permitted"):
        _security(tmp_path, source="elsewhere.yaml")
    curated = tmp_path / "curated.yaml"
    curated.write_text(yaml.safe_dump({"tools": [], "source": "elsewhere.yaml"}), encoding="utf-8")
    with pytest.raises(ConfigError, match="source: Extra inputs are not permitted"):
        CuratedConfig.load(curated)
    assert SecurityConfig().source is None and CuratedConfig().source is None  # built in code: no file


def test_serve_prints_an_unknown_role_tool_as_one_located_line(tmp_path: Path) -> None:
    from test_server_catalog import write_server_snapshot

    snap = write_server_snapshot(tmp_path / "bank.atlas")
    (tmp_path / "keys.yaml").write_text(json.dumps({"keys": []}), encoding="utf-8")
    security = tmp_path / "security.yaml"
    security.write_text(
        "auth: {keys_file: keys.yaml}\nroles: {analyst: {tools: [describe_api, serach]}}\n", encoding="utf-8"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "apiatlas.cli",
            "serve",
            str(snap),
            "--transport",
            "http",
            "--security",
            str(security),
        ],
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if not k.startswith("APIATLAS_DB")},
        timeout=60,
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert lines[0].startswith(f"error: BAD_CONFIG: {security} roles.analyst.tools: role 'analyst' names")
    assert "'serach'" in lines[0] and "list_business_objects, list_apis" in lines[0]
