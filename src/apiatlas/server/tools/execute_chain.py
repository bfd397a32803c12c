"""The execute_chain tool: several APIs in order in one transaction, output fields of earlier steps feeding
inputs of later ones; every step is checked before the first runs."""

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult
from pydantic import Field

from apiatlas.errors import ReasonCode
from apiatlas.executors.chain import MAX_STEPS, ChainStep
from apiatlas.server.results import Compact, Status, TablePreview, ToolResult
from apiatlas.server.tools.common import (
    AtlasTools,
    Handler,
    ToolSpec,
    answer,
    execution_annotations,
    session_store,
)
from apiatlas.server.tools.examples import CatalogExamples


class ChainStepOutcome(Compact):
    index: int
    api: str
    status: Status | Literal["skipped"] = "ok"
    reason: ReasonCode | None = None
    message: str = ""
    evidence_id: str | None = None
    error_code: str | None = None
    rows_returned: int = 0
    tables: list[TablePreview] = Field(default_factory=list)


class ExecuteChainResult(ToolResult):
    steps: list[ChainStepOutcome] = Field(default_factory=list)
    failed_step: int | None = None  # index of the step that failed (status "partial" or "error")
    evidence_ids: list[str] = Field(default_factory=list)


def handler(core: AtlasTools, examples: CatalogExamples) -> Handler:
    async def execute_chain(
        steps: Annotated[
            list[ChainStep],
            Field(
                min_length=1,
                max_length=MAX_STEPS,
                description="plan_chain's chains[0].steps",
            ),
        ],
        ctx: Context,
    ) -> Annotated[CallToolResult, ExecuteChainResult]:
        store = session_store(core.evidence, ctx)
        return await answer(ExecuteChainResult, lambda: core.chains.execute_chain(steps, store))

    return execute_chain


def runs_apis(arguments: dict[str, Any]) -> list[str]:
    """The API of every step a call lists."""
    steps = arguments.get("steps")
    names = [s.get("api") for s in steps if isinstance(s, dict)] if isinstance(steps, list) else []
    return [n for n in names if isinstance(n, str) and n.strip()]


TOOL = ToolSpec(
    name="execute_chain",
    description="Runs several APIs in one transaction, earlier outputs feeding later inputs. "
    "Use when plan_chain gave the steps.",
    handler=handler,
    annotations=execution_annotations,
    runs_apis=runs_apis,
)
