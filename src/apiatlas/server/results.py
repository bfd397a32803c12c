"""Result models of every MCP tool: a status, a reason code when not plainly ok, next actions, paging."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from apiatlas.errors import ReasonCode

Status = Literal["ok", "error", "partial"]


class _Compact(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ToolResult(_Compact):
    """What every tool answers: status, reason code (when not plainly ok), message, next best actions."""

    status: Status = "ok"
    reason: ReasonCode | None = None
    message: str = ""
    next_actions: list[str] = Field(default_factory=list)

    def summary(self) -> str:
        """A one-paragraph text rendering for clients that read only the text content."""
        head = self.status.upper() + (f" {self.reason.value}" if self.reason else "")
        parts = [f"{head}: {self.message}" if self.message else head]
        if self.next_actions:
            parts.append("Next: " + " | ".join(self.next_actions))
        return "\n".join(parts)


class Paging(_Compact):
    """Where this page sits in the whole list and how to get the rest."""

    cursor: str | None = None  # the cursor this page was read at (None = first page)
    next_cursor: str | None = None  # pass back as `cursor` to read the next page
    total: int = 0
    returned: int = 0
    truncated: bool = False  # more items exist after this page
    how_to_continue: str | None = None


class ObjectSummary(_Compact):
    key: str
    name: str = ""
    title: str = ""
    api_count: int = 0


class ListObjectsResult(ToolResult):
    objects: list[ObjectSummary] = Field(default_factory=list)
    paging: Paging | None = None


class ApiSummary(_Compact):
    key: str
    title: str = ""
    side_effect: str = "read"
    entry_point: bool = False  # callable with values a person can say (no upstream IDs needed)


class ListApisResult(ToolResult):
    object_key: str | None = None
    apis: list[ApiSummary] = Field(default_factory=list)
    paging: Paging | None = None
    suggestions: list[str] = Field(default_factory=list)


class ColumnInfo(_Compact):
    name: str
    domain_type: str = ""
    type: str = ""  # JSON type of the domain type (string, integer, number, ...)
    description: str | None = None


class TableInfo(_Compact):
    name: str
    description: str | None = None
    columns: list[ColumnInfo] = Field(default_factory=list)


class ErrorInfo(_Compact):
    code: str
    description: str | None = None


class Dependency(_Compact):
    """An input field of one API fed by an output field of another, with the edge's confidence."""

    producer_api: str
    producer_table: str | None = None
    producer_field: str
    consumer_api: str
    consumer_table: str | None = None
    consumer_field: str
    confidence: str  # declared | name_type | alias | type_only
    reason: str = ""


class ApiContract(_Compact):
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


class DescribeApiResult(ToolResult):
    api: ApiContract | None = None
    suggestions: list[str] = Field(default_factory=list)


class SearchHitInfo(_Compact):
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


class DependencyChainResult(ToolResult):
    api: str = ""
    direction: Literal["upstream", "downstream"] = "upstream"
    depth: int = 0
    levels: list[list[str]] = Field(default_factory=list)  # levels[0] = [api]; levels[i] = APIs i hops away
    links: list[Dependency] = Field(default_factory=list)
    suggestions: list[str] = Field(default_factory=list)


class TablePreview(_Compact):
    """The first rows of one output table; the rest stay server-side under the evidence id."""

    name: str
    columns: list[str] = Field(default_factory=list)
    rows: list[list[Any]] = Field(default_factory=list)
    rows_returned: int = 0  # rows the call produced in this table
    truncated: bool = False  # rows holds fewer than rows_returned


class ExecuteApiResult(ToolResult):
    api: str = ""
    evidence_id: str | None = None
    error_code: str | None = None  # the API's documented error code, when the procedure raised one
    tables: list[TablePreview] = Field(default_factory=list)
    rows_returned: int = 0
    truncated: bool = False
    elapsed_ms: float | None = None
    suggestions: list[str] = Field(default_factory=list)


class ChainStepOutcome(_Compact):
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


class FetchEvidenceResult(ToolResult):
    evidence_id: str = ""
    api: str = ""
    table: str | None = None
    tables: list[str] = Field(default_factory=list)  # every table kept under this evidence id
    columns: list[str] = Field(default_factory=list)
    rows: list[list[Any]] = Field(default_factory=list)
    paging: Paging | None = None
