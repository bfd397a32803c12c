"""Executing APIs for the tools: one call or a chain, results kept as evidence, previews returned."""

from __future__ import annotations

from typing import Any

from apiatlas.catalog.model import Api
from apiatlas.errors import ApiatlasError, ReasonCode
from apiatlas.executors.base import CallRequest, CallResult, Executor, TableResult
from apiatlas.server.config import ServerConfig
from apiatlas.server.cursors import decode_cursor, page_info
from apiatlas.server.evidence import Evidence, EvidenceStore, EvidenceTable
from apiatlas.server.navigation import Navigator, not_executable_reason
from apiatlas.server.results import TablePreview
from apiatlas.server.tools.describe_api import DescribeApiResult
from apiatlas.server.tools.execute_api import ExecuteApiResult
from apiatlas.server.tools.fetch_evidence import FetchEvidenceResult
from apiatlas.snapshot.manifest import serving_of


def evidence_tables(tables: list[TableResult]) -> list[EvidenceTable]:
    """Output tables as column lists + row lists (compact, column order kept)."""
    return [
        EvidenceTable(t.name, list(t.columns), [[row.get(c) for c in t.columns] for row in t.rows])
        for t in tables
    ]


def previews(tables: list[EvidenceTable], results: list[TableResult], rows: int) -> list[TablePreview]:
    out = []
    for kept, result in zip(tables, results, strict=True):
        shown = kept.rows[:rows]
        out.append(
            TablePreview(
                name=kept.name,
                columns=kept.columns,
                rows=shown,
                rows_returned=result.row_count,
                truncated=len(shown) < result.row_count or result.truncated,
            )
        )
    return out


def next_actions_for(reason: ReasonCode, api: str, prefix: str) -> list[str]:
    """The next best action after a failed call, by reason code."""
    advice = {
        ReasonCode.MISSING_REQUIRED_INPUT: f"pass every required input ({prefix}describe_api('{api}'))",
        ReasonCode.INVALID_ARGUMENT: f"fix the argument the message names ({prefix}describe_api)",
        ReasonCode.SCHEMA_ERROR: f"compare the arguments with {prefix}describe_api('{api}') input_schema",
        ReasonCode.TIMEOUT: "narrow the inputs (fewer IDs, a shorter date range) and call again",
        ReasonCode.UPSTREAM_UNAVAILABLE: "the database is unreachable: retry later or tell the user",
        ReasonCode.TOOL_EXECUTION_ERROR: f"the API refused the call: read the message and its error codes in "
        f"{prefix}describe_api('{api}')",
        ReasonCode.NOT_EXECUTABLE: f"pick another API with {prefix}search or {prefix}list_apis",
    }
    return [advice.get(reason, f"call {prefix}describe_api('{api}') and retry with corrected inputs")]


