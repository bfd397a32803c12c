"""The plan_chain tool: ranked call chains that answer a request, where every input comes from and what to
ask the user; the steps are ready for execute_chain once the asked values are filled."""

from typing import Annotated, Any

from mcp_types import CallToolResult
from pydantic import BaseModel, ConfigDict, Field

from apiatlas.executors.chain import ChainStep
from apiatlas.planning.model import PlanValue
from apiatlas.server.results import ToolResult
from apiatlas.server.tools.common import AtlasTools, Handler, ToolSpec, answer, off_loop
from apiatlas.server.tools.examples import CatalogExamples


class AskUser(BaseModel):
    """An input no stated value or earlier step fills: ask the user, put the value where ``fill`` says."""

    model_config = ConfigDict(extra="forbid")

    step: int
    api: str
    input: str
    table: str | None = None
    domain_type: str = ""
    fill: str = Field(description="where the value goes in steps, e.g. steps[0].args.<input>")


class PlannedChain(BaseModel):
    """One candidate chain: the calls in order, where each input comes from, what to ask the user."""

    model_config = ConfigDict(extra="forbid")

    rank: int
    score: float
    confidence: float = Field(description="product of the confidences of the field mappings it uses")
    apis: list[str]
    entry_point: str
    target: str
    inputs: list[str] = Field(description="per step, where every input comes from")
    ask_user: list[AskUser] = Field(default_factory=list)
    steps: list[ChainStep] = Field(description="pass to execute_chain (after filling ask_user values)")


class PlanChainResult(ToolResult):
    request: str = ""
    values: list[PlanValue] = Field(default_factory=list, description="values read from the request")
    chains: list[PlannedChain] = Field(default_factory=list)
    confidence: float | None = Field(
        default=None, description="calibrated probability that chains[0] is right; NO_CONFIDENT_PLAN when low"
    )
    unclear: list[str] = Field(default_factory=list, description="when not confident: what is unclear")


def handler(core: AtlasTools, examples: CatalogExamples) -> Handler:
    async def plan_chain(
        request: Annotated[str, Field(description="the user's words")],
        target: Annotated[str | None, Field(description="the API wanted")] = None,
        known: Annotated[dict[str, Any] | None, Field(description=examples.known_help())] = None,
        limit: Annotated[int, Field(ge=1, le=5)] = 3,
    ) -> Annotated[CallToolResult, PlanChainResult]:
        plan = off_loop(
            lambda: core.planning.plan_chain(request, target, known or {}, limit), core.graph_slots
        )
        return await answer(PlanChainResult, plan)

    return plan_chain


TOOL = ToolSpec(
    name="plan_chain",
    description="Plans the calls answering a request: ranked chains, each input's source, what to ask. "
    "Use when a question needs several calls.",
    handler=handler,
)
