"""The execute_api tool: one API called with scalar arguments and input tables; a preview of the rows and
an evidence id for the full result."""

from typing import Annotated, Any

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from apiatlas.executors.chain_model import InputTables
from apiatlas.server.results import TablePreview, ToolResult
from apiatlas.server.tools.common import (
    AtlasTools,
    GuideLine,
    Handler,
    ToolSpec,
    answer,
    execution_annotations,
    session_store,
)
from apiatlas.server.tools.examples import CatalogExamples


class ExecuteApiResult(ToolResult):
    api: str = ""
    evidence_id: str | None = None
    error_code: str | None = None  # the API's documented error code, when the procedure raised one
    tables: list[TablePreview] = Field(default_factory=list)
    rows_returned: int = 0
    truncated: bool = False
    elapsed_ms: float | None = None
    suggestions: list[str] = Field(default_factory=list)


def handler(core: AtlasTools, examples: CatalogExamples) -> Handler:
    async def execute_api(
        api: Annotated[str, Field(description=examples.api_help())],
        ctx: Context,
        args: Annotated[dict[str, Any] | None, Field(description="scalar inputs by name")] = None,
        input_tables: InputTables | None = None,
    ) -> Annotated[CallToolResult, ExecuteApiResult]:
        store = session_store(core.evidence, ctx)
        return await answer(
            ExecuteApiResult, lambda: core.execution.execute_api(api, args or {}, input_tables or {}, store)
        )

    return execute_api


def runs_apis(arguments: dict[str, Any]) -> list[str]:
    """The one API a call names."""
    name = arguments.get("api")
    return [name] if isinstance(name, str) and name.strip() else []


TOOL = ToolSpec(
    name="execute_api",
    description="Calls one API; returns a preview of its rows and an evidence id. "
    "Use when you have its required inputs.",
    handler=handler,
    annotations=execution_annotations,
    guide=GuideLine(
        40, "{p}execute_api for one call, or {p}execute_chain for the whole path in one round trip."
    ),
    runs_apis=runs_apis,
)
