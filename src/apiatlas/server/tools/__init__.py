"""The MCP tools, one module each; ``TOOLS`` names them in the order a client lists them.

Adding a tool = a module here (result model, ``TOOL = ToolSpec(...)`` with a thin handler over the core)
and one line in ``TOOLS``; the server, its instructions and the security layer read this list.
"""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver.tools import Tool

from apiatlas.server.surface import ICON
from apiatlas.server.tools import (
    check_code,
    dependency_chain,
    describe_api,
    execute_api,
    execute_chain,
    fetch_evidence,
    get_playbook,
    list_apis,
    list_business_objects,
    plan_chain,
    read_source,
    search,
)
from apiatlas.server.tools.common import AtlasTools, ExecutorTraits, ToolSpec, compact_schema
from apiatlas.server.tools.examples import CatalogExamples
from apiatlas.server.tools.outline import lean_input_schema, outline_schema

TOOLS: tuple[ToolSpec, ...] = (
    list_business_objects.TOOL,
    list_apis.TOOL,
    describe_api.TOOL,
    search.TOOL,
    dependency_chain.TOOL,
    plan_chain.TOOL,
    execute_api.TOOL,
    execute_chain.TOOL,
    fetch_evidence.TOOL,
    get_playbook.TOOL,
    read_source.TOOL,
    check_code.TOOL,
)
# the tools an API snapshot serves (a code snapshot's: tools_for("code"))
TOOL_NAMES: tuple[str, ...] = tuple(spec.name for spec in TOOLS if "api" in spec.surfaces)
EXECUTING_TOOL_NAMES = frozenset(spec.name for spec in TOOLS if spec.runs_apis is not None)
_BY_NAME = {spec.name: spec for spec in TOOLS}


def mcp_tool(
    spec: ToolSpec, core: AtlasTools, prefix: str, traits: ExecutorTraits, examples: CatalogExamples
) -> Tool:
    """One spec as the SDK's tool under ``prefix``, with compact input and output schemas."""
    tool = Tool.from_function(
        spec.handler(core, examples),
        name=f"{prefix}{spec.name}",
        description=spec.description.format_map(examples.fields()),
        annotations=spec.annotations(traits),
        icons=[ICON],
    )
    tool.parameters = {**lean_input_schema(compact_schema(tool.parameters)), "additionalProperties": False}
    if tool.fn_metadata.output_schema is not None:  # the outline: fields and types (tools/outline.py)
        tool.fn_metadata.output_schema = outline_schema(tool.fn_metadata.output_schema)
    return tool


def tools_for(surface: str) -> tuple[ToolSpec, ...]:
    """The tools a snapshot of this surface serves (``Serving.surface``: "api", "code"), in TOOLS order."""
    return tuple(spec for spec in TOOLS if surface in spec.surfaces)


def atlas_tools(core: AtlasTools, prefix: str, traits: ExecutorTraits, surface: str = "api") -> list[Tool]:
    """The tools of ``TOOLS`` for ``surface`` under ``prefix``, examples read from the served snapshot."""
    examples = CatalogExamples.of(core.navigator.snapshot)
    return [mcp_tool(spec, core, prefix, traits, examples) for spec in tools_for(surface)]


def instructions(prefix: str, not_executable: str | None = None, surface: str = "api") -> str:
    """How to navigate, in the order that works: the tools' guide lines, numbered, in a few lines; then, for a
    server without an executor, why APIs cannot run (``not_executable``: what ``execute_api`` answers)."""
    guided = sorted((s.guide for s in tools_for(surface) if s.guide is not None), key=lambda g: g.order)
    lines = [
        "This server exposes a large API catalog through a few meta-tools. Work in this order:",
        *(f"{n}. {g.text.format(p=prefix)}" for n, g in enumerate(guided, 1)),
        "Every result has status and, when not plainly ok, a reason code and next_actions: follow them.",
    ]
    if surface == "code":
        lines.append("This is an SDK's code surface: nothing here runs code; check every draft you write.")
    if not_executable is not None and surface == "api":
        lines.append(
            f"APIs are not executable here: {not_executable}. Execution tools answer NOT_EXECUTABLE; "
            "navigation works."
        )
    return "\n".join(lines)


def apis_run_by(tool: str, arguments: dict[str, Any]) -> list[str]:
    """The API keys a call of ``tool`` (its name without prefix) would run; [] for a tool that runs none."""
    spec = _BY_NAME.get(tool)
    return spec.runs_apis(arguments) if spec is not None and spec.runs_apis is not None else []


__all__ = [
    "EXECUTING_TOOL_NAMES",
    "TOOLS",
    "TOOL_NAMES",
    "AtlasTools",
    "ExecutorTraits",
    "ToolSpec",
    "apis_run_by",
    "atlas_tools",
    "instructions",
    "tools_for",
]
