"""Stage 6, the coverage critic (rules): what the evidence covers of the question, the outcome class and
the reason codes; always produced, also for a full answer."""

from __future__ import annotations

from dataclasses import dataclass, field

from apiatlas.assistant.artifacts import (
    CoverageReport,
    EvidenceBundle,
    Note,
    Outcome,
    QueryFrame,
    ToolRun,
)
from apiatlas.errors import ReasonCode

_TOOLING_OUTAGE = {ReasonCode.UPSTREAM_UNAVAILABLE, ReasonCode.TIMEOUT, ReasonCode.UPSTREAM_AUTH_FAILED}


@dataclass
class Findings:
    """What the earlier stages found that decides the outcome."""

    abstained: bool = False
    no_chain: bool = False
    unbound: list[str] = field(default_factory=list)
    no_executor: str = ""
    ambiguous: int = 0  # candidates of an entity the question names once
    notes: list[Note] = field(default_factory=list)  # resolver and route notes (assumptions)


def _blocked(outcome: Outcome, notes: list[Note], actions: list[str], uncovered: list[str]) -> CoverageReport:
    return CoverageReport(
        answerability="insufficient", outcome=outcome, why_partial=notes,
        uncovered_points=uncovered, next_best_actions=actions,
    )  # fmt: skip


def coverage(
    frame: QueryFrame, found: Findings, runs: list[ToolRun], evidence: EvidenceBundle
) -> CoverageReport:
    """The outcome by the first rule that applies: route, binding, tooling, ambiguity, data, assumptions."""
    criteria = frame.success_criteria
    if found.abstained or found.no_chain:
        note = Note(
            reason_code=ReasonCode.INSUFFICIENT_SOURCE_COVERAGE,
            message="no API of this catalog answers the question" if found.abstained
            else "no chain of calls reaches an answer from what the question states",
        )  # fmt: skip
        return _blocked(
            Outcome.MISROUTED, [note], ["rephrase with the catalog's words, or ask another source"], criteria
        )
    if found.unbound:
        note = Note(
            reason_code=ReasonCode.ENTITY_NOT_RESOLVED, message="not stated: " + ", ".join(found.unbound)
        )
        return _blocked(
            Outcome.FAILED_TO_BIND_ENTITIES, [note], ["say " + ", ".join(found.unbound)], criteria
        )
    if found.no_executor:
        note = Note(reason_code=ReasonCode.NOT_EXECUTABLE, message=found.no_executor)
        return _blocked(
            Outcome.BLOCKED_BY_TOOLING, [note], ["start with --db URL or --upstream URL"], criteria
        )
    outage = next((r for r in runs if r.status == "error" and r.reason in _TOOLING_OUTAGE), None)
    if outage is not None or (evidence.execution_errors and not any(r.error_code for r in runs)):
        reason = (outage.reason if outage else None) or ReasonCode.TOOL_EXECUTION_ERROR
        notes = [
            Note(
                reason_code=reason,
                message=(outage.message if outage else evidence.execution_errors[0].message),
            )
        ]
        if reason is ReasonCode.TIMEOUT:
            notes.append(Note(reason_code=ReasonCode.MCP_TIMEOUT, message="the call ran out of time"))
        notes.append(
            Note(reason_code=ReasonCode.ROUTE_EXECUTION_ABORTED, message="the route stopped at the failure")
        )
        return _blocked(Outcome.BLOCKED_BY_TOOLING, notes, ["retry when the source is reachable"], criteria)
    if found.ambiguous > 1:
        notes = [
            Note(
                reason_code=ReasonCode.AMBIGUOUS_ENTITY,
                message=f"{found.ambiguous} matches for one named entity",
            ),
            Note(reason_code=ReasonCode.NEEDS_USER_CONFIRMATION, message="the user must say which one"),
        ]
        return _blocked(
            Outcome.BLOCKED_BY_AMBIGUITY, notes, ["say which of the matches is meant"], criteria[-1:]
        )
    refused = next((r for r in runs if r.status == "error"), None)
    empty = next((r for r in runs if r.status == "empty"), None)
    if refused is not None or empty is not None:
        run = refused or empty
        assert run is not None
        detail = f" (code {run.error_code}: {run.message})" if run.error_code else ""
        note = Note(reason_code=ReasonCode.NO_MATCH_IN_SOURCE, message=f"{run.api} found nothing{detail}")
        return _blocked(
            Outcome.BLOCKED_BY_MISSING_DATA,
            [note],
            ["check the value stated, or widen the period"],
            criteria[-1:],
        )
    return _answered(frame, runs, evidence, found)


def _answered(
    frame: QueryFrame, runs: list[ToolRun], evidence: EvidenceBundle, found: Findings
) -> CoverageReport:
    """Rows answered the question: full, or partial under an assumption or a row cap."""
    notes = [n for n in found.notes if n.reason_code is ReasonCode.ASSUMPTION_APPLIED_EXPLICITLY]
    if notes:
        notes.append(Note(reason_code=ReasonCode.MISSING_PERIOD, message="the question states no period"))
    if any(r.reason is ReasonCode.TRUNCATED for r in runs):
        notes.append(Note(reason_code=ReasonCode.EVIDENCE_DEPTH_LIMIT, message="a result was capped"))
    partial = bool(notes)
    return CoverageReport(
        answerability="partial" if partial else "full",
        outcome=Outcome.PARTIALLY_ANSWERED if partial else Outcome.FULLY_ANSWERED,
        covered_points=frame.success_criteria, why_partial=notes,
        uncovered_points=[n.message for n in notes if n.reason_code is not ReasonCode.MISSING_PERIOD],
        next_best_actions=["state the period to replace the assumption"] if partial else [],
    )  # fmt: skip
