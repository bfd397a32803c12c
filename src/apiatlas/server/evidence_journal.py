"""Evidence kept across server restarts: a SQLite file the evidence stores write through (opt-in).

``evidence.journal: FILE`` in the server config (``apiatlas serve --evidence-journal FILE``) makes every
resumable session's evidence — the calls it made, their rows, the playbook it follows — outlive the
process, so a conversation resumed after a restart (the same ``X-Apiatlas-Conversation``, or stdio's
one user) gets its evidence ids and its playbook progress back. Sessions that cannot be resumed (an
HTTP ``mcp-session-id`` dies with the process) are never written. The file holds result rows: it is
created readable by its owner only, and is bounded like the memory stores (``EvidenceCaps``: entries
and bytes per session, least recently used sessions dropped past ``max_sessions``).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from apiatlas.errors import ConfigError

if TYPE_CHECKING:
    from apiatlas.server.evidence import Evidence

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    session TEXT PRIMARY KEY, following TEXT, counter INTEGER NOT NULL DEFAULT 0, touched REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS evidence (
    session TEXT NOT NULL, seq INTEGER NOT NULL, evidence_id TEXT NOT NULL, api TEXT NOT NULL,
    args TEXT NOT NULL, tables TEXT NOT NULL, size INTEGER NOT NULL, PRIMARY KEY (session, evidence_id)
);
"""


class SavedSession:
    """What a journal holds of one session: its evidence (oldest first), counter and followed playbook."""

    def __init__(self, evidence: list[Evidence], counter: int, following: str | None) -> None:
        self.evidence = evidence
        self.counter = counter
        self.following = following


class EvidenceJournal:
    """The SQLite file behind the resumable evidence stores; one connection, serialised by a lock."""

    def __init__(self, path: Path, max_sessions: int) -> None:
        self.path = path
        self.max_sessions = max_sessions
        self._lock = threading.Lock()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fresh = not path.exists()
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            if fresh:
                os.chmod(path, 0o600)  # result rows: the owner's only
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise ConfigError(f"evidence journal {path}: cannot open it: {exc}") from exc

    @staticmethod
    def resumable(session_key: str) -> bool:
        """Whether a session can come back after a restart: a client's conversation id or stdio's one
        user ("local"); an HTTP session id cannot."""
        return session_key.startswith("conversation:") or session_key == "local"

    def load(self, session: str) -> SavedSession | None:
        from apiatlas.server.evidence import Evidence, EvidenceTable

        with self._lock:
            head = self._db.execute(
                "SELECT counter, following FROM sessions WHERE session = ?", (session,)
            ).fetchone()
            if head is None:
                return None
            rows = self._db.execute(
                "SELECT evidence_id, api, args, tables, size FROM evidence WHERE session = ? ORDER BY seq",
                (session,),
            ).fetchall()
            self._touch(session)
        evidence = [
            Evidence(eid, api, json.loads(args), [EvidenceTable(*t) for t in json.loads(tables)], size)
            for eid, api, args, tables, size in rows
        ]
        return SavedSession(evidence, int(head[0]), head[1])

    def add(self, session: str, seq: int, evidence: Evidence, dropped: list[str]) -> None:
        """Write one new call's evidence and forget the ones the store evicted for it."""
        tables = [[t.name, t.columns, t.rows] for t in evidence.tables]
        with self._lock, self._db:
            self._ensure(session)
            self._db.execute(
                "INSERT OR REPLACE INTO evidence VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    session,
                    seq,
                    evidence.evidence_id,
                    evidence.api,
                    _json(evidence.args),
                    _json(tables),
                    evidence.size_bytes,
                ),
            )
            self._db.execute("UPDATE sessions SET counter = ? WHERE session = ?", (seq, session))
            self._db.executemany(
                "DELETE FROM evidence WHERE session = ? AND evidence_id = ?", [(session, d) for d in dropped]
            )

    def follow(self, session: str, playbook: str | None) -> None:
        with self._lock, self._db:
            self._ensure(session)
            self._db.execute("UPDATE sessions SET following = ? WHERE session = ?", (playbook, session))

    def _ensure(self, session: str) -> None:
        self._db.execute(
            "INSERT INTO sessions (session, touched) VALUES (?, ?) "
            "ON CONFLICT (session) DO UPDATE SET touched = excluded.touched",
            (session, time.time()),
        )
        self._drop_oldest()

    def _touch(self, session: str) -> None:
        self._db.execute("UPDATE sessions SET touched = ? WHERE session = ?", (time.time(), session))

    def _drop_oldest(self) -> None:
        old = self._db.execute(
            "SELECT session FROM sessions ORDER BY touched DESC LIMIT -1 OFFSET ?", (self.max_sessions,)
        ).fetchall()
        for (session,) in old:
            self._db.execute("DELETE FROM evidence WHERE session = ?", (session,))
            self._db.execute("DELETE FROM sessions WHERE session = ?", (session,))

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)
