"""PostgreSQL live catalog as a source: ``apiatlas compile postgresql://user@host/db#include=api``.

Credentials come from the environment, never from the URL: libpq's ``PGPASSWORD`` / ``~/.pgpass``,
or ``APIATLAS_DB_PASSWORD_FILE`` (a file holding the password). A URL with a password is refused,
because the source string is recorded in the snapshot manifest. Include/exclude patterns go in the
URL fragment, which is never sent to the server: ``#include=api,public.film_*&exclude=*._*``
(fnmatch on ``schema.routine``; a pattern without '.' names schemas).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import psycopg

from apiatlas.catalog.model import Catalog
from apiatlas.errors import ConfigError, Location, ReasonCode, SourceError
from apiatlas.sources import Progress
from apiatlas.sources.postgres.assemble import KIND, Selection, build_catalog
from apiatlas.sources.postgres.introspect import read_catalog

PASSWORD_FILE_ENV = "APIATLAS_DB_PASSWORD_FILE"
_SCHEME = re.compile(r"^(postgres(?:ql)?):/*", re.IGNORECASE)

__all__ = ["KIND", "Selection", "database_url", "is_postgres_url", "load_pg_catalog", "split_selection"]


def database_url(source: Path | str) -> str:
    """The URL as typed: a ``Path`` collapses ``postgresql://`` to ``postgresql:/``; this restores it."""
    text = str(source)
    match = _SCHEME.match(text)
    if match is None:
        return text
    rest = text[match.end() :]
    return f"{match.group(1)}://{rest}"


def is_postgres_url(source: Path | str) -> bool:
    """Whether ``source`` is a ``postgresql://`` or ``postgres://`` URL."""
    return _SCHEME.match(str(source)) is not None


def split_selection(url: str) -> tuple[str, Selection]:
    """(connection URL without the fragment, the include/exclude patterns of the fragment)."""
    base, _, fragment = url.partition("#")
    options = parse_qs(fragment, keep_blank_values=False)
    unknown = set(options) - {"include", "exclude"}
    if unknown:
        raise ConfigError(f"unknown option(s) in the URL fragment: {', '.join(sorted(unknown))} "
                          "(known: include, exclude)", location=Location(file=_redacted(base)))  # fmt: skip

    def patterns(name: str) -> tuple[str, ...]:
        return tuple(p.strip() for v in options.get(name, []) for p in v.split(",") if p.strip())

    return base, Selection(include=patterns("include"), exclude=patterns("exclude"))


def _redacted(url: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or ""
    return f"{parts.scheme}://{host}{parts.path}"


def _password() -> str | None:
    path = os.environ.get(PASSWORD_FILE_ENV)
    if not path:
        return None
    try:
        return Path(path).read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise ConfigError(f"{PASSWORD_FILE_ENV} names a file that cannot be read: {exc.strerror}",
                          location=Location(file=path)) from exc  # fmt: skip


def load_pg_catalog(source: Path | str, *, progress: Progress | None = None) -> Catalog:
    """Introspect the database at ``source`` (a postgresql:// URL) into a Catalog."""
    url, selection = split_selection(database_url(source))
    parts = urlsplit(url)
    if parts.password or "password" in parse_qs(parts.query):
        raise ConfigError(
            "the database URL contains a password; give it through PGPASSWORD or "
            f"{PASSWORD_FILE_ENV} instead (the URL is recorded in the snapshot)",
            location=Location(file=_redacted(url)),
        )
    try:
        rows = read_catalog(url, password=_password())
    except psycopg.Error as exc:
        raise SourceError(f"cannot read the catalog of {_redacted(url)}: {str(exc).strip().splitlines()[0]}",
                          code=ReasonCode.UPSTREAM_UNAVAILABLE,
                          location=Location(file=_redacted(url))) from exc  # fmt: skip
    if progress is not None:
        progress(1, 1)
    catalog = build_catalog(rows, selection)
    payload = json.dumps(rows.to_json(), sort_keys=True, ensure_ascii=False, default=str)
    catalog.source_files["@catalog/postgresql.json"] = hashlib.sha256(payload.encode("utf-8")).hexdigest()
    return catalog
