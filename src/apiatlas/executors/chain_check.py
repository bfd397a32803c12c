"""Checks a chain against the APIs' contracts before its first step runs."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from apiatlas.catalog.model import Api, Param, SessionTable
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


@dataclass(frozen=True)
class StepUnderCheck:
    """One step of a chain being checked: the call, its API, every API of the chain, the limits."""

    index: int
    step: ChainStep
    api: Api
    apis: list[Api | None]
    limits: ExecutionLimits

    @cached_property
    def params(self) -> dict[str, Param]:
        """The API's scalar parameters by normalized name."""
        return {normalize_name(p.name): p for p in self.api.params}

    def problem(self, message: str, code: ReasonCode = ReasonCode.INVALID_ARGUMENT) -> ChainProblem:
        return ChainProblem(self.index, code, message)

    def source_table(
        self, ref_step: int, ref_table: str, what: str
    ) -> tuple[SessionTable | None, list[ChainProblem]]:
        return _source_table(self.index, ref_step, ref_table, self.apis, what)


def _step_problems(
    index: int, step: ChainStep, api: Api, apis: list[Api | None], limits: ExecutionLimits
) -> list[ChainProblem]:
    """Every problem of one step, check by check (a step is fine when the list is empty)."""
    check = StepUnderCheck(index, step, api, apis, limits)
    return [
        *_literal_argument_problems(check),
        *_param_mapping_problems(check),
        *_table_mapping_problems(check),
        *_missing_input_problems(check),
    ]


def _literal_argument_problems(check: StepUnderCheck) -> list[ChainProblem]:
    """A literal argument the API does not take, or a value its type does not accept."""
    problems: list[ChainProblem] = []
    accepted = ", ".join(p.name for p in check.api.params) or "none"
    for name, value in check.step.args.items():
        param = check.params.get(normalize_name(name))
        if param is None:
            problems.append(check.problem(f"{check.api.key} has no argument {name!r}; accepted: {accepted}"))
            continue
        try:
            coerce(value, param_spec(param), check.limits.max_value_bytes)
        except CoercionError as exc:
            problems.append(check.problem(f"argument {param.name!r}: {exc}"))
    return problems


def _param_mapping_problems(check: StepUnderCheck) -> list[ChainProblem]:
    """An argument mapped from an earlier step: the argument, the source table and its column must exist."""
    problems: list[ChainProblem] = []
    for name, ref in check.step.param_mapping.items():
        what = f"param_mapping {name!r}"
        if normalize_name(name) not in check.params:
            problems.append(check.problem(f"{what}: {check.api.key} has no argument {name!r}"))
        table, found = check.source_table(ref.source_step, ref.source_table, what)
        problems.extend(found)
        for column in (ref.column, ref.pick_column):
            if table is not None and column is not None and not _has_column(table, column):
                problems.append(check.problem(f"{what}: {table.name} has no column {column!r}"))
    return problems


def _table_mapping_problems(check: StepUnderCheck) -> list[ChainProblem]:
    """An input table filled from an earlier step's output table: both tables and every mapped column."""
    problems: list[ChainProblem] = []
    for target_name, mapping in check.step.input_table_mapping.items():
        what = f"input_table_mapping {target_name!r}"
        target = _find_table(check.api.input_tables, target_name)
        if target is None:
            inputs = ", ".join(t.name for t in check.api.input_tables) or "none"
            problems.append(
                check.problem(
                    f"{what}: {check.api.key} has no input table {target_name!r}; input tables: {inputs}"
                )
            )
        source, found = check.source_table(mapping.source_step, mapping.source_table, what)
        problems.extend(found)
        if not mapping.column_mapping:
            problems.append(check.problem(f"{what}: column_mapping is empty"))
        for target_col, source_col in mapping.column_mapping.items():
            if target is not None and not _has_column(target, target_col):
                problems.append(check.problem(f"{what}: {target.name} has no column {target_col!r}"))
            if source is not None and not _has_column(source, source_col):
                problems.append(check.problem(f"{what}: {source.name} has no column {source_col!r}"))
    return problems


def _missing_input_problems(check: StepUnderCheck) -> list[ChainProblem]:
    """A required argument or an input table that neither a literal nor a mapping gives."""
    problems: list[ChainProblem] = []
    step, api = check.step, check.api
    covered = {normalize_name(n) for n in [*step.args, *step.param_mapping]}
    for param in api.params:
        if param.required and param.default is None and normalize_name(param.name) not in covered:
            problems.append(
                check.problem(
                    f"{api.key} requires argument {param.name!r}: "
                    "give it in args or map it with param_mapping",
                    ReasonCode.MISSING_REQUIRED_INPUT,
                )
            )
    tables_covered = {normalize_name(n) for n in [*step.input_tables, *step.input_table_mapping]}
    for table in api.input_tables:
        if normalize_name(table.name) not in tables_covered:
            problems.append(
                check.problem(
                    f"{api.key} requires input table {table.name!r}: "
                    "give rows or map it with input_table_mapping",
                    ReasonCode.MISSING_REQUIRED_INPUT,
                )
            )
    return problems
