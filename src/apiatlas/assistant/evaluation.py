"""``apiatlas eval answers``: conversations of a cases file run through the assistant, scored by outcome,
APIs, facts (stated and bound to evidence whose rows hold them), binding rate and turn latency."""

from __future__ import annotations

import statistics
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from apiatlas.assistant.execute import same_value, value_in_rows
from apiatlas.assistant.trace import Turn
from apiatlas.errors import ConfigError

UNREACHABLE = "unreachable"


class TurnCase(BaseModel):
    model_config = ConfigDict(extra="ignore")

    ask: str
    outcome: list[str]
    apis: list[str] = Field(default_factory=list)
    facts: list[str] = Field(default_factory=list)
    reason: list[str] = Field(default_factory=list)

    @field_validator("outcome", "apis", "facts", "reason", mode="before")
    @classmethod
    def _listed(cls, value: Any) -> Any:
        if isinstance(value, str | int | float):
            return [str(value)]
        return [str(v) for v in value] if isinstance(value, list) else value


class AnswerCase(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: str
    turns: list[TurnCase]
    db: str | None = Field(default=None, description="'unreachable': run against a database that is down")


class AnswerSet(BaseModel):
    model_config = ConfigDict(extra="ignore")

    name: str = ""
    cases: list[AnswerCase]


def load_cases(path: Path) -> AnswerSet:
    try:
        return AnswerSet.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"{path}: {exc}") from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ConfigError(f"{path}: {where}: {first['msg']}") from exc


class TurnScore(BaseModel):
    case: str
    ask: str
    half: str
    expected: list[str]
    outcome: str
    outcome_ok: bool
    apis_expected: int
    apis_found: int
    facts_expected: int
    facts_found: int
    reasons_ok: bool
    stated: int
    bound: int
    latency_ms: float
    turn_id: str
    missing_facts: list[str] = Field(default_factory=list)


def bound_values(turn: Turn) -> tuple[set[str], int, int]:
    """The values the answer states bound to an evidence id whose rows hold them; stated and bound counts."""
    sources = turn.evidence.sources
    bound: set[str] = set()
    stated = ok = 0
    for statement in turn.answer.found:
        if statement.kind != "evidence":
            continue
        for value in statement.values:
            stated += 1
            if any(value_in_rows(value, sources, ev) for ev in statement.evidence_ids):
                ok += 1
                bound.add(value)
    return bound, stated, ok


def score_turn(case: AnswerCase, index: int, expected: TurnCase, turn: Turn) -> TurnScore:
    bound, stated, ok = bound_values(turn)
    ran = set(turn.answer.apis)
    reasons = {r.value for r in turn.answer.reasons}
    missing = [f for f in expected.facts if not any(same_value(f, b) for b in bound)]
    return TurnScore(
        case=case.id, ask=expected.ask, half="A" if index % 2 == 0 else "B", expected=expected.outcome,
        outcome=turn.answer.outcome.value, outcome_ok=turn.answer.outcome.value in expected.outcome,
        apis_expected=len(expected.apis), apis_found=sum(1 for a in expected.apis if a in ran),
        facts_expected=len(expected.facts), facts_found=len(expected.facts) - len(missing),
        reasons_ok=all(r in reasons for r in expected.reason), stated=stated, bound=ok,
        latency_ms=turn.total_ms, turn_id=turn.turn_id, missing_facts=missing,
    )  # fmt: skip


Ask = Callable[[str, str, str | None], Awaitable[Turn]]


async def run_cases(cases: AnswerSet, ask: Ask) -> list[TurnScore]:
    """Every case as one conversation (its own id), turns in order; ``ask(question, conversation, db)``."""
    scores = []
    for index, case in enumerate(cases.cases):
        conversation = f"eval-{case.id}-{uuid.uuid4().hex[:6]}"
        for expected in case.turns:
            turn = await ask(expected.ask, conversation, case.db)
            scores.append(score_turn(case, index, expected, turn))
    return scores


def _percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * share))], 1)


def figures(scores: list[TurnScore]) -> dict[str, Any]:
    """Outcome accuracy, API recall, fact recall, binding rate, reason accuracy, latency p50/p95."""
    apis = sum(s.apis_expected for s in scores)
    facts = sum(s.facts_expected for s in scores)
    stated = sum(s.stated for s in scores)
    latencies = [s.latency_ms for s in scores]
    return {
        "turns": len(scores),
        "outcome_accuracy": round(sum(s.outcome_ok for s in scores) / len(scores), 3) if scores else 0.0,
        "api_recall": round(sum(s.apis_found for s in scores) / apis, 3) if apis else None,
        "fact_recall": round(sum(s.facts_found for s in scores) / facts, 3) if facts else None,
        "binding_rate": round(sum(s.bound for s in scores) / stated, 3) if stated else None,
        "reason_accuracy": round(sum(s.reasons_ok for s in scores) / len(scores), 3) if scores else 0.0,
        "latency_p50_ms": _percentile(latencies, 0.5),
        "latency_p95_ms": _percentile(latencies, 0.95),
        "latency_mean_ms": round(statistics.fmean(latencies), 1) if latencies else 0.0,
    }


def report(name: str, scores: list[TurnScore]) -> dict[str, Any]:
    """Overall, per expected outcome class, per half (A: tuned on; B: reported), and the failed turns."""
    classes = sorted({s.expected[0] for s in scores})
    return {
        "name": name,
        "overall": figures(scores),
        "by_class": {c: figures([s for s in scores if s.expected[0] == c]) for c in classes},
        "by_half": {h: figures([s for s in scores if s.half == h]) for h in ("A", "B")},
        "failures": [
            s.model_dump()
            for s in scores
            if not s.outcome_ok or s.missing_facts or s.apis_found < s.apis_expected or not s.reasons_ok
        ],
    }
