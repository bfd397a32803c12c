"""Builds the MCP server from a snapshot, an optional executor and a ServerConfig; serves stdio or HTTP."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import uvicorn
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INVALID_PARAMS,
    CallToolResult,
    GetPromptResult,
    InputRequiredResult,
    SetLevelRequestParams,
)
from pydantic import ValidationError
from starlette.applications import Starlette

from apiatlas import __version__
from apiatlas.errors import ReasonCode
from apiatlas.executors.base import Executor
from apiatlas.gc_phases import settle_heap
from apiatlas.server.chains import ChainRunner
from apiatlas.server.client_logging import SessionLogLevels
from apiatlas.server.config import ServerConfig
from apiatlas.server.curated import CuratedConfig, curated_tool_names, curated_tools
from apiatlas.server.evidence import EvidenceRegistry
from apiatlas.server.evidence_journal import EvidenceJournal
from apiatlas.server.execution import Execution
from apiatlas.server.navigation import Navigator
from apiatlas.server.pages import add_pages
from apiatlas.server.planning import ChainPlanning
from apiatlas.server.playbooks import Playbooks, playbook_prompts, with_progress
from apiatlas.server.result_text import result_text_form
from apiatlas.server.results import ToolResult
from apiatlas.server.surface import ICON, add_resources, with_evidence_link
from apiatlas.server.tools import AtlasTools, ExecutorTraits, atlas_tools, instructions, tools_for
from apiatlas.server.tools.common import render, session_key
from apiatlas.snapshot import CatalogReader
from apiatlas.snapshot.manifest import serving_of

log = logging.getLogger("apiatlas.server")


def _argument_problem(exc: ValidationError) -> tuple[ReasonCode, str]:
    missing = [".".join(str(p) for p in e["loc"]) for e in exc.errors() if e["type"] == "missing"]
    if missing:
        return ReasonCode.MISSING_REQUIRED_INPUT, f"missing required argument(s): {', '.join(missing)}"
    problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()[:5])
    return ReasonCode.INVALID_ARGUMENT, f"invalid argument(s): {problems}"


def _request_headers(context: Context[Any, Any] | None) -> dict[str, str] | None:
    """The HTTP headers of the MCP request being answered; None on stdio or in-process."""
    try:
        headers = context.headers if context is not None else None
    except ValueError:  # no request context (a direct call)
        return None
    return dict(headers) if headers else None


def warm_up_query(snapshot: CatalogReader) -> str:
    """Words of the served catalog (its first kept API's title): what matters is that a search has run."""
    keys = snapshot.all_api_keys()
    api = snapshot.get_api(keys[0]) if keys else None
    return (api.title or api.key) if api is not None else "warm up"


class AtlasServer(MCPServer[Any]):
    """An MCPServer whose argument errors are reason-coded results, never protocol errors or crashes."""

    def __init__(self, *, tools: list[Tool], **settings: Any) -> None:
        super().__init__(tools=tools, **settings)
        self.warm_up: Callable[[], object] | None = None  # set by build_server
        self.navigator: Navigator | None = None  # set by build_server
        self.core: AtlasTools | None = None  # set by build_server (the assistant's POST /ask plans over it)
        self.accepted = {t.name: set(t.parameters.get("properties", {})) for t in tools}
        self.log_levels = SessionLogLevels()  # MCP logging: the SDK's way to serve logging/setLevel
        self._lowlevel_server.add_request_handler(
            "logging/setLevel", SetLevelRequestParams, self.log_levels.set_level
        )
        self.middleware.append(self.log_levels)

    def _with_progress(
        self, result: CallToolResult | InputRequiredResult, context: Context[Any, Any] | None
    ) -> CallToolResult | InputRequiredResult:
        """The answer with the progress of the playbook the caller's session follows (if it follows one)."""
        if self.core is None or not isinstance(result, CallToolResult):
            return result
        store = self.core.evidence.for_session(session_key(_request_headers(context) or {}))
        return with_progress(with_evidence_link(result), self.core.playbooks, store)

    def warm(self) -> float:
        """Do before the first client what the first search would otherwise do while every other
        session's first call waits behind it: build the search index, load the vectors and the query
        encoder. Seconds spent; a failure is logged and left to the first call to report."""
        started = time.perf_counter()
        if self.warm_up is not None:
            try:
                self.warm_up()
            except Exception:
                log.exception("warming the search up failed; the first search will report it")
        return time.perf_counter() - started

    async def get_prompt(
        self, name: str, arguments: dict[str, Any] | None = None, context: Context[Any, Any] | None = None
    ) -> GetPromptResult | InputRequiredResult:
        """An unknown prompt is the spec's -32602 (the SDK would answer error code 0)."""
        if name not in {p.name for p in await self.list_prompts()}:
            raise MCPError(code=INVALID_PARAMS, message=f"Unknown prompt: {name}")
        return await super().get_prompt(name, arguments, context)

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        """Every answer's text in the configured form (``ServerConfig.result_text``)."""
        form = result_text_form.set(self.core.config.result_text if self.core is not None else "lines")
        try:
            return await self._call_tool(name, arguments, context)
        finally:
            result_text_form.reset(form)

    async def _call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None
    ) -> CallToolResult | InputRequiredResult:
        accepted = self.accepted.get(name)
        if accepted is None:
            known = ", ".join(self.accepted)
            return render(
                ToolResult(
                    status="error",
                    reason=ReasonCode.INVALID_ARGUMENT,
                    message=f"no tool named '{name}'",
                    next_actions=[f"call one of: {known}"],
                )
            )
        extra = sorted(set(arguments) - accepted)
        if extra:
            return render(
                ToolResult(
                    status="error",
                    reason=ReasonCode.INVALID_ARGUMENT,
                    message=f"unknown argument {', '.join(extra)}; accepted: {', '.join(sorted(accepted))}",
                    next_actions=["call again with only the accepted arguments"],
                )
            )
        from apiatlas.executors.http import caller_headers  # loaded with the first call, not at start

        try:
            with caller_headers(_request_headers(context)):  # an HTTP upstream may forward the caller's auth
                return self._with_progress(await super().call_tool(name, arguments, context), context)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                code, message = _argument_problem(exc.__cause__)
                return render(
                    ToolResult(
                        status="error",
                        reason=code,
                        message=message,
                        next_actions=[f"see the input schema of {name} in tools/list and call again"],
                    )
                )
            log.exception("tool %s failed", name)
            return render(
                ToolResult(status="error", reason=ReasonCode.TOOL_EXECUTION_ERROR, message=str(exc))
            )


