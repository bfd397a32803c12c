"""execute_chain: several API calls in one transaction, outputs of earlier steps feeding later inputs."""

from __future__ import annotations

from apiatlas.errors import ReasonCode
from apiatlas.executors.chain import ChainResult, ChainStep, StepResult, run_chain
from apiatlas.server.evidence import EvidenceStore
from apiatlas.server.execution import Execution, evidence_tables, next_actions_for, previews
from apiatlas.server.tools.describe_api import DescribeApiResult
from apiatlas.server.tools.execute_chain import ChainStepOutcome, ExecuteChainResult


class ChainRunner:
    """Checks that every step's API is callable here, runs the chain, keeps each step's rows as evidence."""

    def __init__(self, execution: Execution) -> None:
        self.execution = execution
        self.prefix = execution.prefix

    async def execute_chain(self, steps: list[ChainStep], store: EvidenceStore) -> ExecuteChainResult:
        for index, step in enumerate(steps):
            found = self.execution.callable_api(step.api)
            if isinstance(found, DescribeApiResult):
                return self._refused(index, step.api, found, len(steps))
        executor = self.execution.executor
        assert executor is not None  # callable_api refuses every API when there is no executor
        snapshot = self.execution.navigator.snapshot
        outcome = await run_chain(executor, steps, snapshot.get_api)
        return self._answer(steps, outcome, store)

    def _refused(self, index: int, api: str, why: DescribeApiResult, count: int) -> ExecuteChainResult:
        reason = why.reason or ReasonCode.NOT_EXECUTABLE
        outcomes = [
            ChainStepOutcome(index=i, api=api if i == index else "", status="skipped") for i in range(count)
        ]
        outcomes[index] = ChainStepOutcome(
            index=index, api=api, status="error", reason=reason, message=why.message
        )
        return ExecuteChainResult(
            status="error",
            reason=reason,
            message=f"step {index}: {why.message}; nothing was run",
            steps=outcomes,
            failed_step=index,
            next_actions=why.next_actions,
        )

    def _answer(
        self, steps: list[ChainStep], outcome: ChainResult, store: EvidenceStore
    ) -> ExecuteChainResult:
        """The chain's outcome as a result: each step's outcome, its evidence, then the next actions."""
        done = [self._ran(ran, store) for ran in outcome.steps]
        done += [self._not_ran(index, steps, outcome) for index in range(len(done), len(steps))]
        evidence_ids = [item.evidence_id for item in done if item.evidence_id is not None]
        result = ExecuteChainResult(
            status=outcome.status,
            reason=None if outcome.reason is ReasonCode.OK else outcome.reason,
            message=outcome.message or f"{len(outcome.steps)} steps ran in one transaction",
            steps=done,
            failed_step=outcome.failed_step,
            evidence_ids=evidence_ids,
        )
        if outcome.status == "ok":
            self._say_done(result, done[-1], outcome.truncated)
        else:
            self._say_failed(result, steps, outcome, evidence_ids)
        return result

    def _ran(self, ran: StepResult, store: EvidenceStore) -> ChainStepOutcome:
        """A step that ran; when it succeeded its rows are kept as evidence and previewed."""
        call = ran.result
        item = ChainStepOutcome(
            index=ran.index,
            api=ran.api_key,
            status=call.status,
            reason=None if call.reason is ReasonCode.OK else call.reason,
            message=call.message or "",
            error_code=call.error_code,
            rows_returned=call.rows_returned,
        )
        if call.status == "ok":
            kept = evidence_tables(call.tables)
            evidence = store.add(ran.api_key, {"args": ran.args, "input_rows": ran.input_rows}, kept)
            item.evidence_id = evidence.evidence_id
            item.tables = previews(kept, call.tables, self.execution.config.preview_rows)
        return item

    @staticmethod
    def _not_ran(index: int, steps: list[ChainStep], outcome: ChainResult) -> ChainStepOutcome:
        """A step after the one that stopped the chain (or that one, when it stopped before running)."""
        failed_here = index == outcome.failed_step and outcome.status != "ok"
        return ChainStepOutcome(
            index=index,
            api=steps[index].api,
            status=outcome.status if failed_here and outcome.status != "ok" else "skipped",
            reason=outcome.reason if failed_here else None,
            message=outcome.message or "" if failed_here else "not run: an earlier step stopped the chain",
        )

    def _say_done(self, result: ExecuteChainResult, last: ChainStepOutcome, truncated: bool) -> None:
        result.message += f"; the last step returned {last.rows_returned} rows"
        if truncated:
            result.reason = ReasonCode.TRUNCATED
            result.message += " (an earlier output was capped, so later steps saw only part of it)"
        result.next_actions = [
            f"page full rows with {self.prefix}fetch_evidence(evidence_id='{last.evidence_id}')",
            "cite the evidence ids in your answer",
        ]

    def _say_failed(
        self,
        result: ExecuteChainResult,
        steps: list[ChainStep],
        outcome: ChainResult,
        evidence_ids: list[str],
    ) -> None:
        failed = outcome.failed_step if outcome.failed_step is not None else len(outcome.steps)
        api = steps[failed].api if failed < len(steps) else ""
        result.next_actions = (
            [f"the results of steps before {failed} are kept as evidence: {', '.join(evidence_ids)}"]
            if evidence_ids
            else []
        ) + next_actions_for(outcome.reason, api, self.prefix)
        if outcome.reason is ReasonCode.AMBIGUOUS_ENTITY:
            result.next_actions.insert(0, "ask the user which one they mean, or set on_many='first'")
