"""The MCP tools: names, two-sentence descriptions, truthful annotations; thin handlers over the core."""

from __future__ import annotations

import inspect
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar

import anyio
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.tools import Tool
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from apiatlas.errors import ApiatlasError, ReasonCode
from apiatlas.executors.chain import MAX_STEPS, ChainStep
from apiatlas.server.chains import ChainRunner
from apiatlas.server.config import ServerConfig
from apiatlas.server.evidence import EvidenceRegistry, EvidenceStore
from apiatlas.server.execution import Execution
from apiatlas.server.navigation import Confidence, Navigator
from apiatlas.server.planning import ChainPlanning, PlanChainResult
from apiatlas.server.results import (
    DependencyChainResult,
    DescribeApiResult,
    ExecuteApiResult,
    ExecuteChainResult,
    FetchEvidenceResult,
    ListApisResult,
    ListObjectsResult,
    SearchResult,
    ToolResult,
)

log = logging.getLogger("apiatlas.server")
_HEADER = ("status", "reason", "message", "next_actions")
R = TypeVar("R", bound=ToolResult)

NAVIGATION = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)


def execution_annotations(read_only: bool, open_world: bool) -> ToolAnnotations:
    """Execute tools are read-only (and so idempotent) only when the executor never keeps writes."""
    return ToolAnnotations(
        read_only_hint=read_only,
        destructive_hint=False,
        idempotent_hint=read_only,
        open_world_hint=open_world,
    )


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
    """Structured content + a compact text rendering; ``isError`` when the status is "error"."""
    data = result.model_dump(mode="json", exclude_none=True)
    body = {k: v for k, v in data.items() if k not in _HEADER and v not in ([], {}, "", 0, False)}
    text = result.summary()
    if body:
        text += "\n" + json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structured_content=data,
        is_error=result.status == "error",
    )


EVIDENCE_SCOPE_HEADER = "x-apiatlas-evidence-scope"  # set by apiatlas.security's gateway, never by clients


def session_store(registry: EvidenceRegistry, ctx: Context) -> EvidenceStore:
    """The evidence store of the caller's session: the HTTP session id, else the authenticated principal's
    scope (set by the security gateway), else the process (stdio, unauthenticated stateless)."""
    headers = ctx.headers or {}
    key = headers.get("mcp-session-id") or headers.get(EVIDENCE_SCOPE_HEADER) or "local"
    return registry.for_session(key)


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


@dataclass
class AtlasTools:
    """Everything the tool handlers call: navigation, execution, chains, evidence."""

    navigator: Navigator
    execution: Execution
    chains: ChainRunner
    evidence: EvidenceRegistry
    config: ServerConfig


ApiName = Annotated[str, Field(description="API key, e.g. API_Prs_FindListByFIO")]
Cursor = Annotated[
    str | None, Field(description="next_cursor from the previous page; omit for the first page")
]