def atlas_core(
    snapshot: CatalogReader, executor: Executor | None, config: ServerConfig, prefix: str
) -> AtlasTools:
    """What the tool handlers call for one snapshot: navigation, planning, execution, chains, evidence."""
    navigator = Navigator(snapshot, config, prefix)
    execution = Execution(navigator, executor, config)
    return AtlasTools(
        navigator=navigator,
        planning=ChainPlanning(navigator),
        execution=execution,
        chains=ChainRunner(execution),
        evidence=EvidenceRegistry(config.evidence, journal=_journal(config)),
        config=config,
        playbooks=Playbooks(snapshot, prefix),
    )


def _journal(config: ServerConfig) -> EvidenceJournal | None:
    """The file resumable sessions' evidence outlives a restart in (``evidence.journal``), if one is set."""
    path = config.evidence.journal
    return None if path is None else EvidenceJournal(path, config.evidence.max_sessions)


def curated_guide(prefix: str, direct: list[Tool]) -> str:
    """The instructions' line naming the curated direct tools."""
    return (
        f"\nDirect tools call one API each and answer like {prefix}execute_api (evidence ids included): "
        + ", ".join(t.name for t in direct)
        + ". For anything else, navigate as above."
    )


def served_tool_names(snapshot: CatalogReader, config: ServerConfig) -> list[str]:
    """The names, without prefix, of the tools ``build_server`` serves: the registry's, then the curated."""
    names = [spec.name for spec in tools_for(serving_of(snapshot.manifest()).surface)]
    if config.curated is not None:
        names += curated_tool_names(CuratedConfig.load(config.curated), snapshot)
    return names


