"""Credentials from the environment: ``NAME`` or ``NAME_FILE``; plaintext passwords in config refused.

A database URL may name its password as ``${ENV_NAME}``; the value then comes from ``ENV_NAME`` or
from the file named by ``ENV_NAME_FILE`` (Docker/Kubernetes secrets), never from the client config.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

from apiatlas.errors import ConfigError, Location

_REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


def read_secret(name: str, env: Mapping[str, str] | None = None) -> str | None:
    """``$NAME``, else the content of the file ``$NAME_FILE`` (one trailing newline dropped), else None."""
    env = os.environ if env is None else env
    if env.get(name):
        return env[name]
    file_name = env.get(f"{name}_FILE")
    if not file_name:
        return None
    path = Path(file_name)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(
            f"{name}_FILE names an unreadable file: {exc.strerror}", location=Location(file=str(path))
        ) from exc
    return text[:-1] if text.endswith("\n") else text


def resolve_references(text: str, env: Mapping[str, str] | None = None, *, url: bool = True) -> str:
    """``text`` with every ``${NAME}`` replaced by its secret (URL-quoted when ``url``)."""

    def value(match: re.Match[str]) -> str:
        secret = read_secret(match.group(1), env)
        if secret is None:
            raise ConfigError(
                f"secret {match.group(1)} is not set (neither ${match.group(1)} nor ${match.group(1)}_FILE)"
            )
        return quote(secret, safe="") if url else secret

    return _REFERENCE.sub(value, text)


def has_plaintext_password(url: str) -> bool:
    """True when a URL carries a literal password (not a ``${NAME}`` reference)."""
    try:
        password = urlsplit(url).password
    except ValueError:
        return False
    return bool(password) and not _REFERENCE.fullmatch(password or "")


def database_url(
    configured: str, *, allow_plaintext: bool, env: Mapping[str, str] | None = None, source: str = "--db"
) -> str:
    """The usable URL: plaintext passwords refused unless allowed, ``${NAME}`` references resolved.

    A URL without a password picks one up from ``APIATLAS_DB_PASSWORD`` (or ``_FILE``) when set.
    """
    if has_plaintext_password(configured) and not allow_plaintext:
        raise ConfigError(
            f"{source} holds a plaintext password; write it as ${{APIATLAS_DB_PASSWORD}} and set that "
            "variable or APIATLAS_DB_PASSWORD_FILE, or set allow_plaintext_passwords: true",
            location=Location(anchor=source),
        )
    resolved = resolve_references(configured, env)
    parts = urlsplit(resolved)
    if parts.username and parts.password is None:
        password = read_secret("APIATLAS_DB_PASSWORD", env)
        if password is not None:
            netloc = f"{parts.username}:{quote(password, safe='')}@{parts.hostname or ''}"
            if parts.port:
                netloc += f":{parts.port}"
            resolved = urlunsplit(parts._replace(netloc=netloc))
    return resolved


def configured_database_url(
    db: str | None, *, allow_plaintext: bool, env: Mapping[str, str] | None = None
) -> str | None:
    """``--db`` (plaintext password refused unless allowed), else ``APIATLAS_DB_URL`` or its ``_FILE``.

    A URL that itself comes from the environment or a secret file is a secret already, so a
    password inside it is accepted; a URL on the command line or in a client config is not.
    """
    if db:
        return database_url(db, allow_plaintext=allow_plaintext, env=env, source="--db")
    from_env = read_secret("APIATLAS_DB_URL", env)
    if not from_env:
        return None
    return database_url(from_env, allow_plaintext=True, env=env, source="APIATLAS_DB_URL")
