"""Runs a chain of API calls in one session (one transaction), mapping earlier outputs into later inputs."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from apiatlas.catalog.model import Api, SessionTable
from apiatlas.errors import ReasonCode
from apiatlas.executors.base import (
    CallRequest,
    CallResult,
    ExecutionLimits,
    Executor,
    TableResult,
    elapsed_ms,
)
from apiatlas.executors.errors import ChainProblem, ChainValidationError
from apiatlas.executors.validation import normalize_name, param_spec
from apiatlas.executors.value_types import CoercionError, coerce

MAX_STEPS = 20
MAX_FAN_OUT = 50  # calls of one step with on_many='each'

ApiResolver = Callable[[str], Api | None]


class FieldRef(BaseModel):
    """A column of an output table of an earlier step."""

    model_config = ConfigDict(extra="forbid")

    source_step: int = Field(ge=0, description="index (0-based) of an earlier step")
    source_table: str = Field(description="output table of that step, e.g. pAPI_Person_FindList")
    column: str = Field(description="column of that table, e.g. PersonID")


class TableMapping(BaseModel):
    """Rows of an earlier step's output table become this step's input rows (``inputTableMapping``)."""

    model_config = ConfigDict(extra="forbid")

    source_step: int = Field(ge=0, description="index (0-based) of an earlier step")
    source_table: str = Field(description="output table of that step whose rows are copied")
    column_mapping: dict[str, str] = Field(
        description="input-table column of this step -> output column of the source step, e.g. "
        '{"OwnerID": "PersonID"}'
    )


class ChainStep(BaseModel):
    """One call of a chain: literal arguments and input rows plus mappings from earlier steps."""

    model_config = ConfigDict(extra="forbid")

    api: str = Field(description="API key, e.g. API_Acc_FindListByListOwnerID")
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


def _find_table(tables: list[SessionTable], name: str) -> SessionTable | None:
    return next((t for t in tables if normalize_name(t.name) == normalize_name(name)), None)


def _has_column(table: SessionTable, name: str) -> bool:
    return any(normalize_name(c.name) == normalize_name(name) for c in table.columns)


def validate_chain(
    steps: list[ChainStep], resolve_api: ApiResolver, limits: ExecutionLimits | None = None
) -> list[Api]:
    """Check every step before any runs; return the resolved APIs or raise ChainValidationError."""
    chosen = limits or ExecutionLimits()
    problems: list[ChainProblem] = []
    if not steps:
        raise ChainValidationError([ChainProblem(0, ReasonCode.INVALID_ARGUMENT, "the chain has no steps")])
    if len(steps) > MAX_STEPS:
        raise ChainValidationError(
            [ChainProblem(MAX_STEPS, ReasonCode.INVALID_ARGUMENT, f"a chain has at most {MAX_STEPS} steps")]
        )
    apis: list[Api | None] = [resolve_api(step.api) for step in steps]
    for index, (step, api) in enumerate(zip(steps, apis, strict=True)):
        if api is None:
            problems.append(ChainProblem(index, ReasonCode.UNKNOWN_API, f"unknown API {step.api!r}"))
            continue
        problems.extend(_step_problems(index, step, api, apis, chosen))
    if problems:
        raise ChainValidationError(problems)
    return [api for api in apis if api is not None]


def _source_table(
    index: int, ref_step: int, ref_table: str, apis: list[Api | None], what: str
) -> tuple[SessionTable | None, list[ChainProblem]]:
    if not 0 <= ref_step < index:
        return None, [
            ChainProblem(
                index, ReasonCode.INVALID_ARGUMENT, f"{what}: source_step {ref_step} is not an earlier step"
            )
        ]
    source_api = apis[ref_step]
    if source_api is None:
        return None, []  # already reported at its own step
    table = _find_table(source_api.output_tables, ref_table)
    if table is None:
        outputs = ", ".join(t.name for t in source_api.output_tables) or "none"
        return None, [
            ChainProblem(
                index,
                ReasonCode.INVALID_ARGUMENT,
                f"{what}: {source_api.key} (step {ref_step}) has no output table {ref_table!r}; "
                f"outputs: {outputs}",
            )
        ]
    return table, []


def _step_problems(
    index: int, step: ChainStep, api: Api, apis: list[Api | None], limits: ExecutionLimits
) -> list[ChainProblem]:
    problems: list[ChainProblem] = []
    params = {normalize_name(p.name): p for p in api.params}
    accepted = ", ".join(p.name for p in api.params) or "none"
    for name, value in step.args.items():
        param = params.get(normalize_name(name))
        if param is None:
            problems.append(
                ChainProblem(
                    index,
                    ReasonCode.INVALID_ARGUMENT,
                    f"{api.key} has no argument {name!r}; accepted: {accepted}",
                )
            )
            continue
        try:
            coerce(value, param_spec(param), limits.max_value_bytes)
        except CoercionError as exc:
            problems.append(
                ChainProblem(index, ReasonCode.INVALID_ARGUMENT, f"argument {param.name!r}: {exc}")
            )
    for name, ref in step.param_mapping.items():
        what = f"param_mapping {name!r}"
        if normalize_name(name) not in params:
            problems.append(
                ChainProblem(
                    index, ReasonCode.INVALID_ARGUMENT, f"{what}: {api.key} has no argument {name!r}"
                )
            )
        table, found = _source_table(index, ref.source_step, ref.source_table, apis, what)
        problems.extend(found)
        if table is not None and not _has_column(table, ref.column):
            problems.append(
                ChainProblem(
                    index, ReasonCode.INVALID_ARGUMENT, f"{what}: {table.name} has no column {ref.column!r}"
                )
            )
    for target_name, mapping in step.input_table_mapping.items():
        what = f"input_table_mapping {target_name!r}"
        target = _find_table(api.input_tables, target_name)
        if target is None:
            inputs = ", ".join(t.name for t in api.input_tables) or "none"
            problems.append(
                ChainProblem(
                    index,
                    ReasonCode.INVALID_ARGUMENT,
                    f"{what}: {api.key} has no input table {target_name!r}; input tables: {inputs}",
                )
            )
        source, found = _source_table(index, mapping.source_step, mapping.source_table, apis, what)
        problems.extend(found)
        if not mapping.column_mapping:
            problems.append(
                ChainProblem(index, ReasonCode.INVALID_ARGUMENT, f"{what}: column_mapping is empty")
            )
        for target_col, source_col in mapping.column_mapping.items():
            if target is not None and not _has_column(target, target_col):
                problems.append(
                    ChainProblem(
                        index,
                        ReasonCode.INVALID_ARGUMENT,
                        f"{what}: {target.name} has no column {target_col!r}",
                    )
                )
            if source is not None and not _has_column(source, source_col):
                problems.append(
                    ChainProblem(
                        index,
                        ReasonCode.INVALID_ARGUMENT,
                        f"{what}: {source.name} has no column {source_col!r}",
                    )
                )
    covered = {normalize_name(n) for n in [*step.args, *step.param_mapping]}
    for param in api.params:
        if param.required and param.default is None and normalize_name(param.name) not in covered:
            problems.append(
                ChainProblem(
                    index,
                    ReasonCode.MISSING_REQUIRED_INPUT,
                    f"{api.key} requires argument {param.name!r}: "
                    "give it in args or map it with param_mapping",
                )
            )
    tables_covered = {normalize_name(n) for n in [*step.input_tables, *step.input_table_mapping]}
    for table in api.input_tables:
        if normalize_name(table.name) not in tables_covered:
            problems.append(
                ChainProblem(
                    index,
                    ReasonCode.MISSING_REQUIRED_INPUT,
                    f"{api.key} requires input table {table.name!r}: "
                    "give rows or map it with input_table_mapping",
                )
            )
    return problems


class _Stop(Exception):
    """A step cannot be prepared from earlier results; carries the chain's outcome."""

    def __init__(self, status: Literal["partial", "error"], reason: ReasonCode, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.reason = reason
        self.message = message


def _rows_of(results: list[StepResult], step: int, table: str) -> tuple[list[dict[str, Any]], bool]:
    found = results[step].result.table(table)
    return (found.rows, found.truncated) if found is not None else ([], False)


def _value(row: dict[str, Any], column: str) -> Any:
    return next((v for k, v in row.items() if normalize_name(k) == normalize_name(column)), None)


def _prepare(
    index: int, step: ChainStep, results: list[StepResult]
) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]], bool]:
    """The step's argument sets (several when it fans out) and input rows after mapping, and whether a
    mapped source was truncated."""
    truncated = False
    args = dict(step.args)
    fan_out: dict[str, list[Any]] = {}
    for name, ref in step.param_mapping.items():
        rows, cut = _rows_of(results, ref.source_step, ref.source_table)
        truncated = truncated or cut
        values = list(dict.fromkeys(v for r in rows if (v := _value(r, ref.column)) is not None))
        where = f"step {index} argument {name!r} from step {ref.source_step} {ref.source_table}.{ref.column}"
        if not values:
            raise _Stop("partial", ReasonCode.NO_MATCH, f"{where}: no value to map")
        if len(values) > 1 and step.on_many == "each":
            fan_out[name] = values
            continue
        if len(values) > 1 and step.on_many != "first":
            status: Literal["partial", "error"] = "partial" if step.on_many == "stop" else "error"
            raise _Stop(
                status,
                ReasonCode.AMBIGUOUS_ENTITY,
                f"{where}: {len(values)} candidate values {values[:10]}; pick one, set on_many='first', "
                "or map the column into an input table",
            )
        args[name] = values[0]
    tables = {name: list(rows) for name, rows in step.input_tables.items()}
    for name, mapping in step.input_table_mapping.items():
        rows, cut = _rows_of(results, mapping.source_step, mapping.source_table)
        truncated = truncated or cut
        mapped = [{t: _value(r, s) for t, s in mapping.column_mapping.items()} for r in rows]
        unique = list({tuple(sorted(m.items(), key=lambda kv: kv[0])): m for m in mapped}.values())
        if not unique:
            raise _Stop(
                "partial",
                ReasonCode.NO_MATCH,
                f"step {index} input table {name!r}: "
                f"step {mapping.source_step} {mapping.source_table} has no rows",
            )
        tables.setdefault(name, []).extend(unique)
    sets = [args]
    for name, values in fan_out.items():
        sets = [{**done, name: value} for done in sets for value in values]
    if len(sets) > MAX_FAN_OUT:
        sets, truncated = sets[:MAX_FAN_OUT], True
    return sets, tables, truncated


