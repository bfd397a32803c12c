"""The assistant's artifacts, one per stage: what the question was taken to mean, what was bound, the plan,
the calls, the evidence, the coverage, and the answer a person reads (see docs/assistant.md)."""

from __future__ import annotations

from datetime import date, timedelta
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from apiatlas.errors import ReasonCode

Premise = Literal["confirmed", "inherited", "assumed"]
RunStatus = Literal["ok", "empty", "error", "skipped"]
EmptyState = Literal["no_data", "no_match_on_route", "entity_not_bound", "filter_too_narrow", "tool_failure"]


class Outcome(StrEnum):
    """The class of a turn (the assistant's top-level verdict)."""

    FULLY_ANSWERED = "FULLY_ANSWERED"
    PARTIALLY_ANSWERED = "PARTIALLY_ANSWERED"
    BLOCKED_BY_AMBIGUITY = "BLOCKED_BY_AMBIGUITY"
    BLOCKED_BY_MISSING_DATA = "BLOCKED_BY_MISSING_DATA"
    BLOCKED_BY_TOOLING = "BLOCKED_BY_TOOLING"
    MISROUTED = "MISROUTED"
    FAILED_TO_BIND_ENTITIES = "FAILED_TO_BIND_ENTITIES"

    @property
    def answered(self) -> bool:
        return self in (Outcome.FULLY_ANSWERED, Outcome.PARTIALLY_ANSWERED)


class Note(BaseModel):
    """A reason code with the sentence that explains it in this turn."""

    reason_code: ReasonCode
    message: str
    ru: str = Field(default="", description="the same sentence in Russian, for a Russian answer")

    def say(self, language: str) -> str:
        return self.ru if language == "ru" and self.ru else self.message


class EntityCandidate(BaseModel):
    """Something the question names: a surname, an account number, an INN, a date, a pronoun."""

    surface: str = Field(description="as written in the question")
    type: str = Field(description="the kind of value (planning.values kinds) or 'reference' for a pronoun")
    value: Any = None
    confidence: float = 1.0
    alternatives: list[str] = Field(default_factory=list, description="other readings (another case)")


class TimeScope(BaseModel):
    """The period or date the question is about, and where it came from."""

    kind: Literal["explicit", "inherited", "assumed", "missing", "none"] = "none"
    date_from: str | None = None
    date_to: str | None = None
    as_of: str | None = None
    text: str = ""


class QueryFrame(BaseModel):
    """Stage 1: the question kept verbatim, beside what it was taken to mean."""

    turn_id: str
    conversation_id: str
    original_question: str
    normalized_question: str
    language: Literal["ru", "en"]
    intent: str = Field(description="find | list | count | value | clarification | unknown")
    expected_answer_shape: str = Field(description="list | single_value | record | choice")
    entity_candidates: list[EntityCandidate] = Field(default_factory=list)
    references: list[str] = Field(default_factory=list, description="words pointing back at earlier turns")
    time_scope: TimeScope = TimeScope()
    informal_terms: list[str] = Field(default_factory=list)
    ambiguities: list[str] = Field(default_factory=list)
    success_criteria: list[str] = Field(default_factory=list)

    @property
    def text(self) -> str:
        """The question as stated (spaces normalised): what the deterministic stages read, whatever the
        normalised wording says (a model's rewording never replaces the user's words)."""
        return " ".join(self.original_question.split())


class TermFilter(BaseModel):
    """What a definition keeps of the answering rows: a lower and/or upper bound on one column (a number or
    a date; ``within_days``: a date no older than that many days before the as-of date)."""

    model_config = ConfigDict(extra="forbid")

    column: str | None = Field(default=None, description="the rows' column; none: chosen from the rows")
    at_least: float | None = None
    at_most: float | None = None
    since: date | None = None
    until: date | None = None
    within_days: int | None = None

    @property
    def on_dates(self) -> bool:
        return self.since is not None or self.until is not None or self.within_days is not None

    def dated(self, as_of: date) -> TermFilter:
        """The filter with ``within_days`` turned into a ``since`` date counted back from ``as_of``."""
        if self.within_days is None:
            return self
        since = as_of - timedelta(days=self.within_days)
        return self.model_copy(update={"since": since, "within_days": None})

    def describe(self, column: str) -> str:
        lower = self.since.isoformat() if self.since else _number(self.at_least)
        upper = self.until.isoformat() if self.until else _number(self.at_most)
        parts = [f"{column} ≥ {lower}" if lower else "", f"{column} ≤ {upper}" if upper else ""]
        return ", ".join(p for p in parts if p)


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:g}" if value != int(value) else str(int(value))


class ResolvedTerm(BaseModel):
    """An informal term of a question and the meaning it was given: by the catalog's settings (an
    assumption, said in the answer) or by the user (confirmed, then inherited by later turns)."""

    surface: str
    stem: str
    meaning: str
    origin: Literal["settings", "user"]
    premise: Premise
    turn_id: str
    reads_as: str = Field(default="", description="words the question is planned with instead of it")
    filter: TermFilter | None = None
    applied: str = Field(default="", description="the bound as applied to the rows, e.g. Rest ≥ 1000000")


class Reading(BaseModel):
    """One thing a word of the question may name: the API that answers it, its business object, its title."""

    api: str
    object_key: str
    title: str