def atlas_tools(tools: AtlasTools, prefix: str, read_only: bool, open_world: bool) -> list[Tool]:
    """The navigation, execution and evidence tools under ``prefix``, with compact schemas."""
    nav, run = tools.navigator, tools.execution
    exec_notes = execution_annotations(read_only, open_world)
    # Searches overlap up to eight at a time: new queries queue for the embedding engines inside the
    # provider, which sees that queue and answers by words alone past ``embedding_wait_ms``, while
    # repeated queries (vectors from its cache) pass them; graph walks and plans overlap up to four.
    search_slot, graph_slots = anyio.CapacityLimiter(8), anyio.CapacityLimiter(4)

    async def list_business_objects(cursor: Cursor = None) -> Annotated[CallToolResult, ListObjectsResult]:
        return await answer(ListObjectsResult, lambda: nav.list_business_objects(cursor))

    async def list_apis(
        object_key: Annotated[
            str, Field(description="business object key from list_business_objects, e.g. DSec")
        ],
        cursor: Cursor = None,
    ) -> Annotated[CallToolResult, ListApisResult]:
        return await answer(ListApisResult, lambda: nav.list_apis(object_key, cursor))

    async def describe_api(api: ApiName) -> Annotated[CallToolResult, DescribeApiResult]:
        return await answer(DescribeApiResult, lambda: nav.describe_api(api))

    async def search(
        query: Annotated[str, Field(description="words (Russian or English) or an exact API name")],
        object_key: Annotated[str | None, Field(description="only APIs of this business object")] = None,
        limit: Annotated[int | None, Field(ge=1, le=100, description="most hits to return")] = None,
    ) -> Annotated[CallToolResult, SearchResult]:
        return await answer(SearchResult, off_loop(lambda: nav.search(query, object_key, limit), search_slot))

    async def dependency_chain(
        api: ApiName,
        direction: Annotated[
            Literal["upstream", "downstream"],
            Field(description="upstream: what must run before api; downstream: what api's outputs feed"),
        ] = "upstream",
        depth: Annotated[int, Field(ge=1, le=4, description="levels to follow (1-4)")] = 3,
        min_confidence: Annotated[
            Confidence, Field(description="weakest edge level kept: declared > name_type > alias > type_only")
        ] = "alias",
    ) -> Annotated[CallToolResult, DependencyChainResult]:
        return await answer(
            DependencyChainResult,
            off_loop(lambda: nav.dependency_chain(api, direction, depth, min_confidence), graph_slots),
        )

    planning = ChainPlanning(nav)

    async def plan_chain(
        request: Annotated[str, Field(description="the user's request in their words (Russian or English)")],
        target: Annotated[str | None, Field(description="the API whose result is wanted, if known")] = None,
        known: Annotated[
            dict[str, Any] | None,
            Field(description='values already known by input name, e.g. {"SurName": "Михалов"}'),
        ] = None,
        limit: Annotated[int, Field(ge=1, le=5, description="candidate chains to return")] = 3,
    ) -> Annotated[CallToolResult, PlanChainResult]:
        return await answer(
            PlanChainResult,
            off_loop(lambda: planning.plan_chain(request, target, known or {}, limit), graph_slots),
        )

    async def execute_api(
        api: ApiName,
        ctx: Context,
        args: Annotated[
            dict[str, Any] | None, Field(description="scalar inputs by parameter name (see describe_api)")
        ] = None,
        input_tables: Annotated[
            dict[str, list[dict[str, Any]]] | None,
            Field(description="input session tables: table name -> list of row objects"),
        ] = None,
    ) -> Annotated[CallToolResult, ExecuteApiResult]:
        store = session_store(tools.evidence, ctx)
        return await answer(
            ExecuteApiResult, lambda: run.execute_api(api, args or {}, input_tables or {}, store)
        )

    async def execute_chain(
        steps: Annotated[
            list[ChainStep],
            Field(
                min_length=1,
                max_length=MAX_STEPS,
                description="calls in order; input_table_mapping/param_mapping take columns of earlier "
                "steps' output tables (source_step is 0-based)",
            ),
        ],
        ctx: Context,
    ) -> Annotated[CallToolResult, ExecuteChainResult]:
        return await answer(
            ExecuteChainResult, lambda: tools.chains.execute_chain(steps, session_store(tools.evidence, ctx))
        )

    async def fetch_evidence(
        evidence_id: Annotated[str, Field(description="evidence_id returned by an execute tool")],
        ctx: Context,
        table: Annotated[str | None, Field(description="output table name; omit for the first table")] = None,
        cursor: Cursor = None,
    ) -> Annotated[CallToolResult, FetchEvidenceResult]:
        return await answer(
            FetchEvidenceResult,
            lambda: run.fetch_evidence(evidence_id, table, cursor, session_store(tools.evidence, ctx)),
        )

    specs: list[tuple[Callable[..., Any], str, str, ToolAnnotations]] = [
        (
            list_business_objects,
            "list_business_objects",
            "Lists the business objects of the catalog (clients, accounts, deals, ...) with their API "
            "counts, one page at a time. Use when you start and do not yet know which object holds the data.",
            NAVIGATION,
        ),
        (
            list_apis,
            "list_apis",
            "Lists the callable APIs of one business object with one-line titles, one page at a time. "
            "Use when you know the object (e.g. Acc) and need to pick the API that answers the question.",
            NAVIGATION,
        ),
        (
            describe_api,
            "describe_api",
            "Returns the full contract of one API: input JSON Schema, output tables with typed columns, "
            "error codes, when to use it and which APIs feed its inputs. Use when you are about to call it.",
            NAVIGATION,
        ),
        (
            search,
            "search",
            "Finds APIs by words or by exact name, best match first, optionally within one business object. "
            "Use when you do not know where to look.",
            NAVIGATION,
        ),
        (
            dependency_chain,
            "dependency_chain",
            "Shows which APIs must run before (upstream) or can run after (downstream) an API, level by "
            "level, with field mappings and their confidence. Use when an input is an ID you do not have.",
            NAVIGATION,
        ),
        (
            plan_chain,
            "plan_chain",
            "Plans the calls that answer a request: ranked chains from an entry point to the API that "
            "returns the data, where every input comes from and what to ask the user. Use when a question "
            "needs several calls; pass chains[0].steps to execute_chain after filling the ask_user values.",
            NAVIGATION,
        ),
        (
            execute_api,
            "execute_api",
            "Calls one API with scalar arguments and input tables and returns a preview of the rows with an "
            "evidence id for the full result. Use when describe_api showed you have every required input.",
            exec_notes,
        ),
        (
            execute_chain,
            "execute_chain",
            "Runs several APIs in order in one transaction, feeding output fields of earlier steps into "
            "inputs of later ones; every step is checked before the first runs. Use when dependency_chain "
            "showed the path from values you know to the data you need.",
            exec_notes,
        ),
        (
            fetch_evidence,
            "fetch_evidence",
            "Returns more rows of an executed call's result by evidence id, one page at a time. "
            "Use when a preview was truncated or you need to cite exact rows.",
            NAVIGATION,
        ),
    ]
    out = []
    for fn, name, description, notes in specs:
        tool = Tool.from_function(fn, name=f"{prefix}{name}", description=description, annotations=notes)
        tool.parameters = {**compact_schema(tool.parameters), "additionalProperties": False}
        tool.fn_metadata.output_schema = compact_schema(tool.fn_metadata.output_schema)
        out.append(tool)
    return out
