"""The result pieces several MCP tools share: status, reason code, next actions, paging, API summaries,
field mappings and table previews. Each tool's own result model lives in its module (server/tools/)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from apiatlas.errors import ReasonCode

Status = Literal["ok", "error", "partial"]


class Compact(BaseModel):
    """A result part that refuses unknown fields (its JSON Schema is part of a tool's output schema)."""

    model_config = ConfigDict(extra="forbid")


class SectionProgress(Compact):
    """One section of the followed playbook: done, or the facts (and invariant markers) still missing."""

    complete: bool
    missing: list[str] = Field(default_factory=list)


class ToolResult(Compact):
    """What every tool answers: status, reason code (when not plainly ok), message, next best actions;
    while the session follows a playbook with sections, its progress (computed by the server)."""

    status: Status = "ok"
    reason: ReasonCode | None = None
    message: str = ""
    next_actions: list[str] = Field(default_factory=list)
    progress: dict[str, SectionProgress] | None = None

    def summary(self) -> str:
        """A one-paragraph text rendering for clients that read only the text content."""
        head = self.status.upper() + (f" {self.reason.value}" if self.reason else "")
        parts = [f"{head}: {self.message}" if self.message else head]
        if self.next_actions:
            parts.append("Next: " + " | ".join(self.next_actions))
        return "\n".join(parts)


class Paging(Compact):
    """Where this page sits in the whole list and how to get the rest."""

    cursor: str | None = None  # the cursor this page was read at (None = first page)
    next_cursor: str | None = None  # pass back as `cursor` to read the next page
    total: int = 0
    returned: int = 0
    truncated: bool = False  # more items exist after this page
    how_to_continue: str | None = None


class ApiSummary(Compact):
    key: str
    title: str = ""
    side_effect: str = "read"
    entry_point: bool = False  # callable with values a person can say (no upstream IDs needed)


class Dependency(Compact):
    """An input field of one API fed by an output field of another, with the edge's confidence."""

    producer_api: str
    producer_table: str | None = None
    producer_field: str
    consumer_api: str
    consumer_table: str | None = None
    consumer_field: str
    confidence: str  # declared | name_type | alias | type_only | co_usage (code surfaces)
    reason: str = ""


class TablePreview(Compact):
    """The first rows of one output table; the rest stay server-side under the evidence id."""

    name: str
    columns: list[str] = Field(default_factory=list)
    rows: list[list[Any]] = Field(default_factory=list)
    rows_returned: int = 0  # rows the call produced in this table
    truncated: bool = False  # rows holds fewer than rows_returned
