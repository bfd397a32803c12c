"""The dependency_chain tool: the APIs that must run before (upstream) or can run after (downstream) an API,
level by level, with field mappings and their confidence."""

from typing import Annotated, Literal

from mcp_types import CallToolResult
from pydantic import Field

from apiatlas.server.results import Dependency, ToolResult
from apiatlas.server.tools.common import AtlasTools, GuideLine, Handler, ToolSpec, answer, off_loop
from apiatlas.server.tools.examples import CatalogExamples

Confidence = Literal["declared", "name_type", "alias", "type_only", "co_usage"]


class DependencyChainResult(ToolResult):
    api: str = ""
    direction: Literal["upstream", "downstream"] = "upstream"
    depth: int = 0
    levels: list[list[str]] = Field(default_factory=list)  # levels[0] = [api]; levels[i] = APIs i hops away
    links: list[Dependency] = Field(default_factory=list)
    suggestions: list[str] = Field(default_factory=list)


def handler(core: AtlasTools, examples: CatalogExamples) -> Handler:
    async def dependency_chain(
        api: Annotated[str, Field(description=examples.api_help())],
        direction: Literal["upstream", "downstream"] = "upstream",
        depth: Annotated[int, Field(ge=1, le=4)] = 3,
        min_confidence: Confidence = "alias",
    ) -> Annotated[CallToolResult, DependencyChainResult]:
        walk = off_loop(
            lambda: core.navigator.dependency_chain(api, direction, depth, min_confidence), core.graph_slots
        )
        return await answer(DependencyChainResult, walk)

    return dependency_chain


TOOL = ToolSpec(
    name="dependency_chain",
    description="Shows the APIs that run before (upstream) or after (downstream) an API. "
    "Use when an input is an ID you do not have.",
    handler=handler,
    guide=GuideLine(
        30, "{p}dependency_chain when an input is an ID you do not have: it names the APIs that produce it."
    ),
    surfaces=("api", "code"),
)
