"""Stages 4 and 5: the chain run through the server's ChainRunner (read-only executor, bound parameters,
row caps, evidence ids) as ToolRuns, and the EvidenceBundle of normalised facts drawn from their rows."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from apiatlas.assistant.artifacts import (
    EmptyResult,
    EmptyState,
    EvidenceBundle,
    EvidenceRows,
    Fact,
    Note,
    RunStatus,
    ToolRun,
)
from apiatlas.errors import ReasonCode
from apiatlas.executors.chain import ChainStep
from apiatlas.server.evidence import EvidenceStore
from apiatlas.server.tools import AtlasTools
from apiatlas.server.tools.execute_chain import ExecuteChainResult

_NUMERIC = re.compile(r"-?\d+(\.\d+)?")
TOOLING = {
    ReasonCode.UPSTREAM_UNAVAILABLE, ReasonCode.TIMEOUT, ReasonCode.TOOL_EXECUTION_ERROR,
    ReasonCode.SCHEMA_ERROR, ReasonCode.NOT_EXECUTABLE, ReasonCode.UPSTREAM_AUTH_FAILED,
    ReasonCode.MISSING_REQUIRED_INPUT, ReasonCode.INVALID_ARGUMENT,
}  # fmt: skip


def key_column(columns: list[str]) -> str:
    """The column naming a row's entity: the first whose name ends in id, else the first."""
    return next((c for c in columns if c.lower().endswith("id")), columns[0] if columns else "")


async def run_steps(
    core: AtlasTools, steps: list[ChainStep], store: EvidenceStore, first: int = 0
) -> list[ToolRun]:
    """Run the steps in one transaction; one ToolRun per step (the chain's time on each, said so)."""
    started_at = datetime.now(UTC).isoformat(timespec="milliseconds")
    started = time.perf_counter()
    result: ExecuteChainResult = await core.chains.execute_chain(steps, store)
    elapsed = (time.perf_counter() - started) * 1000
    runs = []
    for index, outcome in enumerate(result.steps):
        api = outcome.api or steps[index].api
        status: RunStatus = outcome.status if outcome.status in ("ok", "error", "skipped") else "error"
        if status == "ok" and outcome.rows_returned == 0:
            status = "empty"
        if result.status == "error" and outcome.status == "ok" and result.failed_step == index:
            status = "error"
        runs.append(
            ToolRun(
                run_id=f"R{first + index + 1}", api=api, status=status,
                inputs=_inputs(steps[index]), started_at=started_at, duration_ms=round(elapsed, 2),
                rows_returned=outcome.rows_returned, evidence_id=outcome.evidence_id,
                reason=outcome.reason, error_code=outcome.error_code,
                message=outcome.message or (result.message if result.status != "ok" else ""),
            )
        )  # fmt: skip
    return runs


def _inputs(step: ChainStep) -> dict[str, Any]:
    out: dict[str, Any] = dict(step.args)
    for name, rows in step.input_tables.items():
        out[name] = rows
    for name, ref in step.param_mapping.items():
        out[name] = f"← step {ref.source_step} {ref.source_table}.{ref.column}"
    for name, mapping in step.input_table_mapping.items():
        out[name] = f"← step {mapping.source_step} {mapping.source_table} {mapping.column_mapping}"
    return out


def sources_of(runs: list[ToolRun], store: EvidenceStore) -> list[EvidenceRows]:
    """The rows of every evidence id the runs produced (the store keeps them under the same ids)."""
    out: list[EvidenceRows] = []
    for run in runs:
        if run.evidence_id is None:
            continue
        evidence = store.get(run.evidence_id)
        if evidence is None:
            continue
        for table in evidence.tables:
            out.append(
                EvidenceRows(
                    evidence_id=run.evidence_id, api=run.api, table=table.name,
                    columns=list(table.columns), rows=[list(r) for r in table.rows],
                )
            )  # fmt: skip
    return out


def facts_of(source: EvidenceRows, limit: int, start: int) -> list[Fact]:
    """One fact per non-empty cell of the first ``limit`` rows, ids numbered from ``start``."""
    key = key_column(source.columns)
    out: list[Fact] = []
    for row_index, row in enumerate(source.rows[:limit]):
        cells = dict(zip(source.columns, row, strict=False))
        entity = f"{key}={cells.get(key)}"
        for column, value in cells.items():
            if value is None or str(value).strip() == "":
                continue
            out.append(
                Fact(
                    fact_id=f"F{start + len(out) + 1}", value=str(value), column=column, table=source.table,
                    row=row_index, entity=entity, evidence_id=source.evidence_id, api=source.api,
                )
            )  # fmt: skip
    return out


def bundle(
    runs: list[ToolRun], sources: list[EvidenceRows], answer_apis: set[str], limit: int
) -> EvidenceBundle:
    """Facts of the answering steps' rows, empty results by state, execution errors by reason."""
    out = EvidenceBundle(sources=sources)
    for source in sources:
        if source.api in answer_apis:
            out.facts += facts_of(source, limit, len(out.facts))
    for run in runs:
        if run.status == "empty":
            state: EmptyState = "no_match_on_route" if run is not runs[0] else "no_data"
            out.not_found.append(EmptyResult(api=run.api, state=state, message=f"{run.api} returned no rows"))
        elif run.status == "error":
            reason = run.reason or ReasonCode.TOOL_EXECUTION_ERROR
            out.execution_errors.append(Note(reason_code=reason, message=run.message or reason.value))
            if reason not in TOOLING:
                out.not_found.append(EmptyResult(api=run.api, state="entity_not_bound", message=run.message))
    return out


def _number(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace(" ", "")) if _NUMERIC.fullmatch(text.strip()) else None
    except InvalidOperation:
        return None


def same_value(stated: str, cell: Any) -> bool:
    """A stated value is a cell's value: the same text, or the same number (352.7 and 352.70)."""
    text = str(cell)
    if text == stated:
        return True
    a, b = _number(stated), _number(text)
    return a is not None and a == b


def value_in_rows(value: str, sources: list[EvidenceRows], evidence_id: str) -> bool:
    """Whether ``value`` is a cell of a row of ``evidence_id`` (the binding check)."""
    for source in sources:
        if source.evidence_id != evidence_id:
            continue
        if any(same_value(value, cell) for row in source.rows for cell in row if cell is not None):
            return True
    return False
