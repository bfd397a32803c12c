"""The search tool: APIs by words or exact name, best first, optionally within one business object."""

from typing import Annotated

from mcp_types import CallToolResult
from pydantic import Field

from apiatlas.server.results import Compact, ToolResult
from apiatlas.server.tools.common import AtlasTools, GuideLine, Handler, ToolSpec, answer, off_loop
from apiatlas.server.tools.examples import CatalogExamples


class SearchHitInfo(Compact):
    api_key: str
    object_key: str = ""
    title: str = ""
    score: float = 0.0
    exact: bool = False
    matched: list[str] = Field(default_factory=list)
    why: str = ""  # why it matched: exact name, the query words it contains, meaning similarity


class SearchResult(ToolResult):
    query: str = ""
    hits: list[SearchHitInfo] = Field(default_factory=list)
    # NO_CONFIDENT_MATCH: the business objects nearest to the request, as "KEY: title"
    closest_objects: list[str] = Field(default_factory=list)


def handler(core: AtlasTools, examples: CatalogExamples) -> Handler:
    async def search(
        query: Annotated[str, Field(description="words or an API name")],
        object_key: Annotated[str | None, Field(description="only this object's APIs")] = None,
        limit: Annotated[int | None, Field(ge=1, le=100)] = None,
    ) -> Annotated[CallToolResult, SearchResult]:
        body = off_loop(lambda: core.navigator.search(query, object_key, limit), core.search_slots)
        return await answer(SearchResult, body)

    return search


TOOL = ToolSpec(
    name="search",
    description="Finds APIs by words or exact name, best first. Use when you do not know where to look.",
    handler=handler,
    guide=GuideLine(10, "{p}search (or {p}list_business_objects -> {p}list_apis) to find candidate APIs."),
    surfaces=("api", "code"),
)
