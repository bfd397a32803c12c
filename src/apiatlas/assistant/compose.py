"""Stage 7, the composer (templates, Russian and English): the direct answer first, what was checked, what
was found (each statement citing its evidence), what is unknown, the question back; then the binding
check that refuses any stated value no evidence row holds."""

from __future__ import annotations

from apiatlas.assistant.artifacts import (
    CoverageReport,
    EvidenceBundle,
    EvidenceRows,
    FinalAnswerPackage,
    Outcome,
    QueryFrame,
    ResolvedTerm,
    Statement,
    ToolRun,
)
from apiatlas.assistant.execute import key_column, value_in_rows
from apiatlas.errors import ReasonCode

T = {
    "ru": {
        Outcome.FULLY_ANSWERED: "Ответ найден: {what}.",
        Outcome.PARTIALLY_ANSWERED: "Ответ частичный: {what}; есть допущения (ниже).",
        Outcome.BLOCKED_BY_AMBIGUITY: "Нужно уточнение: под «{surface}» подходят {n} записей.",
        "unclear": "Нужно уточнение: не определено, что считать {terms}.",
        "several": "Нужно уточнение: {terms} в каталоге означает разное.",
        "choose": "Что вы имеете в виду под {terms}: {readings}? Ответьте номером или словами.",
        "term": "Что считать {terms}? Назовите порог или период, например «больше 1 000 000» или "
        "«с 01.01.2026».",
        "terms": "Термины",
        "settings": "определение из настроек каталога, допущение",
        "user": "сказано вами",
        "inherited": "сказано вами ранее",
        "applied": "применено: {how}",
        "not_applied": "не применено к строкам",
        Outcome.BLOCKED_BY_MISSING_DATA: "Данных не найдено: {why}.",
        Outcome.BLOCKED_BY_TOOLING: "Ответить не удалось: источник данных недоступен или сбоит ({why}).",
        Outcome.MISROUTED: "В этом каталоге нет API, отвечающего на этот вопрос.",
        Outcome.FAILED_TO_BIND_ENTITIES: "Не удалось определить, о ком или о чём вопрос: {why}.",
        "rows": "{n} строк(и) из {api}",
        "checked": "Проверено",
        "found": "Найдено",
        "unknown": "Не удалось установить",
        "ask": "Уточните",
        "next": "Следующий шаг",
        "which": "Кого из них вы имеете в виду? Назовите имя, дату рождения или номер в списке.",
        "say": "Назовите: {what}.",
        "more": "… и ещё {n} строк(и) в доказательстве {ev}",
    },
    "en": {
        Outcome.FULLY_ANSWERED: "Answer found: {what}.",
        Outcome.PARTIALLY_ANSWERED: "A partial answer: {what}; it rests on assumptions (below).",
        Outcome.BLOCKED_BY_AMBIGUITY: "Which one? {n} records match «{surface}».",
        "unclear": "Please clarify: it is not defined what counts as {terms}.",
        "several": "Please clarify: {terms} names different things in this catalog.",
        "choose": "Which {terms} do you mean: {readings}? Answer with the number or in words.",
        "term": "What counts as {terms}? Give a threshold or a period, e.g. «over 1000000» or "
        "«since 2026-01-01».",
        "terms": "Terms",
        "settings": "the catalog's settings define it; an assumption",
        "user": "as you said",
        "inherited": "as you said earlier",
        "applied": "applied: {how}",
        "not_applied": "not applied to the rows",
        Outcome.BLOCKED_BY_MISSING_DATA: "No data found: {why}.",
        Outcome.BLOCKED_BY_TOOLING: "No answer: the data source is unreachable or failed ({why}).",
        Outcome.MISROUTED: "No API of this catalog answers this question.",
        Outcome.FAILED_TO_BIND_ENTITIES: "Could not tell who or what the question is about: {why}.",
        "rows": "{n} row(s) from {api}",
        "checked": "Checked",
        "found": "Found",
        "unknown": "Not established",
        "ask": "Please clarify",
        "next": "Next step",
        "which": "Which of them do you mean? Give a name, a birth date or the number in the list.",
        "say": "Please give: {what}.",
        "more": "… and {n} more row(s) in evidence {ev}",
    },
}


def statements(sources: list[EvidenceRows], apis: list[str], limit: int, lang: str) -> list[Statement]:
    """One statement per row of the answering tables: its values, their fact ids, its evidence id."""
    out: list[Statement] = []
    for source in sources:
        if source.api not in apis:
            continue
        for index, row in enumerate(source.rows[:limit]):
            pairs = [
                (c, v) for c, v in zip(source.columns, row, strict=False) if v is not None and str(v) != ""
            ]
            text = f"{index + 1}. " + "; ".join(f"{c}: {v}" for c, v in pairs) + f" [{source.evidence_id}]"
            out.append(
                Statement(text=text, values=[str(v) for _, v in pairs], evidence_ids=[source.evidence_id])
            )
        if len(source.rows) > limit:
            more = T[lang]["more"].format(n=len(source.rows) - limit, ev=source.evidence_id)
            out.append(Statement(text=str(more), kind="inference", evidence_ids=[source.evidence_id]))
    return out


