"""Stage 3, the route: the planner's best chain as an ExecutionPlan, a missing period filled by an explicit
assumption (the configured as-of date), a missing entity left for the user."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from apiatlas.assistant.artifacts import ExecutionPlan, Note, PlanStep
from apiatlas.errors import ReasonCode
from apiatlas.planning.model import CandidateChain, InputSource, PlanResult
from apiatlas.planning.planner import Planner

_FROM = re.compile(r"(from|begin|start|since|beg)", re.IGNORECASE)
_TO = re.compile(r"(to|end|till|until|finish)$|(dateto|date_to|enddate|end_date)", re.IGNORECASE)


_RU_SOURCE = {
    "the configured as-of date": "рабочая дата из настроек",
    "today's date: no as-of date is configured": "сегодняшняя дата: рабочая дата не настроена",
}


@dataclass
class Route:
    """What the executor is handed: the plan artifact, the chain, the values filled for missing inputs."""

    plan: ExecutionPlan
    chain: CandidateChain | None
    fill: dict[str, Any] = field(default_factory=dict)
    notes: list[Note] = field(default_factory=list)
    unbound: list[InputSource] = field(default_factory=list)
    ranked: list[tuple[CandidateChain, float]] = field(default_factory=list)  # best first, with scores


def is_date_input(source: InputSource) -> bool:
    return "date" in source.name.lower() or "date" in source.domain_type.lower()


def assumed_date(source: InputSource, as_of: date) -> str:
    """A period's start is the first day of the as-of month; its end and a single date are the as-of day."""
    name = source.name
    if _FROM.search(name) and not _TO.search(name):
        return as_of.replace(day=1).isoformat()
    return as_of.isoformat()


def fillable_score(chain: CandidateChain, planner: Planner) -> float:
    """The planner's score with half the penalty of each missing date taken back: the assistant can fill a
    date with its as-of assumption (said in the answer), so a chain asking only for dates is nearly whole."""
    dates = sum(1 for step in chain.steps for s in step.inputs if s.origin == "user" and is_date_input(s))
    return chain.score + 0.5 * planner.weights.missing * dates


def plan_route(
    planner: Planner, question: str, known: dict[str, Any], as_of: date, as_of_source: str
) -> Route:
    """The planner's best chain for the (rewritten) question and what it still lacks."""
    result = planner.plan(question, known=known)
    ranked = sorted(((c, fillable_score(c, planner)) for c in result.chains), key=lambda p: -p[1])
    chain = ranked[0][0] if ranked else None
    route = Route(plan=_plan_artifact(question, result, chain), chain=chain, ranked=ranked)
    if chain is None:
        return route
    for step_index, step in enumerate(chain.steps):
        for source in step.inputs:
            if source.origin != "user":
                continue
            if is_date_input(source):
                value = assumed_date(source, as_of)
                route.fill[f"{step.api}.{source.name}"] = value
                route.notes.append(
                    Note(
                        reason_code=ReasonCode.ASSUMPTION_APPLIED_EXPLICITLY,
                        message=f"{source.name} not stated: {value} assumed ({as_of_source})",
                        ru=f"{source.name} не указан: принято {value} "
                        f"({_RU_SOURCE.get(as_of_source, as_of_source)})",
                    )
                )
            else:
                route.unbound.append(source)
                route.plan.steps[step_index].required = True
    route.plan.missing = [m for m in chain.missing if m not in route.fill]
    if route.fill:
        route.plan.fallbacks.append("a missing period is filled with the as-of date, said in the answer")
    return route


def _plan_artifact(question: str, result: PlanResult, chain: CandidateChain | None) -> ExecutionPlan:
    steps = []
    if chain is not None:
        for index, step in enumerate(chain.steps):
            inputs = [
                f"{s.table + '.' if s.table else ''}{s.name}←{s.origin}"
                + (f"={s.value!r}" if s.origin in ("request", "known") else "")
                for s in step.inputs
            ]
            steps.append(PlanStep(step_id=f"S{index + 1}", api=step.api, title=step.title, inputs=inputs))
    return ExecutionPlan(
        goal=question, planner_status=result.status, planner_reason=result.reason,
        planner_message=result.message, steps=steps,
        alternatives=[c.api_keys for c in result.chains[:4] if c is not chain][:3],
        fallbacks=[f"next chain: {' → '.join(c.api_keys)}" for c in result.chains[:2] if c is not chain][:1],
        elapsed_ms=result.elapsed_ms,
    )  # fmt: skip
