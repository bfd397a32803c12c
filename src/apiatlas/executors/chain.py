"""Runs a chain of API calls in one session (one transaction), mapping earlier outputs into later inputs."""

from __future__ import annotations

import re
import time
from decimal import Decimal
from typing import Any, Literal

from apiatlas.catalog.model import Api
from apiatlas.errors import ReasonCode
from apiatlas.executors.base import (
    CallRequest,
    CallResult,
    ExecutionLimits,
    Executor,
    ExecutorSession,
    TableResult,
    elapsed_ms,
)
from apiatlas.executors.chain_check import validate_chain
from apiatlas.executors.chain_model import (
    MAX_FAN_OUT,
    MAX_STEPS,
    ApiResolver,
    ChainResult,
    ChainStep,
    FieldRef,
    StepResult,
    TableMapping,
)
from apiatlas.executors.errors import ChainValidationError
from apiatlas.executors.validation import normalize_name

__all__ = [
    "MAX_FAN_OUT",
    "MAX_STEPS",
    "ApiResolver",
    "ChainResult",
    "ChainStep",
    "FieldRef",
    "StepResult",
    "TableMapping",
    "merge_results",
    "run_chain",
    "validate_chain",
]


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


def _same(found: Any, wanted: Any) -> bool:
    """A picked row's value equals the name asked for (text compared without case)."""
    if isinstance(found, str) and isinstance(wanted, str):
        return found.casefold() == wanted.casefold()
    return bool(found == wanted)


def _prepare(
    index: int, step: ChainStep, results: list[StepResult]
) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]], bool]:
    """The step's argument sets (several when it fans out) and input rows after mapping, and whether a
    mapped source was truncated."""
    args, fan_out, args_cut = _mapped_args(index, step, results)
    tables, tables_cut = _mapped_tables(index, step, results)
    truncated = args_cut or tables_cut
    sets = [args]
    for name, values in fan_out.items():
        sets = [{**done, name: value} for done in sets for value in values]
    if len(sets) > MAX_FAN_OUT:
        sets, truncated = sets[:MAX_FAN_OUT], True
    return sets, tables, truncated


def _mapped_args(
    index: int, step: ChainStep, results: list[StepResult]
) -> tuple[dict[str, Any], dict[str, list[Any]], bool]:
    """Literal arguments plus one value per mapped argument; the mapped arguments that fan out (several
    values, on_many='each') with their values; whether a source was truncated."""
    truncated = False
    args = dict(step.args)
    fan_out: dict[str, list[Any]] = {}
    for name, ref in step.param_mapping.items():
        rows, cut = _rows_of(results, ref.source_step, ref.source_table)
        truncated = truncated or cut
        if ref.pick_column:
            rows = [r for r in rows if _same(_value(r, ref.pick_column), ref.pick_value)]
        values = list(dict.fromkeys(v for r in rows if (v := _value(r, ref.column)) is not None))
        if ref.template:
            values = _templated(ref.template, values)
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
    return args, fan_out, truncated


_PLAIN_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")


def _templated(template: str, values: list[Any]) -> list[Any]:
    """Each value that is a number (also as text) written into ``template`` at ``{}``; other values (an
    API's text, a flag) are left out: a template is an arithmetic expression, never text to inject into."""
    kept = [v for v in values if not isinstance(v, bool) and isinstance(v, (int, float, Decimal, str))]
    numbers = [str(v).strip() for v in kept]
    return [template.replace("{}", n, 1) for n in numbers if _PLAIN_NUMBER.fullmatch(n)]


def _mapped_tables(
    index: int, step: ChainStep, results: list[StepResult]
) -> tuple[dict[str, list[dict[str, Any]]], bool]:
    """Literal input rows plus the distinct rows mapped from earlier outputs; whether a source was cut."""
    truncated = False
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
    return tables, truncated


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


async def _call_step(
    session: ExecutorSession,
    index: int,
    step: ChainStep,
    api: Api,
    arg_sets: list[dict[str, Any]],
    tables: dict[str, list[dict[str, Any]]],
) -> StepResult:
    """Call the step's API once per argument set (the first error stops the fan-out), results merged; a
    fanned-out argument is recorded as the list of its values."""
    calls = []
    for args in arg_sets:
        calls.append(await session.call(CallRequest(api=api, args=args, input_tables=tables)))
        if calls[-1].status == "error":
            break
    fanned = {k for k in step.param_mapping if len({str(a.get(k)) for a in arg_sets}) > 1}
    return StepResult(
        index=index,
        api_key=api.key,
        args={k: ([a.get(k) for a in arg_sets] if k in fanned else v) for k, v in arg_sets[0].items()},
        input_rows={name: len(rows) for name, rows in tables.items()},
        result=merge_results(api.key, calls),
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
            ran = await _call_step(session, index, step, api, arg_sets, tables)
            results.append(ran)
            result = ran.result
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