def build_server(
    snapshot: CatalogReader,
    executor: Executor | None,
    config: ServerConfig,
    server_class: type[AtlasServer] = AtlasServer,
) -> AtlasServer:
    """The MCP server for one snapshot; ``executor`` None means navigation only.

    ``server_class`` lets the security layer build a role's guarded subclass (apiatlas.security).
    """
    manifest = snapshot.manifest()
    prefix = config.prefix_for(manifest)
    tools = atlas_core(snapshot, executor, config, prefix)
    navigator = tools.navigator
    traits = ExecutorTraits(
        read_only=executor is None or executor.limits.read_only,
        open_world=_calls_http(executor),  # SQL executors reach only the operator's own database
    )
    surface = serving_of(manifest).surface  # the tools of an API surface, or of a code surface (no execution)
    served = atlas_tools(tools, prefix, traits, surface)
    guide = instructions(
        prefix, None if executor is not None else serving_of(manifest).no_executor_reason(), surface
    )
    if config.curated is not None:  # curated mode: direct tools next to navigation
        direct = curated_tools(
            CuratedConfig.load(config.curated),
            tools,
            open_world=traits.open_world,
            reserved={t.name for t in served},
        )
        served += direct
        guide += curated_guide(prefix, direct)
    if index := tools.playbooks.index():  # per role, so last: the static prefix stays shared and cacheable
        guide += "\n" + index
    server = server_class(
        tools=served,
        name="apiatlas",
        title=f"apiatlas: {manifest.get('source_kind', 'catalog')} {snapshot.path.name}",
        instructions=guide,
        version=__version__,
        icons=[ICON],
        log_level="WARNING",
    )
    server.navigator = navigator
    server.core = tools
    for prompt in playbook_prompts(tools.playbooks):
        server.add_prompt(prompt)
    add_resources(server, tools)  # contracts, playbooks, evidence (server/surface.py)

    def warm_up() -> None:
        from apiatlas.search.e5_file import whole_words

        navigator.search(warm_up_query(snapshot), None, 1)
        whole_words()  # the typo fallback's lexicon, read from the model file at the first typo otherwise

    server.warm_up = warm_up
    return server


def _calls_http(executor: Executor | None) -> bool:
    """Whether ``executor`` calls an HTTP upstream (its module loads only when there is an executor)."""
    if executor is None:
        return False
    from apiatlas.executors.http import HttpExecutor

    return isinstance(executor, HttpExecutor)


def http_app(server: AtlasServer, config: ServerConfig) -> Starlette:
    """The Streamable HTTP ASGI app at ``config.http.path``, the assistant's ``POST /ask``, ``GET /`` and
    ``/tools.json``, and the web pages at ``/ui``."""
    app = server.streamable_http_app(
        streamable_http_path=config.http.path, host=config.http.host, stateless_http=config.http.stateless
    )
    if server.core is not None:
        from apiatlas.assistant.http import plain_ask_route

        app.router.routes.append(plain_ask_route(server.core))
    add_pages(app, server, config.http.path)  # GET / and /tools.json (server/pages.py)
    from apiatlas.web.serving import mount_pages  # the web pages (apiatlas.web) over the same navigator

    return mount_pages(app, server)


def serve_http(server: AtlasServer, config: ServerConfig) -> None:
    """Serve Streamable HTTP with uvicorn until interrupted (logs to stderr); warm before listening."""
    server.warm()
    settle_heap()
    app = http_app(server, config)
    uvicorn.run(app, host=config.http.host, port=config.http.port, log_level="warning")
