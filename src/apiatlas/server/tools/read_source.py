"""The read_source tool: the source lines of one SDK entity (paged, with a few lines of context), or, for a
snapshot compiled without sources, its signature and the facts of its body."""

from typing import Annotated

from mcp_types import CallToolResult
from pydantic import Field

from apiatlas.server.code_card import CodeCard
from apiatlas.server.results import Compact, ToolResult
from apiatlas.server.tools.common import AtlasTools, GuideLine, Handler, ToolSpec, answer, off_loop
from apiatlas.server.tools.examples import CatalogExamples


class SourceLine(Compact):
    line: int  # 1-based line number in the file
    text: str


class ReadSourceResult(ToolResult):
    key: str = ""
    has_source: bool = False  # False: compiled from metadata and docs; the card says what is known
    file: str = ""
    lines: list[SourceLine] = Field(default_factory=list)
    total_lines: int = 0
    next_offset: int | None = None  # pass back as offset for the next page
    card: CodeCard | None = None
    suggestions: list[str] = Field(default_factory=list)


def handler(core: AtlasTools, examples: CatalogExamples) -> Handler:
    async def read_source(
        api: Annotated[str, Field(description=examples.api_help() + "; or its alias Type::kind::sha1")],
        offset: Annotated[
            int, Field(ge=0, description="first line to return, counted from the entity's first")
        ] = 0,
        limit: Annotated[
            int | None, Field(ge=1, le=400, description="most lines to return (default 80)")
        ] = None,
    ) -> Annotated[CallToolResult, ReadSourceResult]:
        body = off_loop(lambda: core.navigator.read_source(api, offset, limit))
        return await answer(ReadSourceResult, body)

    return read_source


TOOL = ToolSpec(
    name="read_source",
    description="Returns the source lines of one type or member (paged, with a few lines around it), or its "
    "signature and body facts when the snapshot has no sources. "
    "Use when a card is not enough to write the call.",
    handler=handler,
    guide=GuideLine(25, "{p}read_source to see how a member is implemented before relying on a detail."),
    surfaces=("code",),
)
