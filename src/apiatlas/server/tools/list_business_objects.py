"""The list_business_objects tool: the catalog's business objects with their API counts, a page at a time."""

from typing import Annotated

from mcp_types import CallToolResult
from pydantic import Field

from apiatlas.server.results import Compact, Paging, ToolResult
from apiatlas.server.tools.common import AtlasTools, Cursor, Handler, ToolSpec, answer
from apiatlas.server.tools.examples import CatalogExamples


class ObjectSummary(Compact):
    key: str
    name: str = ""
    title: str = ""
    api_count: int = 0


class ListObjectsResult(ToolResult):
    objects: list[ObjectSummary] = Field(default_factory=list)
    paging: Paging | None = None


def handler(core: AtlasTools, examples: CatalogExamples) -> Handler:
    async def list_business_objects(cursor: Cursor = None) -> Annotated[CallToolResult, ListObjectsResult]:
        return await answer(ListObjectsResult, lambda: core.navigator.list_business_objects(cursor))

    return list_business_objects


TOOL = ToolSpec(
    name="list_business_objects",
    description="Lists the business objects with their API counts. "
    "Use when you do not know which object holds the data.",
    handler=handler,
    surfaces=("api", "code"),
)
