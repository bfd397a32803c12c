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
    terms: list[str] = field(default_factory=list)  # informal terms nothing defines
    readings: int = 0  # the catalog's readings of the term, when it names several things
    term_notes: list[Note] = field(default_factory=list)  # definitions assumed, or not applicable
    filtered_out: str = ""  # the terms' bounds that left no answering row


def note(code: ReasonCode, en: str, ru: str) -> Note:
    return Note(reason_code=code, message=en, ru=ru)


def _blocked(outcome: Outcome, notes: list[Note], action: Note, uncovered: list[str]) -> CoverageReport:
    return CoverageReport(
        answerability="insufficient", outcome=outcome, why_partial=notes,
        uncovered_points=uncovered, next_best_actions=[action.message], next_best_actions_ru=[action.ru],
    )  # fmt: skip


def coverage(
    frame: QueryFrame, found: Findings, runs: list[ToolRun], evidence: EvidenceBundle
) -> CoverageReport:
    """The outcome by the first rule that applies: route, binding, tooling, ambiguity, data, assumptions."""
    criteria = frame.success_criteria
    if found.abstained or found.no_chain:
        why = (
            note(ReasonCode.INSUFFICIENT_SOURCE_COVERAGE, "no API of this catalog answers the question",
                 "ни один API этого каталога не отвечает на такой вопрос")
            if found.abstained else
            note(ReasonCode.INSUFFICIENT_SOURCE_COVERAGE, "no chain of calls reaches an answer",
                 "ни одна цепочка вызовов не ведёт к ответу от того, что названо в вопросе")
        )  # fmt: skip
        notes = [why]
        if found.abstained:  # the search's own code beside the document's
            notes.append(
                note(ReasonCode.NO_CONFIDENT_MATCH, "the search abstained", "поиск не нашёл подходящих API")
            )
        act = note(ReasonCode.OK, "rephrase with the catalog's words, or ask another source",
                   "переформулируйте вопрос словами каталога или обратитесь к другому источнику")  # fmt: skip
        return _blocked(Outcome.MISROUTED, notes, act, criteria)
    if found.terms:
        return _unclear_terms(found.terms, criteria, found.readings)
    if found.unbound:
        names = ", ".join(found.unbound)
        why = note(ReasonCode.ENTITY_NOT_RESOLVED, f"not stated: {names}", f"не указано: {names}")
        act = note(ReasonCode.OK, f"say {names}", f"назовите {names}")
        return _blocked(Outcome.FAILED_TO_BIND_ENTITIES, [why], act, criteria)
    if found.no_executor:
        why = note(ReasonCode.NOT_EXECUTABLE, found.no_executor, f"вызовы недоступны: {found.no_executor}")
        act = note(
            ReasonCode.OK, "start with --db URL or --upstream URL", "запустите с --db URL или --upstream URL"
        )
        return _blocked(Outcome.BLOCKED_BY_TOOLING, [why], act, criteria)
    tooling = _tooling(runs, evidence)
    if tooling:
        act = note(
            ReasonCode.OK, "retry when the source is reachable", "повторите, когда источник станет доступен"
        )
        return _blocked(Outcome.BLOCKED_BY_TOOLING, tooling, act, criteria)
    if found.ambiguous > 1:
        notes = [
            note(ReasonCode.AMBIGUOUS_ENTITY, f"{found.ambiguous} matches for one named entity",
                 f"под названное подходят {found.ambiguous} записей"),
            note(ReasonCode.NEEDS_USER_CONFIRMATION, "the user must say which one", "нужно выбрать одну"),
        ]  # fmt: skip
        act = note(
            ReasonCode.OK, "say which of the matches is meant", "скажите, какая из записей имеется в виду"
        )
        return _blocked(Outcome.BLOCKED_BY_AMBIGUITY, notes, act, criteria[-1:])
    missing = _missing_data(runs)
    if missing is not None:
        act = note(ReasonCode.OK, "check the value stated, or widen the period",
                   "проверьте названное значение или расширьте период")  # fmt: skip
        return _blocked(Outcome.BLOCKED_BY_MISSING_DATA, missing, act, criteria[-1:])
    if found.filtered_out:
        why = note(ReasonCode.NO_MATCH_IN_SOURCE, f"no row is left by {found.filtered_out}",
                   f"ни одна строка не проходит {found.filtered_out}")  # fmt: skip
        act = note(ReasonCode.OK, "widen what the term means", "расширьте определение термина")
        return _blocked(Outcome.BLOCKED_BY_MISSING_DATA, [why], act, criteria[-1:])
    return _answered(frame, runs, found)