def merge_results(api_key: str, results: list[CallResult]) -> CallResult:
    """One result for the calls of a fanned-out step: rows of each output table joined, first error wins."""
    if len(results) == 1:
        return results[0]
    failed = next((r for r in results if r.status == "error"), None)
    if failed is not None:
        return failed
    merged: dict[str, TableResult] = {}
    for result in results:
        for table in result.tables:
            into = merged.get(table.name.lower())
            if into is None:
                merged[table.name.lower()] = table.model_copy(deep=True)
                continue
            into.rows.extend(table.rows)
            into.row_count += table.row_count
            into.truncated = into.truncated or table.truncated
    tables = list(merged.values())
    rows = sum(t.row_count for t in tables)
    truncated = any(r.truncated for r in results)
    empty = bool(tables) and rows == 0
    return CallResult(
        api_key=api_key,
        status="ok",
        reason=ReasonCode.NO_MATCH if empty else ReasonCode.TRUNCATED if truncated else ReasonCode.OK,
        message="the calls returned no rows" if empty else f"{len(results)} calls, one per mapped value",
        tables=tables,
        rows_returned=rows,
        truncated=truncated,
        duration_ms=round(sum(r.duration_ms for r in results), 3),
    )


async def run_chain(
    executor: Executor,
    steps: list[ChainStep],
    resolve_api: ApiResolver,
    limits: ExecutionLimits | None = None,
) -> ChainResult:
    """Validate every step, then run them in order in one executor session (one transaction)."""
    started = time.perf_counter()
    try:
        apis = validate_chain(steps, resolve_api, limits or executor.limits)
    except ChainValidationError as exc:
        return ChainResult(
            status="error",
            reason=exc.code,
            message=exc.message,
            failed_step=exc.step,
            duration_ms=elapsed_ms(started),
        )
    results: list[StepResult] = []
    truncated = False
    async with executor.session() as session:
        for index, (step, api) in enumerate(zip(steps, apis, strict=True)):
            try:
                arg_sets, tables, cut = _prepare(index, step, results)
            except _Stop as stop:
                return ChainResult(
                    status=stop.status,
                    reason=stop.reason,
                    message=stop.message,
                    steps=results,
                    failed_step=index,
                    truncated=truncated,
                    duration_ms=elapsed_ms(started),
                )
            truncated = truncated or cut
            calls = []
            for args in arg_sets:
                calls.append(await session.call(CallRequest(api=api, args=args, input_tables=tables)))
                if calls[-1].status == "error":
                    break
            result = merge_results(api.key, calls)
            fanned = {k for k in step.param_mapping if len({str(a.get(k)) for a in arg_sets}) > 1}
            args = {k: ([a.get(k) for a in arg_sets] if k in fanned else v) for k, v in arg_sets[0].items()}
            results.append(
                StepResult(
                    index=index,
                    api_key=api.key,
                    args=args,
                    input_rows={name: len(rows) for name, rows in tables.items()},
                    result=result,
                )
            )
            if result.status == "error" or result.reason is ReasonCode.NO_MATCH:
                failed = result.status == "error"
                return ChainResult(
                    status="error" if failed else "partial",
                    reason=result.reason,
                    message=f"step {index} ({api.key}): {result.message or 'no rows'}",
                    steps=results,
                    failed_step=index,
                    truncated=truncated,
                    duration_ms=elapsed_ms(started),
                )
            truncated = truncated or result.truncated
    return ChainResult(
        status="ok", reason=ReasonCode.OK, steps=results, truncated=truncated, duration_ms=elapsed_ms(started)
    )
