"""Opening an assistant for the CLI: the snapshot, its executor (``--db`` / ``--upstream``), the state
file beside the snapshot (or ``--state``: a file, or a ``redis://`` URL shared by replicas), the trace
beside the state file (beside the snapshot for Redis), settings, optional model roles."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from apiatlas.assistant.state import is_shared, open_state
from apiatlas.assistant.trace import TraceLog
from apiatlas.assistant.workflow import Assistant, AssistantSettings
from apiatlas.server.config import ServerConfig
from apiatlas.snapshot.reader import Snapshot

SETTINGS_ENV = "APIATLAS_ASSISTANT_SETTINGS"


@dataclass(frozen=True)
class AssistantOptions:
    snapshot: Path
    db: str | None = None
    upstream: str | None = None
    state: Path | str | None = None
    settings: Path | None = None
    llm: str | None = None
    trace: bool = True

    def state_path(self) -> Path | str:
        """The SQLite file (default: beside the snapshot), or the Redis URL, the conversations live in."""
        if self.state is None:
            return self.snapshot.with_suffix(".assistant.sqlite")
        return str(self.state) if is_shared(self.state) else Path(self.state)

    def trace_path(self) -> Path:
        where = self.state_path()
        if isinstance(where, str):
            return self.snapshot.with_suffix(".assistant.trace.jsonl")
        return where.with_suffix(".trace.jsonl")


@asynccontextmanager
async def open_assistant(options: AssistantOptions) -> AsyncIterator[Assistant]:
    """An assistant over the snapshot; the executor and the state are closed on leaving."""
    import os

    from apiatlas.commands.serve import make_executor  # the server's executor, built the same way

    settings_path = options.settings or (
        Path(os.environ[SETTINGS_ENV]) if os.environ.get(SETTINGS_ENV) else None
    )
    settings = AssistantSettings.load(settings_path)
    snapshot = Snapshot.open(options.snapshot)
    executor = make_executor(options.db, snapshot, ServerConfig(), options.upstream)
    state = open_state(options.state_path())
    roles = None
    if options.llm:
        from apiatlas.assistant.llm import ModelRoles

        roles = ModelRoles.from_spec(options.llm)
    trace = TraceLog(options.trace_path()) if options.trace else None
    try:
        yield Assistant(snapshot, executor, state=state, trace=trace, settings=settings, roles=roles)
    finally:
        if executor is not None:
            await executor.close()
        state.close()
        snapshot.close()
