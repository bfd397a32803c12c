"""ConversationState: what a conversation has established, kept by the server between turns (SQLite by
default, Redis when replicas share it), each premise marked confirmed / inherited / assumed so an old
assumption never becomes a fact."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any, Protocol, cast

from pydantic import BaseModel, Field

from apiatlas.assistant.artifacts import (
    EntityBinding,
    EntityCandidate,
    EvidenceRows,
    Premise,
    Reading,
    ResolvedTerm,
    TimeScope,
)
from apiatlas.errors import ApiatlasError, ReasonCode

MAX_KEPT_EVIDENCE = 24


class ActiveEntity(BaseModel):
    """The thing the conversation is about, and the evidence row that proved it."""

    surface: str = Field(description="how the user named it, as written")
    kind: str
    key: str = Field(description="the row's key column and value, e.g. CustomerID=42")
    values: dict[str, Any] = Field(description="the row's identifying values, by input name")
    api: str
    evidence_id: str
    premise: Premise = "confirmed"


class OpenAmbiguity(BaseModel):
    """A question waiting for the user to say which of several matches they meant."""

    question: str
    surface: str
    kind: str
    api: str
    evidence_id: str
    columns: list[str]
    candidates: list[list[Any]]
    identifying: list[str] = Field(description="the columns named like the inputs of the finding API")


class OpenTerm(BaseModel):
    """A question waiting for the user to say what its informal terms mean."""

    question: str = Field(description="the question as it was to be planned")
    surfaces: list[str]
    stems: list[str]
    turn_id: str
    bindings: list[EntityBinding] = Field(default_factory=list)
    candidates: list[EntityCandidate] = Field(default_factory=list, description="what the question named")
    period: TimeScope = TimeScope()
    shape: str = "record"
    readings: list[Reading] = Field(default_factory=list, description="the readings offered, in order")


class PremiseRecord(BaseModel):
    text: str
    status: Premise
    turn_id: str


class ConversationState(BaseModel):
    conversation_id: str
    turns: int = 0
    active_domain: str = ""
    active_entity: ActiveEntity | None = None
    time_scope: TimeScope = TimeScope()
    topic: str = Field(default="", description="the last answered question without its period")
    resolved_terms: list[ResolvedTerm] = Field(default_factory=list, description="meanings the user gave")
    open_ambiguity: OpenAmbiguity | None = None
    open_term: OpenTerm | None = None
    premises: list[PremiseRecord] = Field(default_factory=list)
    last_evidence_ids: list[str] = Field(default_factory=list)
    evidence: list[EvidenceRows] = Field(default_factory=list, description="rows the conversation cites")

    def keep_evidence(self, rows: list[EvidenceRows]) -> None:
        known = {(r.evidence_id, r.table) for r in self.evidence}
        self.evidence += [r for r in rows if (r.evidence_id, r.table) not in known]
        self.evidence = self.evidence[-MAX_KEPT_EVIDENCE:]

    def evidence_rows(self, evidence_id: str) -> list[EvidenceRows]:
        return [r for r in self.evidence if r.evidence_id == evidence_id]


class StateStore:
    """Conversation states in one SQLite file (JSON per conversation); safe across threads."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS conversation (id TEXT PRIMARY KEY, state TEXT NOT NULL,"
                " updated REAL NOT NULL DEFAULT (julianday('now')))"
            )
            self._db.commit()

    def load(self, conversation_id: str) -> ConversationState:
        with self._lock:
            row = self._db.execute(
                "SELECT state FROM conversation WHERE id = ?", (conversation_id,)
            ).fetchone()
        if row is None:
            return ConversationState(conversation_id=conversation_id)
        return ConversationState.model_validate_json(row[0])

    def save(self, state: ConversationState) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO conversation (id, state) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET "
                "state = excluded.state, updated = julianday('now')",
                (state.conversation_id, state.model_dump_json()),
            )
            self._db.commit()

    def close(self) -> None:
        with self._lock:
            self._db.close()


class ConversationStore(Protocol):
    """Where conversation states live between turns: ``StateStore`` (SQLite) or ``RedisStateStore``."""

    def load(self, conversation_id: str) -> ConversationState: ...

    def save(self, state: ConversationState) -> None: ...

    def close(self) -> None: ...


class StateUnavailable(ApiatlasError):
    """The shared state store cannot be reached: the turn is refused rather than run without its past."""

    code = ReasonCode.UPSTREAM_UNAVAILABLE


REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


class RedisStateStore:
    """Conversation states in Redis, one JSON string per conversation under ``prefix``: replicas behind
    one balancer continue each other's conversations."""

    def __init__(self, url: str, prefix: str = "apiatlas:assistant:conversation:") -> None:
        import redis

        self.url = url
        self.prefix = prefix
        self._errors: tuple[type[Exception], ...] = (redis.RedisError, OSError)
        self._client = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)

    def load(self, conversation_id: str) -> ConversationState:
        try:
            raw = cast("bytes | None", self._client.get(self.prefix + conversation_id))
        except self._errors as exc:
            raise StateUnavailable(f"conversation state in {_safe(self.url)}: {exc}") from exc
        if raw is None:
            return ConversationState(conversation_id=conversation_id)
        return ConversationState.model_validate_json(raw)

    def save(self, state: ConversationState) -> None:
        try:
            self._client.set(self.prefix + state.conversation_id, state.model_dump_json())
        except self._errors as exc:
            raise StateUnavailable(f"conversation state in {_safe(self.url)}: {exc}") from exc

    def close(self) -> None:
        self._client.close()


def _safe(url: str) -> str:
    """The URL without its password (said in errors)."""
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.rpartition('@')[2]}"


def is_shared(where: str | Path) -> bool:
    return str(where).startswith(REDIS_SCHEMES)


def open_state(where: str | Path) -> ConversationStore:
    """The store ``where`` names: a ``redis://`` URL (shared by replicas), else a SQLite file."""
    return RedisStateStore(str(where)) if is_shared(where) else StateStore(where)
