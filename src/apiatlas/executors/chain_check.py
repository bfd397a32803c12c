"""Checks a chain against the APIs' contracts before its first step runs."""

from __future__ import annotations

from apiatlas.catalog.model import Api, SessionTable
from apiatlas.errors import ReasonCode
from apiatlas.executors.base import ExecutionLimits
from apiatlas.executors.chain_model import MAX_STEPS, ApiResolver, ChainStep
from apiatlas.executors.errors import ChainProblem, ChainValidationError
from apiatlas.executors.validation import normalize_name, param_spec
from apiatlas.executors.value_types import CoercionError, coerce


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