def link_facts(found: list[Statement], evidence: EvidenceBundle) -> None:
    """Each stated value names the facts (same evidence id, same value) that hold it."""
    for statement in found:
        ids = set(statement.evidence_ids)
        statement.fact_ids = [
            f.fact_id for f in evidence.facts if f.evidence_id in ids and f.value in statement.values
        ]


def unbound_values(package: FinalAnswerPackage, sources: list[EvidenceRows]) -> list[str]:
    """Every value an evidence statement states that no row of its cited evidence holds."""
    bad = []
    for statement in package.found:
        if statement.kind != "evidence":
            continue
        for value in statement.values:
            if not any(value_in_rows(value, sources, ev) for ev in statement.evidence_ids):
                bad.append(value)
    return bad


def compose(
    frame: QueryFrame, report: CoverageReport, runs: list[ToolRun], evidence: EvidenceBundle,
    answer_apis: list[str], limit: int, surface: str = "", ask_for: str = "", candidates: int = 0,
    unclear: list[str] | None = None, terms: list[ResolvedTerm] | None = None,
    readings: list[str] | None = None,
) -> FinalAnswerPackage:  # fmt: skip
    """The package by template in the question's language."""
    lang = frame.language
    t = T[lang]
    found = statements(evidence.sources, answer_apis, limit, lang)
    link_facts(found, evidence)
    last = next((s for s in reversed(evidence.sources) if s.api in answer_apis), None)
    what = t["rows"].format(n=len(last.rows), api=last.api) if last is not None else ""
    why = "; ".join(n.say(lang) for n in report.why_partial) or "—"
    short = str(t[report.outcome]).format(what=what, why=why, surface=surface, n=candidates)
    named = ", ".join(f"«{u}»" for u in unclear or [])
    offered = "; ".join(f"{i + 1}) {title}" for i, title in enumerate(readings or []))
    if unclear and report.outcome is Outcome.BLOCKED_BY_AMBIGUITY:
        short = str(t["several" if offered else "unclear"]).format(terms=named)
    checked = [
        f"{r.api}: {r.status}, {r.rows_returned} " + ("строк(и)" if lang == "ru" else "row(s)")
        + (f" [{r.evidence_id}]" if r.evidence_id else "")
        + (f" — {r.message}" if r.status == "error" else "")
        for r in runs
    ]  # fmt: skip
    clarify = None
    if report.outcome is Outcome.BLOCKED_BY_AMBIGUITY:
        clarify = str(t["term"]).format(terms=named) if unclear else str(t["which"])
        clarify = str(t["choose"]).format(terms=named, readings=offered) if offered else clarify
    elif report.outcome is Outcome.FAILED_TO_BIND_ENTITIES:
        clarify = str(t["say"]).format(what=ask_for or why)
    package = FinalAnswerPackage(
        turn_id=frame.turn_id, conversation_id=frame.conversation_id, question=frame.original_question,
        language=lang, outcome=report.outcome, reasons=[n.reason_code for n in report.why_partial],
        short_answer=short, checked=checked, found=found,
        not_established=[n.say(lang) for n in report.why_partial if n.reason_code is not ReasonCode.OK],
        terms=[term_line(term, lang) for term in terms or []],
        clarifying_question=clarify,
        next_step=_next_step(report, lang),
        apis=[r.api for r in runs if r.status != "skipped"],
        evidence_ids=sorted({r.evidence_id for r in runs if r.evidence_id}),
    )  # fmt: skip
    package.text = render_text(package)
    return package


def term_line(term: ResolvedTerm, lang: str) -> str:
    """How one informal term was read: its meaning, who gave it, how it was applied to the rows."""
    t = T[lang]
    told = "inherited" if term.premise == "inherited" else "user"
    source = t["settings"] if term.origin == "settings" else t[told]
    how = str(t["applied"]).format(how=term.applied) if term.applied else ""
    how = how or ("" if term.reads_as else str(t["not_applied"]))
    return f"«{term.surface}» — {term.meaning} ({source}" + (f"; {how})" if how else ")")


def _next_step(report: CoverageReport, lang: str) -> str | None:
    actions = (
        report.next_best_actions_ru
        if lang == "ru" and report.next_best_actions_ru
        else report.next_best_actions
    )
    return actions[0] if actions else None


def render_text(package: FinalAnswerPackage) -> str:
    """The five layers as plain text: answer, checked, found, not established, question or next step."""
    t = T[package.language]
    parts = [package.short_answer]
    if package.terms:
        parts.append(f"{t['terms']}:\n" + "\n".join(f"  - {line}" for line in package.terms))
    if package.checked:
        parts.append(f"{t['checked']}:\n" + "\n".join(f"  - {c}" for c in package.checked))
    if package.found:
        parts.append(f"{t['found']}:\n" + "\n".join(f"  {s.text}" for s in package.found))
    if package.not_established:
        parts.append(f"{t['unknown']}:\n" + "\n".join(f"  - {n}" for n in package.not_established))
    if package.clarifying_question:
        parts.append(f"{t['ask']}: {package.clarifying_question}")
    elif package.next_step:
        parts.append(f"{t['next']}: {package.next_step}")
    return "\n\n".join(parts)


__all__ = ["compose", "key_column", "render_text", "unbound_values"]
