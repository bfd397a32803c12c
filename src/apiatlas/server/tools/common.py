"""What every tool module shares: the core it calls, its spec, the compact schema, rendering and answering."""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import anyio
from mcp.server.mcpserver import Context
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from apiatlas.errors import ApiatlasError, ReasonCode
from apiatlas.server.result_text import ResultText, body_text, result_text_form
from apiatlas.server.results import ToolResult

if TYPE_CHECKING:  # the core imports the tools' result models; the tools reach the core through AtlasTools
    from apiatlas.server.chains import ChainRunner
    from apiatlas.server.config import ServerConfig
    from apiatlas.server.evidence import EvidenceRegistry, EvidenceStore
    from apiatlas.server.execution import Execution
    from apiatlas.server.navigation import Navigator
    from apiatlas.server.planning import ChainPlanning
    from apiatlas.server.playbooks import Playbooks
    from apiatlas.server.tools.examples import CatalogExamples

log = logging.getLogger("apiatlas.server")
ANSWER_HEADER = ("status", "reason", "message", "next_actions")
R = TypeVar("R", bound=ToolResult)
Handler = Callable[..., Awaitable[CallToolResult]]
EVIDENCE_SCOPE_HEADER = "x-apiatlas-evidence-scope"  # set by apiatlas.security's gateway, never by clients
# a client's conversation id: a new session sending it resumes that conversation's evidence and playbook
CONVERSATION_HEADER = "x-apiatlas-conversation"

# the previous page's paging.next_cursor (its how_to_continue says so): the name is the whole description
Cursor = Annotated[str | None, Field()]


@dataclass
class AtlasTools:
    """The core every tool handler calls: navigation, planning, execution, chains, evidence."""

    navigator: Navigator
    planning: ChainPlanning
    execution: Execution
    chains: ChainRunner
    evidence: EvidenceRegistry
    config: ServerConfig
    playbooks: Playbooks
    # Searches overlap up to eight at a time: new queries queue for the embedding engines inside the
    # provider, which sees that queue and answers by words alone past ``embedding_wait_ms``, while
    # repeated queries (vectors from its cache) pass them; graph walks and plans overlap up to four.
    search_slots: anyio.CapacityLimiter = field(default_factory=lambda: anyio.CapacityLimiter(8))
    graph_slots: anyio.CapacityLimiter = field(default_factory=lambda: anyio.CapacityLimiter(4))


@dataclass(frozen=True)
class ExecutorTraits:
    """What the served executor allows, which the execute tools' annotations state truthfully."""

    read_only: bool  # no executor, or one that never keeps writes
    open_world: bool  # it reaches an upstream HTTP API, not only the operator's own database


NAVIGATION = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)


def navigation_annotations(_traits: ExecutorTraits) -> ToolAnnotations:
    """Navigation tools only read the snapshot, whatever executor serves the execute tools."""
    return NAVIGATION


def execution_annotations(traits: ExecutorTraits) -> ToolAnnotations:
    """Execute tools are read-only (and so idempotent) only when the executor never keeps writes."""
    return ToolAnnotations(
        read_only_hint=traits.read_only,
        destructive_hint=False,
        idempotent_hint=traits.read_only,
        open_world_hint=traits.open_world,
    )


@dataclass(frozen=True)
class GuideLine:
    """A tool's line in the server instructions: ``order`` places it, ``text`` names tools as ``{p}name``."""

    order: int
    text: str


@dataclass(frozen=True)
class ToolSpec:
    """One MCP tool: its name, its two-sentence description, its annotations, its instruction line and
    the factory of its thin handler (given the core and examples read from the served snapshot)."""

    name: str
    description: str  # "Verbs ... . Use when ..."; may hold {object_hint} (see CatalogExamples.fields)
    handler: Callable[[AtlasTools, CatalogExamples], Handler]
    annotations: Callable[[ExecutorTraits], ToolAnnotations] = navigation_annotations
    guide: GuideLine | None = None
    # the APIs a call with these arguments would run (the security layer confirms writes among them)
    runs_apis: Callable[[dict[str, Any]], list[str]] | None = None
    # the kinds of snapshot it serves (``Serving.surface``): "api" (APIs to call), "code" (an SDK)
    surfaces: tuple[str, ...] = ("api",)


def compact_schema(node: Any, *, in_properties: bool = False) -> Any:
    """A JSON Schema without pydantic's generated titles and null defaults (fewer tokens, same meaning)."""
    if isinstance(node, list):
        return [compact_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if not in_properties and key == "title" and isinstance(value, str):
            continue
        if not in_properties and key == "default" and value is None:
            continue
        out[key] = compact_schema(value, in_properties=key in ("properties", "$defs") and not in_properties)
    return out


def render(result: ToolResult) -> CallToolResult:
    """Structured content + the summary and the data in the server's text form (server/result_text.py);
    ``isError`` when the status is "error"."""
    data = result.model_dump(mode="json", exclude_none=True)
    return CallToolResult(
        content=[TextContent(type="text", text=answer_text(result.summary(), data, result_text_form.get()))],
        structured_content=data,
        is_error=result.status == "error",
    )


def answer_text(summary: str, data: dict[str, Any], form: ResultText) -> str:
    """An answer's text: its summary (status, reason, message, next actions), then the rest of its
    structured content ``data`` (empty values left out) in ``form``."""
    body = {k: v for k, v in data.items() if k not in ANSWER_HEADER and v not in ([], {}, "", 0, False)}
    rest = body_text(body, form)
    return f"{summary}\n{rest}" if rest else summary


def session_key(headers: dict[str, str]) -> str:
    """Whose evidence a call reads and adds to: the client's conversation id (within the authenticated
    principal's scope), else the HTTP session id, else the principal's scope (set by the security
    gateway), else the process (stdio, unauthenticated stateless)."""
    scope = headers.get(EVIDENCE_SCOPE_HEADER)
    conversation = headers.get(CONVERSATION_HEADER)
    if conversation:
        return f"conversation:{scope or ''}:{conversation}"
    return headers.get("mcp-session-id") or scope or "local"


def session_store(registry: EvidenceRegistry, ctx: Context) -> EvidenceStore:
    """The evidence store of the caller's session (``session_key``)."""
    return registry.for_session(session_key(dict(ctx.headers or {})))


async def answer(kind: type[R], produce: Callable[[], R | Awaitable[R]]) -> CallToolResult:
    """Run a tool body; a typed error becomes a reason-coded result, a crash a TOOL_EXECUTION_ERROR."""
    try:
        value = produce()
        return render(await value if inspect.isawaitable(value) else value)
    except ApiatlasError as exc:
        return render(kind(status="error", reason=exc.code, message=exc.message))
    except Exception:
        log.exception("tool %s crashed", kind.__name__)
        return render(
            kind(
                status="error",
                reason=ReasonCode.TOOL_EXECUTION_ERROR,
                message="internal error while answering; the server keeps serving",
                next_actions=["retry once; if it fails again, report it to the operator"],
            )
        )


def off_loop(
    body: Callable[[], R], limiter: anyio.CapacityLimiter | None = None
) -> Callable[[], Awaitable[R]]:
    """Run a synchronous tool body in a worker thread, so CPU work (a query embedding, a graph walk)
    never stalls the event loop that every other session's calls share."""
    return lambda: anyio.to_thread.run_sync(body, limiter=limiter)
