"""The ``upstream`` part of the server config: where a REST snapshot's calls go, with which credentials."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator

from apiatlas.errors import ConfigError, Location

if TYPE_CHECKING:  # the HTTP executor (and its client library) loads only for a REST upstream
    from apiatlas.executors.http import HttpSettings


class UpstreamAuth(BaseModel):
    """Upstream credentials: a bearer token from an environment variable or a file, or the caller's own.

    ``pass_through_header`` forwards that header of the MCP caller's HTTP request (e.g.
    ``X-Upstream-Authorization``, or ``Authorization`` when the MCP server itself takes no token) as the
    upstream ``Authorization``; the configured token is the fallback (stdio, or a caller without one).
    """

    model_config = ConfigDict(extra="forbid")

    bearer_token_env: str | None = None
    bearer_token_file: Path | None = None
    pass_through_header: str | None = None


class UpstreamConfig(BaseModel):
    """The REST upstream: base URL, credentials, retries, response size cap, fixed headers."""

    model_config = ConfigDict(extra="forbid")

    base_url: str | None = None  # e.g. https://api.themoviedb.org/3 (``--upstream`` overrides)
    auth: UpstreamAuth = Field(default_factory=UpstreamAuth)
    headers: dict[str, str] = Field(default_factory=dict)
    retries: int = Field(default=2, ge=0, le=10)
    backoff_s: float = Field(default=0.2, ge=0, le=60)
    max_response_bytes: int = Field(default=2_000_000, ge=1024)
    verify_tls: bool = True

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is not None and urlsplit(value).scheme not in ("http", "https"):
            raise ValueError("base_url must start with http:// or https://")
        return value

    def http_settings(self) -> HttpSettings:
        """The executor settings, with the bearer token read now; ConfigError when it cannot be read."""
        token: str | None = None
        auth = self.auth
        if auth.bearer_token_env:
            token = os.environ.get(auth.bearer_token_env)
            if not token:
                raise ConfigError(
                    f"upstream.auth.bearer_token_env names ${auth.bearer_token_env}, which is not set",
                    location=Location(anchor="upstream.auth.bearer_token_env"),
                )
        elif auth.bearer_token_file is not None:
            try:
                token = auth.bearer_token_file.read_text(encoding="utf-8").strip()
            except OSError as exc:
                raise ConfigError(
                    f"cannot read the upstream token file: {exc.strerror}",
                    location=Location(
                        file=str(auth.bearer_token_file), anchor="upstream.auth.bearer_token_file"
                    ),
                ) from exc
            if not token:
                raise ConfigError(
                    "the upstream token file is empty",
                    location=Location(
                        file=str(auth.bearer_token_file), anchor="upstream.auth.bearer_token_file"
                    ),
                )
        from apiatlas.executors.http import HttpSettings

        return HttpSettings(
            bearer_token=SecretStr(token) if token else None,
            pass_through_header=auth.pass_through_header,
            headers=dict(self.headers),
            retries=self.retries,
            backoff_s=self.backoff_s,
            max_response_bytes=self.max_response_bytes,
            verify_tls=self.verify_tls,
        )
