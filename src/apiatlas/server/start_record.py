"""A snapshot's own record of a default stdio server's first answers, for its first start anywhere.

``stdio_start`` answers a client's first requests from the answers an earlier start with the same start
key held in ``$APIATLAS_CACHE``. A start with no such file — a snapshot never served, a new working
directory, an empty cache — would wait for the MCP SDK to load (most of a second). ``apiatlas compile``
therefore serves the snapshot it wrote once, over stdio, with the official client, and keeps the
answers of that real server in the snapshot (table ``start_answers``), with the key of what they
depend on (:func:`record_key`):

- the **code**: every file of the installed apiatlas (contents, not dates: the same release gives the
  same key on any machine), the ``RECORD`` (the file hashes) of the MCP SDK, pydantic and the typing
  modules it reads, which make the answers' JSON, and the Python version;
- the snapshot file's **name** (the server's title says it);
- a **default** start: ``apiatlas serve SNAP`` with no option but ``--transport stdio``, and no
  ``APIATLAS_*`` or ``PG*`` variable but ``APIATLAS_CACHE`` and ``APIATLAS_STDIO_START`` (the recording
  server runs without any of them; no value is kept, not even hashed).

The snapshot's content is the rest of what the answers depend on, and the record lives in it. A start
that differs in anything above does not use the record. Only standard-library modules are imported.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote

from apiatlas.local_cache import CACHE_ENV
from apiatlas.server.stdio_start import OFF_ENV, package_files

TABLE = "start_answers"
_FORMAT = 1
_ROW = "stdio"
# what the answers' JSON is made by, besides apiatlas: the SDK (its two distributions), pydantic and
# the typing modules its schemas read
_MAKERS = ("mcp", "mcp_types", "pydantic", "pydantic_core", "annotated_types", "typing_extensions")
_BENIGN_ENV = frozenset({CACHE_ENV, OFF_ENV})


def code_identity() -> str:
    """A hash of the contents of every file of this apiatlas and of the makers' ``RECORD``s."""
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parents[1]
    for path in package_files(root):
        with open(path, "rb") as handle:
            data = handle.read()
        digest.update(f"{os.path.relpath(path, root)}\0{len(data)}\0".encode())
        digest.update(data)
    for package in _MAKERS:
        digest.update(f"\0{package}\0".encode())
        digest.update(_distribution_record(package))
    return digest.hexdigest()


def _distribution_record(package: str) -> bytes:
    """The ``RECORD`` (every file's hash) of each distribution named like ``package`` beside it (found, not
    imported); else the location, size and date of the module (an install without one: this machine)."""
    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        return b"absent"
    origin = Path(spec.origin)
    site = origin.parent.parent if spec.submodule_search_locations else origin.parent
    prefix = f"{package}-"
    records = [
        site / entry / "RECORD"
        for entry in sorted(os.listdir(site))
        if entry.startswith(prefix) and entry.endswith(".dist-info") and "-" not in entry[len(prefix) : -10]
    ]
    found = [record.read_bytes() for record in records if record.is_file()]
    if found:
        return b"\0".join(found)
    stat = os.stat(origin)
    return f"{origin}\0{stat.st_size}\0{stat.st_mtime_ns}".encode()


def record_key(snapshot_name: str) -> str:
    """What a default server's first answers depend on besides the snapshot's content (module docstring)."""
    whole = {"format": _FORMAT, "code": code_identity(), "python": sys.version, "name": snapshot_name}
    return hashlib.sha256(json.dumps(whole, sort_keys=True).encode("utf-8")).hexdigest()


def clean_env(env: dict[str, str]) -> dict[str, str]:
    """``env`` without the variables a default start has none of (the recording server's environment)."""
    return {k: v for k, v in env.items() if not k.startswith(("APIATLAS_", "PG")) or k in _BENIGN_ENV}


def default_snapshot(argv: list[str]) -> str | None:
    """The snapshot of ``apiatlas serve SNAP [--transport stdio]`` in a default environment, else None."""
    if clean_env(dict(os.environ)) != dict(os.environ):
        return None
    rest = [a for a in argv[1:] if a != "--transport=stdio"]
    if rest[1:] == ["--transport", "stdio"]:
        rest = rest[:1]
    elif rest[:2] == ["--transport", "stdio"]:
        rest = rest[2:]
    if argv[:1] != ["serve"] or len(rest) != 1 or rest[0].startswith("-"):
        return None
    return rest[0]


def recorded_answers(argv: list[str]) -> dict[str, Any]:
    """The answers the snapshot of a default start holds for this code and its name; {} otherwise."""
    snapshot = default_snapshot(argv)
    if snapshot is None or not os.path.isfile(snapshot):
        return {}
    try:
        conn = sqlite3.connect(f"file:{quote(os.path.abspath(snapshot))}?mode=ro&immutable=1", uri=True)
        try:
            row = conn.execute(f"SELECT value FROM {TABLE} WHERE name = ?", (_ROW,)).fetchone()
        finally:
            conn.close()
        data = json.loads(row[0]) if row else {}
    except (sqlite3.Error, ValueError):
        return {}
    if data.get("format") != _FORMAT or data.get("key") != record_key(os.path.basename(snapshot)):
        return {}
    answers = data.get("answers")
    return answers if isinstance(answers, dict) else {}


def write_record(snapshot: Path, snapshot_name: str, answers: dict[str, Any]) -> None:
    """Keep ``answers`` (a default server's, for a snapshot named ``snapshot_name``) in ``snapshot``."""
    value = json.dumps(
        {"format": _FORMAT, "key": record_key(snapshot_name), "answers": answers}, sort_keys=True
    )
    conn = sqlite3.connect(snapshot, isolation_level=None)
    try:
        conn.execute("BEGIN")
        conn.execute(f"CREATE TABLE IF NOT EXISTS {TABLE}(name TEXT PRIMARY KEY, value TEXT NOT NULL)")
        conn.execute(f"INSERT OR REPLACE INTO {TABLE}(name, value) VALUES (?, ?)", (_ROW, value))
        conn.execute("COMMIT")
    finally:
        conn.close()
