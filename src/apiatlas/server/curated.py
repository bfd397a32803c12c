"""Curated mode: operations listed in a YAML file become direct MCP tools next to the navigation tools.

Each curated tool calls one API with its own input schema (the API's parameters) and answers like
``execute_api`` (same evidence ids, previews and reason codes); every other API stays reachable
through the navigation tools.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Annotated, Any

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from apiatlas.catalog.model import Api
from apiatlas.config_file import load_yaml_model
from apiatlas.curation import default_description, default_tool_name, suggested_annotations
from apiatlas.errors import ConfigError, Location
from apiatlas.server.navigation import not_executable_reason
from apiatlas.server.surface import ICON
from apiatlas.server.tools.common import AtlasTools, answer, compact_schema, session_store
from apiatlas.server.tools.execute_api import ExecuteApiResult
from apiatlas.server.tools.outline import outline_schema
from apiatlas.snapshot import CatalogReader

log = logging.getLogger("apiatlas.server")
TOOL_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
ANNOTATION_KEYS = {
    "readOnlyHint": "read_only_hint",
    "destructiveHint": "destructive_hint",
    "idempotentHint": "idempotent_hint",
    "openWorldHint": "open_world_hint",
}
# Keywords whose value is a schema (or a map / list of schemas): where a bare boolean is not portable.
_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_SCHEMA_ONE = ("items", "contains", "not", "propertyNames", "if", "then", "else")
_BOOLEAN_OK = ("additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems")


class CuratedTool(BaseModel):
    """One entry of the curated-tools file; everything but ``api`` has a default derived from the API."""

    model_config = ConfigDict(extra="forbid")

    api: str
    name: str | None = None
    title: str | None = None
    description: str | None = None
    annotations: dict[str, bool] | None = None
    score: float | None = None  # informational (written by ``apiatlas suggest-curated``)
    reasons: list[str] = Field(default_factory=list)  # informational


class CuratedConfig(BaseModel):
    """The curated-tools file: ``tools: [{api, name, description, annotations}, ...]``."""

    model_config = ConfigDict(extra="forbid")

    tools: list[CuratedTool] = Field(default_factory=list)
    _source: Path | None = PrivateAttr(default=None)  # the file it was read from, never a setting in it

    @property
    def source(self) -> Path | None:
        """The file the tools were read from (None when built in code): where their errors are located."""
        return self._source

    @classmethod
    def load(cls, path: Path) -> CuratedConfig:
        """Read the YAML file; a missing file, bad YAML or a bad entry is a located ``ConfigError``."""
        config = load_yaml_model(cls, path, what="curated-tools file", shape="a mapping with a 'tools' list")
        config._source = path
        return config


class _Arguments(ArgModelBase):
    """Accepts the API's arguments as given; the executor validates them against the contract."""

    model_config = ConfigDict(extra="allow")

    def model_dump_one_level(self) -> dict[str, Any]:
        return {"arguments": dict(self.model_extra or {})}


def portable_schema(node: Any, keyword: str | None = None) -> Any:
    """A JSON Schema that every client accepts: no bare booleans as schemas, single-type ``type``.

    ``true`` becomes ``{}``, ``false`` ``{"not": {}}``, ``type: [a, b]`` an ``anyOf`` of single types.
    """
    if isinstance(node, bool):
        if keyword in _BOOLEAN_OK:
            return node
        return {} if node else {"not": {}}
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {name: portable_schema(sub, key) for name, sub in value.items()}
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            out[key] = [portable_schema(sub, key) for sub in value]
        elif key in (*_SCHEMA_ONE, *_BOOLEAN_OK):
            out[key] = portable_schema(value, key)
        elif key == "nullable":
            continue  # OpenAPI 3.0, not JSON Schema
        else:
            out[key] = value
    kinds = out.get("type")
    if isinstance(kinds, list):
        del out["type"]
        branches = [{"type": k} for k in dict.fromkeys(kinds)]
        if len(branches) == 1:
            out["type"] = kinds[0]
        elif "anyOf" in out:
            out["allOf"] = [*out.get("allOf", []), {"anyOf": branches}]
        else:
            out["anyOf"] = branches
    return out