class Execution:
    """Runs single calls for ``execute_api`` and pages evidence for ``fetch_evidence``."""

    def __init__(self, navigator: Navigator, executor: Executor | None, config: ServerConfig) -> None:
        self.navigator = navigator
        self.executor = executor
        self.config = config
        self.prefix = navigator.prefix

    def callable_api(self, name: str) -> Api | DescribeApiResult:
        """The API if it can be executed here, else a result saying why not (unknown, dropped, no DB)."""
        found = self.navigator.resolve_api(name)
        if isinstance(found, DescribeApiResult):
            return found
        why_not = not_executable_reason(found, self.navigator.writes_enabled(found.key))
        if why_not is None and self.executor is None:
            why_not = serving_of(self.navigator.snapshot.manifest()).no_executor_reason()
        if why_not is not None:
            return DescribeApiResult(
                status="error",
                reason=ReasonCode.NOT_EXECUTABLE,
                message=f"{found.key} is not executable: {why_not}",
                next_actions=next_actions_for(ReasonCode.NOT_EXECUTABLE, found.key, self.prefix)
                if self.executor is not None
                else [f"navigation still works: {self.prefix}describe_api shows the contract"],
            )
        return found

    async def execute_api(
        self,
        name: str,
        args: dict[str, Any],
        input_tables: dict[str, list[dict[str, Any]]],
        store: EvidenceStore,
    ) -> ExecuteApiResult:
        found = self.callable_api(name)
        if isinstance(found, DescribeApiResult):
            return ExecuteApiResult(
                status="error",
                reason=found.reason,
                api=name,
                message=found.message,
                suggestions=found.suggestions,
                next_actions=found.next_actions,
            )
        assert self.executor is not None
        args, input_tables = dict(args), dict(input_tables)
        for table in found.input_tables:  # describe_api's schema lists input tables beside the scalars
            for key in [k for k in args if k.lower() == table.name.lower() and isinstance(args[k], list)]:
                input_tables.setdefault(table.name, args.pop(key))
        request = CallRequest(api=found, args=args, input_tables=input_tables)
        try:
            result = await self.executor.call(request)
        except ApiatlasError as exc:  # validation errors raised before anything reached the database
            return ExecuteApiResult(
                status="error",
                reason=exc.code,
                api=found.key,
                message=exc.message,
                next_actions=next_actions_for(exc.code, found.key, self.prefix),
            )
        return self.answer(found.key, args, input_tables, result, store)

    def answer(
        self,
        api: str,
        args: dict[str, Any],
        input_tables: dict[str, list[dict[str, Any]]],
        result: CallResult,
        store: EvidenceStore,
    ) -> ExecuteApiResult:
        """An executor's result as a tool result; a successful call's rows are kept as evidence."""
        if result.status == "error":
            return ExecuteApiResult(
                status="error",
                reason=result.reason,
                api=api,
                error_code=result.error_code,
                message=result.message or result.reason.value,
                elapsed_ms=result.duration_ms,
                next_actions=next_actions_for(result.reason, api, self.prefix),
            )
        kept = evidence_tables(result.tables)
        evidence = store.add(api, {"args": args, "input_tables": input_tables}, kept)
        shown = previews(kept, result.tables, self.config.preview_rows)
        truncated = any(t.truncated for t in shown)
        answer = ExecuteApiResult(
            api=api,
            evidence_id=evidence.evidence_id,
            tables=shown,
            rows_returned=result.rows_returned,
            truncated=truncated,
            elapsed_ms=result.duration_ms,
            message=f"{result.rows_returned} rows from {api}; evidence {evidence.evidence_id}",
            next_actions=[],
        )
        if result.rows_returned == 0:
            answer.reason = ReasonCode.NO_MATCH
            answer.message = f"{api} ran and returned no rows: check the inputs before concluding none exist"
            answer.next_actions.append("retry with other or fewer inputs, or tell the user nothing was found")
        elif truncated:
            answer.reason = ReasonCode.TRUNCATED
            answer.next_actions.append(
                f"only the first rows are shown: call {self.prefix}fetch_evidence with "
                f"evidence_id='{evidence.evidence_id}' for the rest"
            )
        if result.truncated:
            answer.message += f" (capped at {self.config.limits.max_rows} rows per table or cut values)"
        answer.next_actions.append(f"cite evidence_id {evidence.evidence_id} in your answer")
        return answer

    def fetch_evidence(
        self, evidence_id: str, table: str | None, cursor: str | None, store: EvidenceStore
    ) -> FetchEvidenceResult:
        evidence: Evidence | None = store.get(evidence_id)
        if evidence is None:
            return FetchEvidenceResult(
                status="error",
                reason=ReasonCode.UNKNOWN_EVIDENCE,
                evidence_id=evidence_id,
                message=f"no evidence '{evidence_id}' in this session (never issued, or evicted)",
                next_actions=[f"run the call again with {self.prefix}execute_api to get a new evidence id"],
            )
        names = [t.name for t in evidence.tables]
        chosen = evidence.table(table)
        if chosen is None:
            return FetchEvidenceResult(
                status="error",
                reason=ReasonCode.INVALID_ARGUMENT if table else ReasonCode.NO_MATCH,
                evidence_id=evidence_id,
                api=evidence.api,
                tables=names,
                message=f"table '{table}' is not part of this evidence"
                if table
                else "this call returned no table",
                next_actions=[f"pass table as one of: {', '.join(names)}"] if names else [],
            )
        scope = f"ev:{evidence_id}:{chosen.name}"
        offset = decode_cursor(cursor, scope)
        rows = chosen.rows[offset : offset + self.config.evidence_page_rows]
        paging = page_info(scope, cursor, offset, len(rows), len(chosen.rows), "rows")
        return FetchEvidenceResult(
            evidence_id=evidence_id,
            api=evidence.api,
            table=chosen.name,
            tables=names,
            columns=chosen.columns,
            rows=rows,
            paging=paging,
            reason=ReasonCode.TRUNCATED if paging.truncated else None,
            message=f"rows {offset + 1}-{offset + len(rows)} of {len(chosen.rows)} in {chosen.name}"
            if rows
            else f"no rows at this position of {chosen.name} ({len(chosen.rows)} rows)",
            next_actions=[paging.how_to_continue] if paging.how_to_continue else [],
        )
