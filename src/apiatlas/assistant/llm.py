"""Optional model roles over an OpenAI-compatible server inside the perimeter (vLLM, llama.cpp, Ollama):
the interpreter, the critic and the composer, each with its own prompt and strict JSON Schema output
validated by a pydantic model, at most two repairs, else the deterministic stage and INVALID_TOOL_OUTPUT.
The model never produces a fact: the composer's text is refused when it states a value no evidence holds."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from apiatlas.assistant.artifacts import CoverageReport, EvidenceBundle, FinalAnswerPackage, QueryFrame
from apiatlas.assistant.compose import render_text
from apiatlas.assistant.execute import same_value
from apiatlas.errors import ReasonCode
from apiatlas.llm import KEY_ENV, ChatModel, ModelFailed
from apiatlas.security.secrets import read_secret

_VALUE = re.compile(r"\d[\d\s.,:/-]*\d|\d")
M = TypeVar("M", bound=BaseModel)
D = TypeVar("D")


class Reading(BaseModel):
    """The interpreter's output: how the question reads (never the question itself, never a value)."""

    model_config = ConfigDict(extra="forbid")

    normalized_question: str
    intent: str = Field(pattern="^(find|list|count|value|clarification|unknown)$")
    expected_answer_shape: str = Field(pattern="^(list|single_value|record|choice|count)$")
    informal_terms: list[str]
    ambiguities: list[str]
    success_criteria: list[str]


class Critique(BaseModel):
    """The critic's output: points covered and not, next actions (the outcome stays the rules')."""

    model_config = ConfigDict(extra="forbid")

    covered_points: list[str]
    uncovered_points: list[str]
    next_best_actions: list[str]


class Wording(BaseModel):
    """The composer's output: the direct answer and an explanation, in the question's language."""

    model_config = ConfigDict(extra="forbid")

    short_answer: str
    explanation: str


PROMPTS = {
    "interpreter": "You are the interpreter of an evidence assistant. Read the user's question and say "
    "how it reads: a normalised wording that loses no nuance, the intent, the expected answer shape, "
    "informal terms that need a domain definition, ambiguities, and what must be proved to answer. "
    "Never invent values.",
    "critic": "You are the coverage critic of an evidence assistant. Compare what the question asks with the "
    "evidence found. List what is covered, what is not, and the most useful next actions. Do not add facts.",
    "composer": "You are the answer composer of an evidence assistant. Write the direct answer first and a "
    "short human explanation, in the question's language, using ONLY values present in the evidence facts. "
    "Never state a number, date or identifier that is not among the facts.",
}


@dataclass
class RoleLog:
    """What the roles did in one turn: lines for the trace, reason codes for the answer."""

    notes: list[str] = field(default_factory=list)
    reasons: list[ReasonCode] = field(default_factory=list)


RoleFailed = ModelFailed  # a role's output stayed invalid after the repairs, or the server failed


def unbound_claims(text: str, evidence: EvidenceBundle, question: str, counts: set[int]) -> list[str]:
    """Numbers, dates and identifiers in ``text`` that no fact holds (nor the question, nor a row count)."""
    values = [f.value for f in evidence.facts]
    bad = []
    for match in _VALUE.finditer(text):
        token = match.group(0).strip(" .,:-/")
        if not token or token in question or (token.isdigit() and int(token) in counts):
            continue
        if not any(same_value(token, value) or token == value for value in values):
            bad.append(token)
    return bad


class ModelRoles(ChatModel):
    """The three roles against one model server; every call bounded by a timeout."""

    @classmethod
    def from_spec(cls, spec: str, timeout_s: float = 20.0) -> ModelRoles:
        model, url = cls.parse_spec(spec)
        return cls(model, url, read_secret(KEY_ENV), timeout_s)

    def ask(self, role: str, context: dict[str, Any], schema: type[M], check: Any = None) -> M:
        """The role's output validated by ``schema`` (and ``check``), repaired at most twice."""
        return self.ask_json(PROMPTS[role], context, schema, check)

    def interpret(self, frame: QueryFrame, log: RoleLog) -> QueryFrame:
        try:
            reading = self.ask("interpreter", {"question": frame.original_question}, Reading)
        except RoleFailed as exc:
            return _fallback(log, "interpreter", exc, frame)
        log.notes.append("interpreter: model reading used")
        return frame.model_copy(update=reading.model_dump())  # the original question is never replaced

    def criticise(
        self, frame: QueryFrame, evidence: EvidenceBundle, report: CoverageReport, log: RoleLog
    ) -> CoverageReport:
        context = {
            "question": frame.original_question, "success_criteria": frame.success_criteria,
            "facts": [f.model_dump() for f in evidence.facts[:60]],
            "not_found": [n.model_dump() for n in evidence.not_found],
            "errors": [e.model_dump() for e in evidence.execution_errors], "outcome": report.outcome.value,
        }  # fmt: skip
        try:
            critique = self.ask("critic", context, Critique)
        except RoleFailed as exc:
            return _fallback(log, "critic", exc, report)
        log.notes.append("critic: model points used (the outcome stays the rules')")
        return report.model_copy(update=critique.model_dump())

    def compose(
        self, package: FinalAnswerPackage, evidence: EvidenceBundle, log: RoleLog
    ) -> FinalAnswerPackage:
        counts = {len(s.rows) for s in evidence.sources} | {len(evidence.sources)}
        context = {
            "question": package.question, "language": package.language, "outcome": package.outcome.value,
            "template_answer": package.short_answer, "facts": [f.model_dump() for f in evidence.facts[:60]],
            "not_established": package.not_established, "clarifying_question": package.clarifying_question,
        }  # fmt: skip

        def check(wording: Wording) -> str:
            bad = unbound_claims(
                wording.short_answer + " " + wording.explanation, evidence, package.question, counts
            )
            return f"values not in the evidence facts: {', '.join(bad)}" if bad else ""

        try:
            wording = self.ask("composer", context, Wording, check)
        except RoleFailed as exc:
            return _fallback(log, "composer", exc, package)
        log.notes.append("composer: model wording used, every value in it checked against the facts")
        out = package.model_copy(
            update={"short_answer": wording.short_answer, "composer": f"model {self.model}"}
        )
        head, _, rest = render_text(out).partition("\n\n")  # the direct answer stays first
        out.text = "\n\n".join(p for p in (head, wording.explanation.strip(), rest) if p)
        return out


def _fallback(log: RoleLog, role: str, exc: Exception, deterministic: D) -> D:
    log.notes.append(f"{role}: {exc}; the deterministic stage is used")
    if ReasonCode.INVALID_TOOL_OUTPUT not in log.reasons:
        log.reasons.append(ReasonCode.INVALID_TOOL_OUTPUT)
    return deterministic
