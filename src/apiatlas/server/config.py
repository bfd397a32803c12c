"""Server configuration: tool prefix, page sizes, previews, execution limits, database pool, evidence caps,
HTTP binding."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from apiatlas.config_file import load_yaml_model
from apiatlas.server.result_text import ResultText
from apiatlas.server.upstream import UpstreamConfig
from apiatlas.snapshot.manifest import serving_of

# Executions one process runs at once: the security config's default ``max_concurrent_executions``,
# and the database pool's size when neither is set.
DEFAULT_CONCURRENT_EXECUTIONS = 16


class EvidenceCaps(BaseModel):
    """Bounds of the evidence stores (least recently used go first): worst case max_bytes × max_sessions."""

    model_config = ConfigDict(extra="forbid")

    max_entries: int = Field(default=200, ge=1)
    max_bytes: int = Field(default=16 * 1024 * 1024, ge=1024)  # per session
    max_sessions: int = Field(default=32, ge=1)
    # resumable sessions' evidence (and followed playbook) written to this SQLite file, so they survive
    # a restart (server/evidence_journal.py); None: kept in memory only
    journal: Path | None = None


class ServerLimits(BaseModel):
    """Execution limits handed to the executor."""

    model_config = ConfigDict(extra="forbid")

    statement_timeout_ms: int = Field(default=15_000, ge=1)
    max_rows: int = Field(default=10_000, ge=1)
    max_value_bytes: int = Field(default=4096, ge=1)  # longest string value (UTF-8) in and out


class DatabasePool(BaseModel):
    """The SQL executors' (PostgreSQL, SQL Server) connections: at most ``max_connections`` calls run at
    once (more wait for a free one) and up to ``max_idle`` stay open between calls (the rest are
    closed). REST executors do not use it."""

    model_config = ConfigDict(extra="forbid")

    max_connections: int | None = Field(default=None, ge=1, le=1000)  # None: max concurrent executions
    max_idle: int | None = Field(default=None, ge=0, le=1000)  # None: as many as max_connections

    def sized(self, max_concurrent_executions: int | None = None) -> tuple[int, int]:
        """(max_connections, max_idle): unset, the pool has one connection per execution the server
        admits at once (``limits.max_concurrent_executions`` of the security config, else
        ``DEFAULT_CONCURRENT_EXECUTIONS``) and keeps them all open, so no admitted call waits."""
        size = self.max_connections or max_concurrent_executions or DEFAULT_CONCURRENT_EXECUTIONS
        idle = size if self.max_idle is None else min(self.max_idle, size)
        return size, idle


class HttpBinding(BaseModel):
    model_config = ConfigDict(extra="forbid")

    host: str = "127.0.0.1"
    port: int = Field(default=8765, ge=0, le=65535)
    path: str = "/mcp"
    # no MCP sessions: every request stands alone (evidence per x-apiatlas-conversation, else shared)
    stateless: bool = False


class ServerConfig(BaseModel):
    """Everything ``apiatlas serve`` can be told; loadable from YAML with ``--config FILE``."""

    model_config = ConfigDict(extra="forbid")

    tool_prefix: str | None = None  # None: the snapshot's (its manifest's serving.tool_prefix)
    page_size: int = Field(default=50, ge=1, le=500)
    search_limit: int = Field(default=10, ge=1, le=100)
    preview_rows: int = Field(default=10, ge=0, le=500)
    evidence_page_rows: int = Field(default=50, ge=1, le=1000)
    max_chain_depth: int = Field(default=4, ge=1, le=4)
    # describe_api contracts above this many UTF-8 bytes of JSON (≈ 4.2 a token) are cut (contract_bounds.py)
    describe_budget_bytes: int = Field(default=7500, ge=1000)
    limits: ServerLimits = Field(default_factory=ServerLimits)
    database_pool: DatabasePool = Field(default_factory=DatabasePool)
    evidence: EvidenceCaps = Field(default_factory=EvidenceCaps)
    http: HttpBinding = Field(default_factory=HttpBinding)
    upstream: UpstreamConfig = Field(default_factory=UpstreamConfig)  # REST: base URL, auth, retries
    curated: Path | None = None  # curated mode: operations served as direct tools (server/curated.py)
    # the model that embeds queries when the snapshot was embedded by an endpoint: openai:MODEL@BASE_URL
    # (its key from $APIATLAS_EMBEDDING_API_KEY); None: the snapshot's bundled model, else words only
    embedding: str | None = None
    # the longest a new query waits for a free embedding engine (the queue ahead of it at the recent
    # time per query) before it is ranked by words alone (reason WORDS_ONLY); None: always wait
    embedding_wait_ms: float | None = Field(default=100.0, ge=0)
    # the text content beside the structured content (server/result_text.py): the data as lines and
    # tables (default), only the summary (clients that forward the structured content), or JSON
    result_text: ResultText = "lines"

    def prefix_for(self, manifest: Mapping[str, Any] | str) -> str:
        """The tool-name prefix: the config's, else the snapshot's ``manifest`` says (``serving``; a bare
        source kind or an older manifest: its registered format's, else neutral)."""
        if self.tool_prefix is not None:
            return self.tool_prefix
        recorded = {"source_kind": manifest} if isinstance(manifest, str) else manifest
        return serving_of(recorded).tool_prefix

    @classmethod
    def load(cls, path: Path) -> ServerConfig:
        """Read a YAML file; a missing file, bad YAML or an unknown key is a ``ConfigError``."""
        config = load_yaml_model(cls, path, what="config", shape="a mapping of keys to values", empty=cls())
        # files named in the config are relative to it
        if config.curated is not None and not config.curated.is_absolute():
            config.curated = path.parent / config.curated
        if config.evidence.journal is not None and not config.evidence.journal.is_absolute():
            config.evidence.journal = path.parent / config.evidence.journal
        token_file = config.upstream.auth.bearer_token_file
        if token_file is not None and not token_file.is_absolute():
            config.upstream.auth.bearer_token_file = path.parent / token_file
        return config
