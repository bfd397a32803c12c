"""The chain's models: steps with their mappings from earlier outputs, and step and chain results."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from apiatlas.catalog.model import Api
from apiatlas.errors import ReasonCode
from apiatlas.executors.base import CallResult

MAX_STEPS = 20
MAX_FAN_OUT = 50  # calls of one step with on_many='each'

ApiResolver = Callable[[str], Api | None]
# input session tables: validated as table -> rows of {column: value}, listed as one short object
InputTables = Annotated[
    dict[str, list[dict[str, Any]]],
    WithJsonSchema({"type": "object", "description": "table -> [{column: value}]"}),
]


def _pick_fields_bare(schema: dict[str, Any]) -> None:
    """The two optional pick fields listed with their type and meaning only, and ``template`` not listed:
    only the planner writes it, and plan_chain's steps carry it to execute_chain (the tools' token
    budget)."""
    for name in ("pick_column", "pick_value"):
        field = schema.get("properties", {}).get(name)
        if isinstance(field, dict):
            field.pop("title", None)
            field.pop("default", None)
    schema.get("properties", {}).pop("template", None)


class FieldRef(BaseModel):
    """A column of an output table of an earlier step."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_pick_fields_bare)

    source_step: Annotated[int, Field(ge=0), WithJsonSchema({"type": "integer"})]  # an earlier step, 0-based
    source_table: str  # its output table
    column: str
    # rows of the earlier step picked by a name; advertised without null: leaving them out says none
    pick_column: Annotated[str | None, WithJsonSchema({"type": "string"})] = None
    pick_value: Any = None  # only the rows whose pick_column equals it (plan_chain's steps fill both)
    # the value written into this text at '{}' ('5 * {}': an arithmetic expression over the value)
    template: str | None = None


class TableMapping(BaseModel):
    """Rows of an earlier step's output table become this step's input rows (``inputTableMapping``)."""

    model_config = ConfigDict(extra="forbid")

    source_step: Annotated[int, Field(ge=0), WithJsonSchema({"type": "integer"})]  # an earlier step, 0-based
    source_table: str  # its output table
    column_mapping: dict[str, str] = Field(description="input column -> output column")


class ChainStep(BaseModel):
    """One call of a chain: literal arguments and input rows plus mappings from earlier steps."""

    model_config = ConfigDict(extra="forbid")

    api: str
    args: dict[str, Any] = Field(default_factory=dict, description="scalar arguments")
    input_tables: InputTables = Field(default_factory=dict)
    input_table_mapping: dict[str, TableMapping] = Field(
        default_factory=dict, description="input table -> earlier output rows (source_step 0-based)"
    )
    param_mapping: dict[str, FieldRef] = Field(
        default_factory=dict, description="argument -> earlier output column"
    )
    on_many: Literal["all", "first", "stop", "each"] = Field(
        default="all",
        description=f"several values: all fails, stop asks, each fans out (≤{MAX_FAN_OUT})",
    )


class StepResult(BaseModel):
    """What one step was called with and what it returned."""

    index: int
    api_key: str
    args: dict[str, Any] = Field(default_factory=dict)  # after mapping
    input_rows: dict[str, int] = Field(default_factory=dict)  # input table -> rows sent
    result: CallResult


class ChainResult(BaseModel):
    """A chain's outcome: ok (every step ran), partial (stopped early, results kept) or error."""

    status: Literal["ok", "partial", "error"]
    reason: ReasonCode
    message: str | None = None
    steps: list[StepResult] = Field(default_factory=list)
    failed_step: int | None = None  # the step that failed or where the chain stopped
    truncated: bool = False  # an earlier output was capped, so later steps saw only part of it
    duration_ms: float = 0.0
