"""The fetch_evidence tool: more rows of an executed call's result by evidence id, a page at a time."""

from typing import Annotated, Any

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from apiatlas.server.results import Paging, ToolResult
from apiatlas.server.tools.common import (
    AtlasTools,
    Cursor,
    GuideLine,
    Handler,
    ToolSpec,
    answer,
    session_store,
)
from apiatlas.server.tools.examples import CatalogExamples


class FetchEvidenceResult(ToolResult):
    evidence_id: str = ""
    api: str = ""
    table: str | None = None
    tables: list[str] = Field(default_factory=list)  # every table kept under this evidence id
    columns: list[str] = Field(default_factory=list)
    rows: list[list[Any]] = Field(default_factory=list)
    paging: Paging | None = None


def handler(core: AtlasTools, examples: CatalogExamples) -> Handler:
    async def fetch_evidence(
        evidence_id: str,
        ctx: Context,
        table: str | None = None,
        cursor: Cursor = None,
    ) -> Annotated[CallToolResult, FetchEvidenceResult]:
        store = session_store(core.evidence, ctx)
        return await answer(
            FetchEvidenceResult, lambda: core.execution.fetch_evidence(evidence_id, table, cursor, store)
        )

    return fetch_evidence


TOOL = ToolSpec(
    name="fetch_evidence",
    description="Returns more rows of an executed call's result. "
    "Use when a preview was truncated or to cite exact rows.",
    handler=handler,
    guide=GuideLine(
        50, "{p}fetch_evidence to page the full rows of an evidence_id; cite evidence ids in answers."
    ),
)