class EntityBinding(BaseModel):
    """One input bound to a value, and why it may be trusted."""

    surface: str
    input: str = Field(description="the input name the value fills (a catalog parameter or column)")
    value: Any
    origin: Literal["question", "conversation", "clarification", "assumption"]
    premise: Premise
    evidence_ids: list[str] = Field(default_factory=list)
    confidence: float = 1.0


class Resolution(BaseModel):
    """Stage 2: entities and the period bound to catalog values, or flagged."""

    bindings: list[EntityBinding] = Field(default_factory=list)
    unbound: list[str] = Field(default_factory=list, description="candidates no value could be bound for")
    terms: list[str] = Field(default_factory=list, description="informal terms left unresolved")
    resolved_terms: list[ResolvedTerm] = Field(default_factory=list)
    term_answer: bool = Field(default=False, description="this turn answered a question about a term")
    readings: list[Reading] = Field(
        default_factory=list, description="the catalog's readings of an unresolved term (after the route)"
    )
    period: TimeScope = TimeScope()
    notes: list[Note] = Field(default_factory=list)
    rewritten_question: str = Field(default="", description="the question planned (a clarified one)")

    def known(self) -> dict[str, Any]:
        return {b.input: b.value for b in self.bindings}


class PlanStep(BaseModel):
    step_id: str
    api: str
    title: str = ""
    required: bool = True
    inputs: list[str] = Field(default_factory=list)


class ExecutionPlan(BaseModel):
    """Stage 3: the planner's best chain as steps, with the alternatives, fallbacks and stop conditions."""

    goal: str
    planner_status: str
    planner_reason: ReasonCode
    planner_message: str = ""
    steps: list[PlanStep] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list)
    alternatives: list[list[str]] = Field(default_factory=list)
    fallbacks: list[str] = Field(default_factory=list)
    stop_conditions: list[str] = Field(
        default_factory=lambda: [
            "all success criteria covered",
            "an ambiguity needs the user",
            "tooling failed with no evidence",
            "budget reached",
        ]
    )
    stop_on_many: list[int] = Field(default_factory=list, description="steps that stop on several rows")
    elapsed_ms: float = 0.0


class ToolRun(BaseModel):
    """Stage 4: one call, as it ran."""

    run_id: str
    api: str
    status: RunStatus
    inputs: dict[str, Any] = Field(default_factory=dict)
    started_at: str = ""
    duration_ms: float = 0.0
    rows_returned: int = 0
    evidence_id: str | None = None
    reason: ReasonCode | None = None
    error_code: str | None = None
    message: str = ""


class Fact(BaseModel):
    """One normalised value of one evidence row."""

    fact_id: str
    value: str
    column: str
    table: str
    row: int
    entity: str = Field(description="the row's key column and value, e.g. CustomerID=42")
    evidence_id: str
    api: str


class EmptyResult(BaseModel):
    """An empty result as its own state, never a success without data."""

    api: str
    state: EmptyState
    message: str = ""


class EvidenceRows(BaseModel):
    """The rows of one evidence id the answer may cite (kept beside the conversation state)."""

    evidence_id: str
    api: str
    table: str
    columns: list[str]
    rows: list[list[Any]]


class EvidenceBundle(BaseModel):
    """Stage 5: the facts and everything else the calls established."""

    facts: list[Fact] = Field(default_factory=list)
    sources: list[EvidenceRows] = Field(default_factory=list)
    entity_bindings: list[EntityBinding] = Field(default_factory=list)
    not_found: list[EmptyResult] = Field(default_factory=list)
    conflicts: list[str] = Field(default_factory=list)
    execution_errors: list[Note] = Field(default_factory=list)


class CoverageReport(BaseModel):
    """Stage 6: how much of the question the evidence answers, and why not more."""

    answerability: Literal["full", "partial", "insufficient"]
    covered_points: list[str] = Field(default_factory=list)
    uncovered_points: list[str] = Field(default_factory=list)
    why_partial: list[Note] = Field(default_factory=list)
    next_best_actions: list[str] = Field(default_factory=list)
    next_best_actions_ru: list[str] = Field(default_factory=list)
    outcome: Outcome


class Statement(BaseModel):
    """One thing the answer states, bound to evidence or marked as inference/unknown."""

    text: str
    kind: Literal["evidence", "inference", "unknown"] = "evidence"
    values: list[str] = Field(default_factory=list, description="the literal values stated")
    fact_ids: list[str] = Field(default_factory=list)
    evidence_ids: list[str] = Field(default_factory=list)


class FinalAnswerPackage(BaseModel):
    """Stage 7: the answer in the question's language, every stated value bound (checked in code)."""

    turn_id: str
    conversation_id: str
    question: str
    language: Literal["ru", "en"]
    outcome: Outcome
    reasons: list[ReasonCode] = Field(default_factory=list)
    short_answer: str
    checked: list[str] = Field(default_factory=list)
    found: list[Statement] = Field(default_factory=list)
    not_established: list[str] = Field(default_factory=list)
    terms: list[str] = Field(default_factory=list, description="how the question's informal terms were read")
    clarifying_question: str | None = None
    next_step: str | None = None
    text: str = Field(default="", description="the whole answer as a person reads it")
    apis: list[str] = Field(default_factory=list, description="the APIs the turn's calls ran")
    evidence_ids: list[str] = Field(default_factory=list)
    composer: str = "templates"
