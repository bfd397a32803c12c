"""Who is calling: API keys stored hashed in a keys file, and JWT bearer tokens checked against a JWKS.

JWTs are verified with PyJWT (a dependency of the MCP SDK itself, so nothing new is installed; the
RSA/EC maths comes from ``cryptography``). API keys are long random strings, so one SHA-256 of the
key is a safe stored form: the keys file never holds a usable key.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import jwt
import yaml
from mcp.server.auth.provider import AccessToken
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from apiatlas.errors import ApiatlasError, ConfigError, Location, ReasonCode
from apiatlas.security.config import AuthSettings, JwtSettings

KEY_PREFIX = "aa_"


class AuthError(ApiatlasError):
    """A request that cannot be let in: 401 (who are you?) or 403 (not allowed)."""

    code = ReasonCode.UNAUTHENTICATED

    def __init__(self, message: str, *, status: int = 401, error: str = "invalid_token") -> None:
        super().__init__(message)
        self.status = status
        self.error = error


@dataclass(frozen=True)
class Principal:
    """An authenticated caller: a name, its roles and scopes, and how it proved who it is."""

    name: str
    roles: tuple[str, ...]
    scopes: tuple[str, ...] = ()
    method: str = "api_key"  # api_key | jwt
    issuer: str | None = None
    claims: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def access_token(self, token: str, expires_at: int | None = None) -> AccessToken:
        """The MCP SDK's view of this principal (binds HTTP sessions to their owner)."""
        return AccessToken(
            token=token,
            client_id=self.name,
            scopes=list(self.scopes),
            expires_at=expires_at,
            subject=self.name,
            claims={"iss": self.issuer, "roles": list(self.roles)}
            if self.issuer
            else {"roles": list(self.roles)},
        )


def new_api_key() -> str:
    """A fresh random API key (give it to the user once; store only ``hash_api_key(key)``)."""
    return KEY_PREFIX + secrets.token_urlsafe(32)


def hash_api_key(key: str) -> str:
    """The stored form of an API key: ``sha256:<hex>``."""
    return "sha256:" + hashlib.sha256(key.encode("utf-8")).hexdigest()


class ApiKeyEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    principal: str
    roles: list[str] = Field(min_length=1)
    hash: str = Field(pattern=r"^sha256:[0-9a-f]{64}$")
    disabled: bool = False


class KeysFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    keys: list[ApiKeyEntry] = Field(default_factory=list)


class ApiKeyStore:
    """API keys by their hash, loaded from a YAML keys file (see docs/operations.md)."""

    def __init__(self, entries: list[ApiKeyEntry]) -> None:
        self._by_hash = {e.hash: e for e in entries if not e.disabled}

    @classmethod
    def load(cls, path: Path) -> ApiKeyStore:
        where = Location(file=str(path))
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
            parsed = KeysFile.model_validate(data)
        except OSError as exc:
            raise ConfigError(f"cannot read keys file: {exc.strerror}", location=where) from exc
        except (yaml.YAMLError, ValidationError) as exc:
            raise ConfigError(f"invalid keys file: {exc}", location=where) from exc
        ids = [e.id for e in parsed.keys]
        if len(ids) != len(set(ids)):
            raise ConfigError("duplicate key id in keys file", location=where)
        return cls(parsed.keys)

    def principal_for(self, key: str) -> Principal | None:
        digest = hash_api_key(key)
        entry = self._by_hash.get(digest)
        if entry is None or not hmac.compare_digest(entry.hash, digest):
            return None
        return Principal(name=entry.principal, roles=tuple(entry.roles), method="api_key")