def _unclear_terms(terms: list[str], criteria: list[str], readings: int) -> CoverageReport:
    """Words only the user can define ("крупные", "recent") or choose the reading of ("статус": whose?): the
    question back, nothing called."""
    names = ", ".join(f"«{t}»" for t in terms)
    if readings:
        notes = [
            note(ReasonCode.AMBIGUOUS_BUSINESS_TERM, f"{names} names {readings} things of the catalog",
                 f"{names} в каталоге означает {readings} разных вещи"),
            note(ReasonCode.MULTIPLE_VALID_INTERPRETATIONS, "the question does not say which",
                 "вопрос не говорит, какую из них"),
            note(ReasonCode.NEEDS_USER_CONFIRMATION, "the user must choose", "нужно выбрать"),
        ]  # fmt: skip
        act = note(ReasonCode.OK, f"say which {names} is meant", f"скажите, какое {names} имеется в виду")
        return _blocked(Outcome.BLOCKED_BY_AMBIGUITY, notes, act, criteria)
    notes = [
        note(ReasonCode.AMBIGUOUS_BUSINESS_TERM,
             f"{names}: neither the catalog nor its settings say what this means",
             f"{names}: ни каталог, ни его настройки не определяют, что это значит"),
        note(ReasonCode.NEEDS_USER_CONFIRMATION, "the user must say what it means",
             "нужно, чтобы вы сказали, что это значит"),
    ]  # fmt: skip
    act = note(ReasonCode.OK, f"say what {names} means: a threshold or a period",
               f"скажите, что считать {names}: порог или период")  # fmt: skip
    return _blocked(Outcome.BLOCKED_BY_AMBIGUITY, notes, act, criteria)


def _tooling(runs: list[ToolRun], evidence: EvidenceBundle) -> list[Note]:
    """The source was down, timed out or failed without an API's own error code: why, else nothing."""
    outage = next((r for r in runs if r.status == "error" and r.reason in _TOOLING_OUTAGE), None)
    if outage is None and not (evidence.execution_errors and not any(r.error_code for r in runs)):
        return []
    reason = (outage.reason if outage else None) or ReasonCode.TOOL_EXECUTION_ERROR
    message = outage.message if outage else evidence.execution_errors[0].message
    notes = [note(reason, message, f"сбой вызова: {message}")]
    if reason is not ReasonCode.TOOL_EXECUTION_ERROR:  # the document's code for any tooling failure
        notes.append(note(ReasonCode.TOOL_EXECUTION_ERROR, "the call failed", "вызов не выполнен"))
    if reason is ReasonCode.TIMEOUT:
        notes.append(note(ReasonCode.MCP_TIMEOUT, "the call ran out of time", "вызов не уложился во время"))
    notes.append(note(ReasonCode.ROUTE_EXECUTION_ABORTED, "the route stopped at the failure",
                      "маршрут остановлен на сбое"))  # fmt: skip
    return notes


def _missing_data(runs: list[ToolRun]) -> list[Note] | None:
    """A step found nothing (an empty result, or the API's own not-found error): the data has no match."""
    run = next((r for r in runs if r.status == "error"), None) or next(
        (r for r in runs if r.status == "empty"), None
    )
    if run is None:
        return None
    detail = f" (code {run.error_code}: {run.message})" if run.error_code else ""
    return [
        note(
            ReasonCode.NO_MATCH_IN_SOURCE,
            f"{run.api} found nothing{detail}",
            f"{run.api} ничего не нашёл{detail}",
        ),
        note(ReasonCode.NO_MATCH, "no rows", "строк нет"),  # the executor's own code for an empty result
    ]


def _answered(frame: QueryFrame, runs: list[ToolRun], found: Findings) -> CoverageReport:
    """Rows answered the question: full, or partial under an assumption or a row cap."""
    notes = [n for n in found.notes if n.reason_code is ReasonCode.ASSUMPTION_APPLIED_EXPLICITLY]
    if notes:
        notes.append(
            note(ReasonCode.MISSING_PERIOD, "the question states no period", "в вопросе не указан период")
        )
    period = bool(notes)
    if any(r.reason is ReasonCode.TRUNCATED for r in runs):
        notes.append(
            note(ReasonCode.EVIDENCE_DEPTH_LIMIT, "a result was capped", "результат был усечён лимитом строк")
        )
    notes += found.term_notes
    partial = bool(notes)
    actions = [
        *([("state the period to replace the assumption", "укажите период, чтобы заменить допущение")]
          if period else []),
        *([("say what the term means to replace its reading", "скажите, что значит термин, чтобы заменить "
            "его толкование")] if found.term_notes else []),
    ]  # fmt: skip
    return CoverageReport(
        answerability="partial" if partial else "full",
        outcome=Outcome.PARTIALLY_ANSWERED if partial else Outcome.FULLY_ANSWERED,
        covered_points=frame.success_criteria, why_partial=notes,
        uncovered_points=[n.message for n in notes if n.reason_code is not ReasonCode.MISSING_PERIOD],
        next_best_actions=[en for en, _ in actions], next_best_actions_ru=[ru for _, ru in actions],
    )  # fmt: skip
