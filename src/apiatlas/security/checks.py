"""Check a security config when it is loaded, so every mistake is one located line before serving.

Rate limits must parse, and every file the config names (keys, JWKS, TLS certificates) must be
readable; each problem is a ConfigError with the file and the setting's path. The tool names that roles
and per-tool limits give are checked when the served tools are known (``check_tool_names``, serving).
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

import yaml
from limits import parse
from pydantic import ValidationError

from apiatlas.errors import ConfigError, Location
from apiatlas.security.config import ALL, SecurityConfig


def check_security(config: SecurityConfig, path: Path) -> None:
    """ConfigError(file=path, anchor=setting) for the first problem found in ``config``."""
    limits = config.limits
    rates = {"limits.per_principal": limits.per_principal} | {
        f"limits.per_tool.{tool}": rate for tool, rate in limits.per_tool.items()
    }
    for anchor, rate in rates.items():
        if rate is None:
            continue
        try:
            parse(rate)
        except ValueError as exc:
            raise _error(path, anchor, f"not a rate limit like '60/minute' or '10/second': {rate!r}") from exc
    files = {"auth.keys_file": config.auth.keys_file}
    if config.auth.jwt is not None:
        files["auth.jwt.jwks_file"] = config.auth.jwt.jwks_file
    if config.tls is not None:
        files |= {"tls.certfile": config.tls.certfile, "tls.keyfile": config.tls.keyfile}
        files["tls.ca_certs"] = config.tls.ca_certs
    for anchor, named in files.items():
        if named is not None and not named.is_file():
            raise _error(path, anchor, f"file not found: {named}")
    if config.auth.keys_file is not None:
        _check_keys_file(config.auth.keys_file, path)


def _error(path: Path | None, anchor: str, message: str) -> ConfigError:
    return ConfigError(message, location=Location(file=str(path) if path else None, anchor=anchor))


def check_tool_names(config: SecurityConfig, served: Collection[str], prefix: str = "") -> None:
    """ConfigError(file=config.source, anchor=setting) for a role's tool or a per-tool limit naming a tool
    that is not served (``served``: the tools' names without ``prefix``, curated direct tools included): it
    would grant or limit nothing, silently."""
    for role, settings in config.roles.items():
        for tool in settings.tools:
            if tool != ALL and tool not in served:
                where = f"roles.{role}.tools"
                raise _unknown_tool(config, where, f"role {role!r}", tool, [*served, repr(ALL)], prefix)
    for tool in config.limits.per_tool:
        if tool not in served:
            raise _unknown_tool(config, "limits.per_tool", "limits.per_tool", tool, list(served), prefix)


def _unknown_tool(
    config: SecurityConfig, anchor: str, who: str, tool: str, known: list[str], prefix: str
) -> ConfigError:
    bare = tool.removeprefix(prefix) if prefix else tool
    hint = (
        f" (a tool is named without the prefix {prefix!r}: {bare!r})"
        if bare != tool and bare in known
        else ""
    )
    return _error(
        config.source, anchor, f"{who} names unknown tool {tool!r}{hint}; the tools are {', '.join(known)}"
    )


def _check_keys_file(keys_file: Path, path: Path) -> None:
    from apiatlas.security.auth import ApiKeyStore, KeysFile

    try:
        data = yaml.safe_load(keys_file.read_text(encoding="utf-8")) or {}
        KeysFile.model_validate(data)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise _error(
            path, "auth.keys_file", f"cannot read {keys_file}: {' '.join(str(exc).split())}"
        ) from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        at = ".".join(str(p) for p in first["loc"])
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        raise _error(path, "auth.keys_file", f"{keys_file}: {at}: {first['msg']}{more}") from exc
    try:
        ApiKeyStore.load(keys_file)
    except ConfigError as exc:
        raise _error(path, "auth.keys_file", f"{keys_file}: {' '.join(exc.message.split())}") from exc
