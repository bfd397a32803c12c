"""Which executor serves a URL: one scheme -> factory table (httpx's ``mounts``), backends imported lazily.

``executors/base.py`` knows no backend; a backend joins by one ``EXECUTORS`` entry (or, from outside the
package, ``register_executor(scheme, factory)``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from apiatlas.catalog.model import DomainType
from apiatlas.errors import ConfigError, ReasonCode
from apiatlas.executors.base import ExecutionLimits, Executor

if TYPE_CHECKING:
    from apiatlas.executors.http import HttpSettings


@dataclass(frozen=True, slots=True)
class ExecutorOptions:
    """What a factory may use besides the URL and limits (each backend takes what applies to it)."""

    types: Mapping[str, DomainType] | None = None
    http: HttpSettings | None = None  # the HTTP executor's auth, retries and size cap
    pool: tuple[int, int] | None = None  # SQL executors: (max_connections, max_idle)


ExecutorFactory = Callable[[str, ExecutionLimits, ExecutorOptions], Executor]


def _postgres(url: str, limits: ExecutionLimits, options: ExecutorOptions) -> Executor:
    from apiatlas.executors.postgres import PostgresExecutor

    if options.pool is None:
        return PostgresExecutor(url, limits, types=options.types)
    size, idle = options.pool
    return PostgresExecutor(url, limits, types=options.types, max_connections=size, max_idle=idle)


def _sqlserver(url: str, limits: ExecutionLimits, options: ExecutorOptions) -> Executor:
    from apiatlas.executors.sqlserver import SqlServerExecutor

    if options.pool is None:
        return SqlServerExecutor(url, limits, types=options.types)
    size, idle = options.pool
    return SqlServerExecutor(url, limits, types=options.types, max_connections=size, max_idle=idle)


def _http(url: str, limits: ExecutionLimits, options: ExecutorOptions) -> Executor:
    from apiatlas.executors.http import HttpExecutor

    return HttpExecutor(url, limits, types=options.types, settings=options.http)


EXECUTORS: dict[str, ExecutorFactory] = {
    "postgresql": _postgres,
    "postgres": _postgres,
    "mssql": _sqlserver,
    "sqlserver": _sqlserver,
    "http": _http,
    "https": _http,
}


def register_executor(scheme: str, factory: ExecutorFactory) -> None:
    """Serve URLs of ``scheme`` (e.g. ``sqlite``) with ``factory``; replaces an existing entry."""
    EXECUTORS[scheme.lower()] = factory


def executor_for_url(
    url: str,
    limits: ExecutionLimits | None = None,
    *,
    types: Mapping[str, DomainType] | None = None,
    http: HttpSettings | None = None,
    pool: tuple[int, int] | None = None,
) -> Executor:
    """The executor for a URL by its scheme (``postgresql://``, ``mssql://``, ``http(s)://``, registered).

    ``http`` holds the HTTP executor's auth, retries and size cap; the SQL executors ignore it.
    ``pool`` is the SQL executors' connection pool size as (max_connections, max_idle); HTTP ignores it.
    """
    scheme = urlsplit(url).scheme.lower()
    factory = EXECUTORS.get(scheme)
    if factory is None:
        known = ", ".join(f"{s}://" for s in EXECUTORS)
        raise ConfigError(f"no executor for URL scheme {scheme!r}: use {known}", code=ReasonCode.BAD_CONFIG)
    return factory(url, limits or ExecutionLimits(), ExecutorOptions(types=types, http=http, pool=pool))