def _annotations(entry: CuratedTool, defaults: dict[str, bool], where: Location) -> ToolAnnotations:
    given = entry.annotations or {}
    unknown = sorted(set(given) - set(ANNOTATION_KEYS))
    if unknown:
        raise ConfigError(
            f"unknown annotation {', '.join(unknown)}; use {', '.join(ANNOTATION_KEYS)}", location=where
        )
    merged = {**defaults, **given}
    return ToolAnnotations(
        read_only_hint=merged.get("readOnlyHint"),
        destructive_hint=merged.get("destructiveHint"),
        idempotent_hint=merged.get("idempotentHint"),
        open_world_hint=merged.get("openWorldHint"),
    )


def curated_tools(
    config: CuratedConfig, tools: AtlasTools, *, open_world: bool, reserved: set[str]
) -> list[Tool]:
    """One direct tool per entry; a located ConfigError for an unknown, uncallable or clashing one."""
    out: list[Tool] = []
    names = set(reserved)
    for index, entry in enumerate(config.tools):
        where = Location(file=str(config.source) if config.source else None, anchor=f"tools[{index}]")
        api = _callable_api(entry, tools, where)
        if api is None:
            continue
        name = _tool_name(entry, api, names, where)
        names.add(name)
        out.append(_direct_tool(entry, api, name, tools, open_world, where))
    return out


def curated_tool_names(config: CuratedConfig, snapshot: CatalogReader) -> list[str]:
    """The names of the direct tools ``config`` serves on ``snapshot`` (entries for APIs it lacks left out:
    ``curated_tools`` reports those)."""
    names = []
    for entry in config.tools:
        api = snapshot.get_api(entry.api)
        if api is not None:
            names.append(entry.name or default_tool_name(api))
    return names


def _callable_api(entry: CuratedTool, tools: AtlasTools, where: Location) -> Api | None:
    """The entry's API, None when a role's view hides it; a ConfigError when it is unknown or not callable."""
    snapshot = tools.navigator.snapshot
    api = snapshot.get_api(entry.api)
    if api is None and callable(getattr(snapshot, "visible", None)):
        log.info("curated tool for %s left out: the role's view of the snapshot hides it", entry.api)
        return None  # a role view (apiatlas.security): tools for APIs the role cannot see do not exist
    if api is None:
        close = tools.navigator.suggest_apis(entry.api, 3)
        raise ConfigError(
            f"no API {entry.api!r} in this snapshot"
            + (f"; did you mean {', '.join(close)}?" if close else ""),
            location=where,
        )
    why_not = not_executable_reason(api)
    if why_not is not None:
        raise ConfigError(f"{api.key} cannot be a direct tool: {why_not}", location=where)
    return api


def _tool_name(entry: CuratedTool, api: Api, taken: set[str], where: Location) -> str:
    name = entry.name or default_tool_name(api)
    if not TOOL_NAME.match(name):
        raise ConfigError(f"tool name {name!r} must be 1-64 letters, digits, '_', '-' or '.'", location=where)
    if name in taken:
        raise ConfigError(f"tool name {name!r} is used twice (or by a navigation tool)", location=where)
    return name


def _direct_tool(
    entry: CuratedTool, api: Api, name: str, tools: AtlasTools, open_world: bool, where: Location
) -> Tool:
    """The SDK tool: the API's compiled input schema (portable), execute_api's answer and output schema."""
    defaults = {**suggested_annotations(api), "openWorldHint": open_world}
    tool = Tool.from_function(
        _handler(api.key, tools),
        name=name,
        title=entry.title or api.title or None,
        description=(entry.description or default_description(api)).strip(),
        annotations=_annotations(entry, defaults, where),
    )
    tool.parameters = compact_schema(
        portable_schema(tools.navigator.snapshot.api_input_schema(api.key) or {})
    )
    tool.fn_metadata.arg_model = _Arguments
    if tool.fn_metadata.output_schema is not None:  # the outline execute_api lists (tools/outline.py)
        tool.fn_metadata.output_schema = outline_schema(tool.fn_metadata.output_schema)
    tool.icons = [ICON]
    return tool


def _handler(api_key: str, tools: AtlasTools) -> Any:
    async def call_api(
        ctx: Context, arguments: dict[str, Any] | None = None
    ) -> Annotated[CallToolResult, ExecuteApiResult]:
        store = session_store(tools.evidence, ctx)
        return await answer(
            ExecuteApiResult, lambda: tools.execution.execute_api(api_key, arguments or {}, {}, store)
        )

    return call_api
