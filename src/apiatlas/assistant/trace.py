"""The trace: every artifact of every turn with its stage latencies, appended as JSON lines; and the
engineer's debug view of one turn."""

from __future__ import annotations

import json
import threading
from pathlib import Path

from pydantic import BaseModel, Field

from apiatlas.assistant.artifacts import (
    CoverageReport,
    EvidenceBundle,
    ExecutionPlan,
    FinalAnswerPackage,
    QueryFrame,
    Resolution,
    ToolRun,
)


class Turn(BaseModel):
    """One turn: the artifacts in stage order, the latencies, the outcome."""

    turn_id: str
    conversation_id: str
    frame: QueryFrame
    resolution: Resolution
    plan: ExecutionPlan | None = None
    runs: list[ToolRun] = Field(default_factory=list)
    evidence: EvidenceBundle = EvidenceBundle()
    coverage: CoverageReport
    answer: FinalAnswerPackage
    latency_ms: dict[str, float] = Field(default_factory=dict)
    total_ms: float = 0.0
    llm: list[str] = Field(default_factory=list, description="what each model role did (or why not)")


class TraceLog:
    """Appends turns to a JSON-lines file; finds one back by its id."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()

    def append(self, turn: Turn) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        line = turn.model_dump_json()
        with self._lock, self.path.open("a", encoding="utf-8") as out:
            out.write(line + "\n")

    def find(self, turn_id: str) -> Turn | None:
        if not self.path.is_file():
            return None
        found = None
        with self.path.open(encoding="utf-8") as lines:
            for line in lines:
                if turn_id == "last" and line.strip():
                    found = line
                elif line.startswith(f'{{"turn_id":"{turn_id}"'):
                    found = line  # the turn's own id leads its line (a term it resolved names its turn too)
        return Turn.model_validate(json.loads(found)) if found else None


def debug_view(turn: Turn) -> str:
    """How the question was understood, what was bound and not, the route, the calls, the findings, why."""
    f, r = turn.frame, turn.resolution
    lines = [
        f"turn {turn.turn_id} (conversation {turn.conversation_id}) — {turn.answer.outcome.value}, "
        f"{turn.total_ms:.0f} ms",
        "1. understood:",
        f"   question: {f.original_question}",
        f"   intent {f.intent}, shape {f.expected_answer_shape}, language {f.language}, "
        f"period {f.time_scope.kind}" + (f" ({f.time_scope.text})" if f.time_scope.text else ""),
        "   candidates: " + (", ".join(f"{c.surface}={c.type}" for c in f.entity_candidates) or "none"),
        "   informal terms: " + (", ".join(f.informal_terms) or "none"),
        "2. bound:",
        f"   planned as: {r.rewritten_question}",
    ]
    lines += [f"   {b.input} = {b.value!r} ({b.origin}, {b.premise}, {b.evidence_ids})" for b in r.bindings]
    lines += [f"   NOT bound: {u}" for u in r.unbound]
    for t in r.resolved_terms:
        applied = f", {t.applied}" if t.applied else ""
        lines.append(f"   term «{t.surface}» = {t.meaning!r} ({t.origin}, {t.premise}{applied})")
    lines += [f"   term NOT resolved: «{t}»" for t in r.terms]
    lines += [f"   reading {i + 1}: {x.api} ({x.title})" for i, x in enumerate(r.readings)]
    lines += [f"   {n.reason_code.value}: {n.message}" for n in r.notes]
    lines.append("3. route:")
    if turn.plan is not None:
        lines.append(
            f"   planner {turn.plan.planner_status} {turn.plan.planner_reason.value}: "
            f"{turn.plan.planner_message}"
        )
        lines += [f"   {s.step_id} {s.api}: {', '.join(s.inputs)}" for s in turn.plan.steps]
        lines += [f"   alternative: {' → '.join(a)}" for a in turn.plan.alternatives[:2]]
    lines.append("4. calls:")
    lines += [
        f"   {run.run_id} {run.api}: {run.status} {run.rows_returned} rows {run.evidence_id or ''} "
        f"{run.reason.value if run.reason else ''} {run.message}".rstrip()
        for run in turn.runs
    ]
    e = turn.evidence
    lines.append(
        f"5. found: {len(e.facts)} facts from {len({s.evidence_id for s in e.sources})} evidence ids"
    )
    lines += [f"   not found: {n.api} ({n.state})" for n in e.not_found]
    lines += [f"   error: {n.reason_code.value}: {n.message}" for n in e.execution_errors]
    c = turn.coverage
    lines.append(f"6. coverage: {c.answerability} → {c.outcome.value}")
    lines += [f"   why: {n.reason_code.value}: {n.message}" for n in c.why_partial]
    lines += [f"   next: {a}" for a in c.next_best_actions]
    lines.append("7. latency: " + ", ".join(f"{k} {v:.1f} ms" for k, v in turn.latency_ms.items()))
    lines += [f"   llm: {x}" for x in turn.llm]
    return "\n".join(lines)
