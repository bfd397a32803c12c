"""Evidence kept server-side per MCP session: every executed call's full result under an evidence id."""

from __future__ import annotations

import hashlib
import itertools
import json
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from apiatlas.server.config import EvidenceCaps
from apiatlas.server.evidence_journal import EvidenceJournal, SavedSession


@dataclass(frozen=True)
class EvidenceTable:
    """One table of a call's result: column names and rows (JSON-ready values)."""

    name: str
    columns: list[str]
    rows: list[list[Any]]


@dataclass(frozen=True)
class Evidence:
    """The full result of one executed call, as the agent can cite and page it."""

    evidence_id: str
    api: str
    args: dict[str, Any]
    tables: list[EvidenceTable]
    size_bytes: int

    def table(self, name: str | None) -> EvidenceTable | None:
        """The named table (case-insensitive), or the first one when ``name`` is None."""
        if name is None:
            return self.tables[0] if self.tables else None
        for table in self.tables:
            if table.name.lower() == name.lower():
                return table
        return None


def _size(tables: list[EvidenceTable]) -> int:
    return sum(len(json.dumps(t.rows, ensure_ascii=False, default=str)) + 64 for t in tables)


@dataclass
class EvidenceStore:
    """A bounded LRU of evidence for one session: evicts the least recently used by count and bytes."""

    caps: EvidenceCaps
    _items: OrderedDict[str, Evidence] = field(default_factory=OrderedDict)
    _bytes: int = 0
    _counter: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _following: str | None = None
    # where a resumable session's evidence is written through (server/evidence_journal.py), under its key
    journal: EvidenceJournal | None = None
    session: str = ""

    @property
    def following(self) -> str | None:
        """The playbook this session follows (get_playbook sets it)."""
        return self._following

    @following.setter
    def following(self, playbook: str | None) -> None:
        self._following = playbook
        if self.journal is not None:
            self.journal.follow(self.session, playbook)

    def add(self, api: str, args: dict[str, Any], tables: list[EvidenceTable]) -> Evidence:
        """Keep a call's result; returns it with its new id ``ev-<n>-<hash>``."""
        size = _size(tables)
        digest = hashlib.sha256(
            json.dumps([api, args], sort_keys=True, ensure_ascii=False, default=str).encode("utf-8")
            + secrets.token_bytes(8)
        ).hexdigest()[:8]
        with self._lock:
            seq = next(self._counter)
            evidence = Evidence(f"ev-{seq}-{digest}", api, dict(args), tables, size)
            self._items[evidence.evidence_id] = evidence
            self._bytes += size
            dropped: list[str] = []
            while self._items and (
                len(self._items) > self.caps.max_entries or self._bytes > self.caps.max_bytes
            ):
                if len(self._items) == 1:
                    break  # the newest entry stays even when alone it exceeds the byte cap
                _, old = self._items.popitem(last=False)
                self._bytes -= old.size_bytes
                dropped.append(old.evidence_id)
            if self.journal is not None:
                self.journal.add(self.session, seq, evidence, dropped)
        return evidence

    def restore(self, saved: SavedSession) -> None:
        """Take back what the journal kept of this session (before the store serves any call)."""
        for evidence in saved.evidence:
            self._items[evidence.evidence_id] = evidence
            self._bytes += evidence.size_bytes
        self._counter = itertools.count(saved.counter + 1)
        self._following = saved.following

    def get(self, evidence_id: str) -> Evidence | None:
        with self._lock:
            evidence = self._items.get(evidence_id)
            if evidence is not None:
                self._items.move_to_end(evidence_id)
            return evidence

    def __len__(self) -> int:
        return len(self._items)

    def all(self) -> list[Evidence]:
        """Every kept call's evidence, oldest first (what a playbook's progress is computed from)."""
        with self._lock:
            return list(self._items.values())

    @property
    def size_bytes(self) -> int:
        return self._bytes


@dataclass
class EvidenceRegistry:
    """One evidence store per session key (an HTTP ``mcp-session-id``; one shared store otherwise); with a
    journal, the resumable sessions' stores are written through it and restored from it."""

    caps: EvidenceCaps
    _stores: OrderedDict[str, EvidenceStore] = field(default_factory=OrderedDict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    journal: EvidenceJournal | None = None  # resumable sessions outlive the process (opt-in)

    def for_session(self, session_key: str) -> EvidenceStore:
        with self._lock:
            store = self._stores.get(session_key)
            if store is None:
                store = self._new_store(session_key)
                self._stores[session_key] = store
                while len(self._stores) > self.caps.max_sessions:
                    self._stores.popitem(last=False)
            else:
                self._stores.move_to_end(session_key)
            return store

    def _new_store(self, session_key: str) -> EvidenceStore:
        """A session's store: written through the journal, and given back what it kept, when resumable."""
        if self.journal is None or not self.journal.resumable(session_key):
            return EvidenceStore(self.caps)
        store = EvidenceStore(self.caps, journal=self.journal, session=session_key)
        saved = self.journal.load(session_key)
        if saved is not None:
            store.restore(saved)
        return store