class JwtVerifier:
    """Checks signature (JWKS file or URL), issuer, audience, expiry and required scopes of a JWT."""

    def __init__(self, settings: JwtSettings) -> None:
        if (settings.jwks_file is None) == (settings.jwks_url is None):
            raise ConfigError("auth.jwt needs exactly one of jwks_file and jwks_url")
        self.settings = settings
        self._keys: jwt.PyJWKSet | None = None
        self._client = jwt.PyJWKClient(settings.jwks_url, cache_keys=True) if settings.jwks_url else None
        if settings.jwks_file is not None:
            where = Location(file=str(settings.jwks_file))
            try:
                self._keys = jwt.PyJWKSet.from_dict(
                    json.loads(settings.jwks_file.read_text(encoding="utf-8"))
                )
            except OSError as exc:
                raise ConfigError(f"cannot read JWKS file: {exc.strerror}", location=where) from exc
            except (ValueError, jwt.PyJWKSetError) as exc:
                raise ConfigError(f"invalid JWKS file: {exc}", location=where) from exc

    def _signing_key(self, token: str) -> Any:
        try:
            kid = jwt.get_unverified_header(token).get("kid")
        except jwt.DecodeError as exc:
            raise AuthError("malformed bearer token") from exc
        if self._client is not None:
            try:
                return self._client.get_signing_key_from_jwt(token).key
            except jwt.PyJWKClientError as exc:
                raise AuthError(f"no signing key for this token: {exc}") from exc
        assert self._keys is not None
        for key in self._keys.keys:
            if kid is None or key.key_id == kid:
                return key.key
        raise AuthError("token signed by an unknown key")

    async def verify(self, token: str) -> tuple[Principal, int | None]:
        key = (
            await anyio.to_thread.run_sync(self._signing_key, token)
            if self._client
            else self._signing_key(token)
        )
        s = self.settings
        try:
            claims: dict[str, Any] = jwt.decode(
                token,
                key,
                algorithms=s.algorithms,
                audience=s.audience,
                issuer=s.issuer,
                leeway=s.leeway_s,
                options={"require": ["exp", "iss", "aud"]},
            )
        except jwt.ExpiredSignatureError as exc:
            raise AuthError("token expired") from exc
        except jwt.InvalidAudienceError as exc:
            raise AuthError("token not issued for this server (audience)") from exc
        except jwt.InvalidIssuerError as exc:
            raise AuthError("token from an untrusted issuer") from exc
        except jwt.PyJWTError as exc:
            raise AuthError(f"invalid token: {exc}") from exc
        scopes = _listed(claims.get("scope", claims.get("scp")))
        missing = [sc for sc in s.required_scopes if sc not in scopes]
        if missing:
            raise AuthError(
                f"token lacks scope(s): {' '.join(missing)}", status=403, error="insufficient_scope"
            )
        name = str(claims.get(s.principal_claim) or "")
        if not name:
            raise AuthError(f"token has no '{s.principal_claim}' claim")
        roles = tuple(_listed(claims.get(s.roles_claim)))
        principal = Principal(
            name=name, roles=roles, scopes=tuple(scopes), method="jwt", issuer=s.issuer, claims=claims
        )
        exp = claims.get("exp")
        return principal, int(exp) if isinstance(exp, int | float) else None


def _listed(value: Any) -> list[str]:
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list):
        return [str(v) for v in value]
    return []


class Authenticator:
    """Turns a bearer token or API key into a ``Principal``, or raises ``AuthError``."""

    def __init__(self, keys: ApiKeyStore | None, jwt_verifier: JwtVerifier | None) -> None:
        self.keys = keys
        self.jwt = jwt_verifier

    @classmethod
    def from_settings(cls, settings: AuthSettings) -> Authenticator:
        if settings.keys_file is None and settings.jwt is None:
            raise ConfigError("auth needs a keys_file, a jwt section, or both")
        keys = ApiKeyStore.load(settings.keys_file) if settings.keys_file else None
        return cls(keys, JwtVerifier(settings.jwt) if settings.jwt else None)

    async def authenticate(self, token: str | None) -> tuple[Principal, int | None]:
        """The principal and the token's expiry (epoch seconds, None for API keys)."""
        if not token:
            raise AuthError("authentication required")
        if token.count(".") == 2 and self.jwt is not None:
            principal, exp = await self.jwt.verify(token)
            if exp is not None and exp < time.time() - self.jwt.settings.leeway_s:
                raise AuthError("token expired")
            return principal, exp
        if self.keys is not None:
            found = self.keys.principal_for(token)
            if found is not None:
                return found, None
        raise AuthError("unknown API key or invalid token")

    async def verify_token(self, token: str) -> AccessToken | None:
        """The MCP SDK's ``TokenVerifier`` protocol."""
        try:
            principal, exp = await self.authenticate(token)
        except AuthError:
            return None
        return principal.access_token(token, exp)
