"""The list_apis tool: the callable APIs of one business object with one-line titles, a page at a time."""

from typing import Annotated

from mcp_types import CallToolResult
from pydantic import Field

from apiatlas.server.results import ApiSummary, Paging, ToolResult
from apiatlas.server.tools.common import AtlasTools, Cursor, Handler, ToolSpec, answer
from apiatlas.server.tools.examples import CatalogExamples


class ListApisResult(ToolResult):
    object_key: str | None = None
    apis: list[ApiSummary] = Field(default_factory=list)
    paging: Paging | None = None
    suggestions: list[str] = Field(default_factory=list)


def handler(core: AtlasTools, examples: CatalogExamples) -> Handler:
    async def list_apis(
        object_key: Annotated[str, Field(description=examples.object_help())],
        cursor: Cursor = None,
    ) -> Annotated[CallToolResult, ListApisResult]:
        return await answer(ListApisResult, lambda: core.navigator.list_apis(object_key, cursor))

    return list_apis


TOOL = ToolSpec(
    name="list_apis",
    description="Lists one business object's callable APIs. Use when you know the object{object_hint}.",
    handler=handler,
    surfaces=("api", "code"),
)
