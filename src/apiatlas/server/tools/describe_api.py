"""The describe_api tool: one API's full contract, read from the snapshot (input JSON Schema, output tables,
error codes, when to use it, the APIs feeding its inputs)."""

from typing import Annotated, Any

from mcp_types import CallToolResult
from pydantic import Field

from apiatlas.server.code_card import CodeCard
from apiatlas.server.results import Compact, Dependency, ToolResult
from apiatlas.server.tools.common import AtlasTools, GuideLine, Handler, ToolSpec, answer
from apiatlas.server.tools.examples import CatalogExamples


class ColumnInfo(Compact):
    name: str
    domain_type: str = ""
    type: str = ""  # JSON type of the domain type (string, integer, number, ...)
    description: str | None = None


class TableInfo(Compact):
    name: str
    description: str | None = None
    columns: list[ColumnInfo] = Field(default_factory=list)
    more_columns: str | None = None  # cut: pass back as `api` for every column
    total_columns: int | None = None


class ErrorInfo(Compact):
    code: str
    description: str | None = None


class ApiContract(Compact):
    key: str
    object_key: str = ""
    title: str = ""
    description: str = ""
    side_effect: str = "read"
    executable: bool = True
    not_executable_reason: str | None = None
    input_schema: dict[str, Any] = Field(default_factory=dict)
    output_tables: list[TableInfo] = Field(default_factory=list)
    errors: list[ErrorInfo] = Field(default_factory=list)
    when_to_use: list[str] = Field(default_factory=list)
    important: list[str] = Field(default_factory=list)
    depends_on: list[Dependency] = Field(default_factory=list)
    more_depends_on: str | None = None  # cut: pass back as `api` for the rest
    code: CodeCard | None = None  # an SDK's type or member: signature, alias, overloads, docs, body facts


class DescribeApiResult(ToolResult):
    """A contract larger than the budget is cut: its schemas at ``cut_depth`` levels of properties, long
    lists after their first items; each cut leaves an ``x-more`` (in a schema) or ``more_*`` pointer
    ``API#/json/pointer`` to pass back as ``api``, which answers that ``part``."""

    api: ApiContract | None = None
    cut_depth: int | None = None
    pointer: str | None = None  # the part answered (api was KEY#pointer)
    part: Any = None
    suggestions: list[str] = Field(default_factory=list)


def handler(core: AtlasTools, examples: CatalogExamples) -> Handler:
    async def describe_api(
        api: Annotated[str, Field(description=examples.api_help())],
    ) -> Annotated[CallToolResult, DescribeApiResult]:
        return await answer(DescribeApiResult, lambda: core.navigator.describe_api(api))

    return describe_api


TOOL = ToolSpec(
    name="describe_api",
    description="Returns one API's contract: inputs, outputs, errors, when to use it, what feeds it. "
    "Use when about to call it.",
    handler=handler,
    guide=GuideLine(20, "{p}describe_api for the contract: inputs, output tables, when to use it."),
    surfaces=("api", "code"),
)
