"""The security config (``apiatlas serve --security FILE``): auth, roles, limits, audit, metrics."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from apiatlas.config_file import load_yaml_model
from apiatlas.server.config import DEFAULT_CONCURRENT_EXECUTIONS

ALL = "*"


class JwtSettings(BaseModel):
    """Bearer JWTs signed by an identity provider whose keys are in a JWKS file or at a JWKS URL."""

    model_config = ConfigDict(extra="forbid")

    jwks_file: Path | None = None
    jwks_url: str | None = None
    issuer: str
    audience: str
    algorithms: list[str] = Field(default_factory=lambda: ["RS256", "ES256"])
    required_scopes: list[str] = Field(default_factory=list)
    roles_claim: str = "roles"  # a list of role names, or a space-separated string
    principal_claim: str = "sub"
    leeway_s: int = Field(default=30, ge=0, le=600)


class AuthSettings(BaseModel):
    """Who may call: API keys (hashed in a keys file) and/or JWTs; the URL clients connect to."""

    model_config = ConfigDict(extra="forbid")

    resource_url: str = ""  # as clients see it (https behind TLS); "" = from the HTTP binding
    keys_file: Path | None = None
    jwt: JwtSettings | None = None


class RoleSettings(BaseModel):
    """What one role sees and may do; anything not granted does not exist for it."""

    model_config = ConfigDict(extra="forbid")

    objects: list[str] = Field(default_factory=lambda: [ALL])  # business object keys, or "*"
    hide_apis: list[str] = Field(default_factory=list)  # API keys hidden even inside granted objects
    tools: list[str] = Field(default_factory=lambda: [ALL])  # tool names without prefix, or "*"
    write_apis: list[str] = Field(default_factory=list)  # write/destructive API keys enabled, or "*"


class RateLimits(BaseModel):
    """Rate limits in the ``limits`` notation ("60/minute"); storage shared by replicas when Redis."""

    model_config = ConfigDict(extra="forbid")

    storage: str = "memory://"  # or redis://host:port/0 (replicas share one budget)
    per_principal: str | None = "600/minute"
    per_tool: dict[str, str] = Field(default_factory=dict)  # tool name (no prefix) -> limit per principal
    # also the default size of the database pool (server config ``database_pool``)
    max_concurrent_executions: int = Field(default=DEFAULT_CONCURRENT_EXECUTIONS, ge=1)
    max_request_bytes: int = Field(default=1024 * 1024, ge=1024)
    max_response_bytes: int = Field(default=4 * 1024 * 1024, ge=1024)
    call_timeout_s: float = Field(default=60.0, gt=0)


class AuditSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    file: Path | None = None  # JSON lines, appended
    redact: list[str] = Field(default_factory=lambda: ["password", "token", "secret"])
    otel: bool = False  # also emit one OpenTelemetry span per call (the process's tracer provider)


class MetricsSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    path: str | None = "/metrics"  # None: no metrics endpoint


class TlsSettings(BaseModel):
    """TLS terminated by uvicorn itself (or leave it to the load balancer and omit this)."""

    model_config = ConfigDict(extra="forbid")

    certfile: Path
    keyfile: Path
    keyfile_password_env: str | None = None  # name of the env var (or its _FILE) holding the password
    ca_certs: Path | None = None  # to verify client certificates (mutual TLS) when set


class SecurityConfig(BaseModel):
    """Everything about serving many users; a principal's first role known here picks its tool set."""

    model_config = ConfigDict(extra="forbid")

    auth: AuthSettings = Field(default_factory=AuthSettings)
    roles: dict[str, RoleSettings] = Field(default_factory=lambda: {"reader": RoleSettings()})
    limits: RateLimits = Field(default_factory=RateLimits)
    audit: AuditSettings = Field(default_factory=AuditSettings)
    metrics: MetricsSettings = Field(default_factory=MetricsSettings)
    tls: TlsSettings | None = None
    allow_plaintext_passwords: bool = False
    session_mode: Literal["stateful", "stateless"] = "stateful"
    _source: Path | None = PrivateAttr(default=None)  # the file it was read from, never a setting in it

    @property
    def source(self) -> Path | None:
        """The file the config was read from (None when built in code): where its errors are located."""
        return self._source

    @classmethod
    def load(cls, path: Path) -> SecurityConfig:
        """Read YAML; relative paths inside are taken relative to the file's folder."""
        from apiatlas.security.checks import check_security

        config = load_yaml_model(cls, path, what="security config").relative_to(path.parent)
        config._source = path
        check_security(config, path)  # every mistake one located line now, not a traceback when serving
        return config

    def relative_to(self, folder: Path) -> SecurityConfig:
        """File paths resolved against ``folder`` (the config file's folder)."""
        auth = self.auth
        if auth.keys_file is not None and not auth.keys_file.is_absolute():
            auth.keys_file = folder / auth.keys_file
        if auth.jwt and auth.jwt.jwks_file is not None and not auth.jwt.jwks_file.is_absolute():
            auth.jwt.jwks_file = folder / auth.jwt.jwks_file
        if self.audit.file is not None and not self.audit.file.is_absolute():
            self.audit.file = folder / self.audit.file
        if self.tls is not None:
            for name in ("certfile", "keyfile", "ca_certs"):
                value = getattr(self.tls, name)
                if value is not None and not value.is_absolute():
                    setattr(self.tls, name, folder / value)
        return self
