"""Start and stop an embedded PostgreSQL server (the ``pgserver`` package) in a data directory.

Behaviour worth knowing (pgserver 0.1.4, PostgreSQL 16):

- The server listens on a Unix socket only (no TCP port), inside the data directory (or under
  ``$XDG_RUNTIME_DIR`` when the path is too long for a socket); the URI looks like
  ``postgresql://postgres:@/postgres?host=/path/to/data``. Authentication is ``trust``.
- Run as root, pgserver creates a system user ``pgserver``, runs the server as that user, chowns the
  data directory and adds ``o+rx`` to every parent directory. That is why the default data directory
  for root is under ``/var/tmp`` and not ``~/.cache``. Anything that later resets a parent to 0700
  (pytest does so to ``/tmp/pytest-of-<user>`` at every session start) locks the server out: use
  ``EmbeddedPostgres.temporary()`` (a ``mkdtemp`` directory) for throw-away servers.
- Several processes may use one data directory at the same time: the first one starts the server,
  the others attach to it (a file lock serialises start-up, a pid list in the data directory counts
  users). ``stop()`` only stops the server when the calling process is its last user; a process
  killed with SIGKILL stays in the list and the server then outlives everyone (stop it with
  ``pg_ctl -D DIR stop`` as the ``pgserver`` user, or start and stop once more).
- Within one process, two ``EmbeddedPostgres`` objects on the same directory share one pgserver
  handle: stopping one stops the server for both.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
import warnings
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from apiatlas.errors import ApiatlasError, Location, ReasonCode

if TYPE_CHECKING:
    from typing import Self

DATA_DIR_ENV = "APIATLAS_PG_DIR"


class EmbeddedPostgresError(ApiatlasError):
    """The embedded PostgreSQL server could not be started, reached or stopped."""

    code = ReasonCode.UPSTREAM_UNAVAILABLE


def default_data_dir() -> Path:
    """``$APIATLAS_PG_DIR``, else ``~/.cache/apiatlas/pg`` (root: ``/var/tmp/apiatlas-root/pg``)."""
    configured = os.environ.get(DATA_DIR_ENV)
    if configured:
        return Path(configured).expanduser()
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return Path("/var/tmp") / "apiatlas-root" / "pg"
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "apiatlas" / "pg"


_START_ATTEMPTS = 3  # pgserver reads postmaster.pid once a server is up: a server still stopping (a restart)
# or still writing it (a loaded machine) fails its "ready" assertion though the next look finds it ready


def _get_server(pgserver: Any, data_dir: Path, cleanup_mode: str) -> Any:
    """``pgserver.get_server``, looked at again (after a second) when it asserted that a server it found
    was not ready yet; the last attempt's failure is raised."""
    for _ in range(_START_ATTEMPTS - 1):
        try:
            return pgserver.get_server(data_dir, cleanup_mode=cleanup_mode)
        except AssertionError:
            time.sleep(1.0)
    return pgserver.get_server(data_dir, cleanup_mode=cleanup_mode)


def _log_tail(data_dir: Path, lines: int = 15) -> str:
    log = data_dir / "log"
    try:
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


class EmbeddedPostgres:
    """One embedded PostgreSQL server living in ``data_dir``.

    ``start()`` is idempotent and returns the connection URI; ``stop()`` is idempotent too. With
    ``delete_on_stop=True`` the data directory is removed when the last user stops the server (use it
    for throw-away servers in temporary directories).
    """

    def __init__(self, data_dir: Path | str | None = None, *, delete_on_stop: bool = False) -> None:
        self.data_dir = Path(data_dir).expanduser().resolve() if data_dir is not None else default_data_dir()
        self.delete_on_stop = delete_on_stop
        self._server: Any = None
        self._uri: str | None = None

    @classmethod
    def temporary(cls) -> EmbeddedPostgres:
        """A throw-away server in a fresh temporary directory, deleted when stopped."""
        return cls(tempfile.mkdtemp(prefix="apiatlas-pg-"), delete_on_stop=True)

    @property
    def running(self) -> bool:
        """Whether this object has started the server (and not stopped it)."""
        return self._server is not None

    @property
    def uri(self) -> str:
        """The psycopg connection URI of the ``postgres`` database; the server must be started."""
        if self._uri is None:
            raise EmbeddedPostgresError(
                "the embedded PostgreSQL server is not started", location=Location(file=str(self.data_dir))
            )
        return self._uri

    def start(self) -> str:
        """Start (or attach to) the server and return the URI of its ``postgres`` database."""
        if self._uri is not None:
            return self._uri
        location = Location(file=str(self.data_dir))
        try:
            self.data_dir.parent.mkdir(parents=True, exist_ok=True)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
                import pgserver  # type: ignore[import-untyped,unused-ignore]

                server = _get_server(pgserver, self.data_dir, "delete" if self.delete_on_stop else "stop")
                uri = str(server.get_uri())
        except ImportError as exc:
            raise EmbeddedPostgresError(
                "the 'pgserver' package is not installed (pip install pgserver)", location=location
            ) from exc
        except (
            subprocess.CalledProcessError,
            subprocess.TimeoutExpired,
            OSError,
            RuntimeError,
            AssertionError,
        ) as exc:
            tail = _log_tail(self.data_dir)
            raise EmbeddedPostgresError(
                f"cannot start embedded PostgreSQL in {self.data_dir}: {exc}"
                + (f"\nserver log:\n{tail}" if tail else ""),
                location=location,
            ) from exc
        self._server, self._uri = server, uri
        return uri

    def database_uri(self, database: str) -> str:
        """The URI of another database on this server (the server must be started)."""
        self.uri  # noqa: B018 - raises when not started
        return str(self._server.get_uri(database))

    def create_database(self, database: str) -> str:
        """Create ``database`` if it does not exist and return its URI."""
        import psycopg
        from psycopg import sql

        try:
            with psycopg.connect(self.uri, autocommit=True) as conn:
                exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (database,)).fetchone()
                if exists is None:
                    conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(database)))
        except psycopg.errors.DuplicateDatabase:
            pass  # created concurrently by another process
        except psycopg.Error as exc:
            raise EmbeddedPostgresError(
                f"cannot create database {database!r}: {exc}",
                location=Location(file=str(self.data_dir), anchor=database),
            ) from exc
        return self.database_uri(database)

    def stop(self) -> None:
        """Stop the server when this process is its last user; a no-op when not started."""
        server, self._server, self._uri = self._server, None, None
        if server is None:
            return
        try:
            server.cleanup()
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError, RuntimeError) as exc:
            raise EmbeddedPostgresError(
                f"cannot stop embedded PostgreSQL in {self.data_dir}: {exc}",
                location=Location(file=str(self.data_dir)),
            ) from exc

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"EmbeddedPostgres({str(self.data_dir)!r}, running={self.running})"
