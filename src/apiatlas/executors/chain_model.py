"""The chain's models: steps with their mappings from earlier outputs, and step and chain results."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from apiatlas.catalog.model import Api
from apiatlas.errors import ReasonCode
from apiatlas.executors.base import CallResult

MAX_STEPS = 20
MAX_FAN_OUT = 50  # calls of one step with on_many='each'

ApiResolver = Callable[[str], Api | None]


class FieldRef(BaseModel):
    """A column of an output table of an earlier step."""

    model_config = ConfigDict(extra="forbid")

    source_step: int = Field(ge=0, description="index (0-based) of an earlier step")
    source_table: str = Field(description="output table of that step")
    column: str = Field(description="column of that table")


class TableMapping(BaseModel):
    """Rows of an earlier step's output table become this step's input rows (``inputTableMapping``)."""

    model_config = ConfigDict(extra="forbid")

    source_step: int = Field(ge=0, description="index (0-based) of an earlier step")
    source_table: str = Field(description="output table of that step whose rows are copied")
    column_mapping: dict[str, str] = Field(
        description="input-table column of this step -> output column of the source step"
    )


class ChainStep(BaseModel):
    """One call of a chain: literal arguments and input rows plus mappings from earlier steps."""

    model_config = ConfigDict(extra="forbid")

    api: str = Field(description="API key, as search and list_apis name it")
    args: dict[str, Any] = Field(default_factory=dict, description="literal scalar arguments")
    input_tables: dict[str, list[dict[str, Any]]] = Field(
        default_factory=dict, description="literal rows of input tables: table -> list of {column: value}"
    )
    input_table_mapping: dict[str, TableMapping] = Field(
        default_factory=dict, description="input table of this step -> rows of an earlier step's output table"
    )
    param_mapping: dict[str, FieldRef] = Field(
        default_factory=dict, description="argument of this step -> a column of an earlier step's output"
    )
    on_many: Literal["all", "first", "stop", "each"] = Field(
        default="all",
        description="when a mapped argument gets several distinct values: 'all' fails (map into an input "
        "table instead), 'first' takes the first, 'stop' ends the chain so the user can choose, 'each' "
        f"calls this step once per value (fan-out, at most {MAX_FAN_OUT} calls) and merges their rows",
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
