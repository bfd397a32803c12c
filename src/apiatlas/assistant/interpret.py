"""Stage 1, the interpreter: a QueryFrame from the question (the planner's value extraction, general
words), the question always kept verbatim beside its normalised form."""

from __future__ import annotations

from apiatlas.assistant.artifacts import EntityCandidate, QueryFrame, TimeScope
from apiatlas.assistant.terms import TermReader
from apiatlas.assistant.words import COUNTING, EVERY, FINDING, REFERENCES, language_of, words_of
from apiatlas.language.catalog import CatalogVocabulary
from apiatlas.planning import values as v

_PERIOD_KINDS = {v.DATE, v.DATE_FROM, v.DATE_TO}


def time_scope_of(found: list[v.ExtractedValue]) -> TimeScope:
    """The period the question states (explicit), or none stated."""
    scope = TimeScope()
    for value in found:
        if value.kind == v.DATE_FROM:
            scope.date_from = str(value.value)
        elif value.kind == v.DATE_TO:
            scope.date_to = str(value.value)
        elif value.kind == v.DATE:
            scope.as_of = str(value.value)
        else:
            continue
        scope.kind = "explicit"
        scope.text = (scope.text + " " + value.text).strip()
    return scope


def frame(
    question: str,
    *,
    turn_id: str,
    conversation_id: str,
    vocabulary: CatalogVocabulary,
    has_context: bool,
    terms: TermReader | None = None,
) -> QueryFrame:
    """The question as understood: candidates, references back, period, shape, criteria."""
    normalized = " ".join(question.split())
    found = v.extract_values(normalized, vocabulary)
    words = words_of(normalized)
    references = [w for w in words if w in REFERENCES]
    candidates = [
        EntityCandidate(
            surface=f.text,
            type=f.kind,
            value=f.value,
            confidence=0.9 if f.hint else 0.8,
            alternatives=list(f.alternatives),
        )
        for f in found
        if f.kind not in _PERIOD_KINDS
    ]
    candidates += [EntityCandidate(surface=r, type="reference", confidence=0.7) for r in references]
    scope = time_scope_of(found)
    lang = language_of(normalized)
    counting = any(w in COUNTING for w in words)
    listing = any(w in EVERY for w in words)
    intent = "count" if counting else "find" if any(w in FINDING for w in words) else "value"
    shape = "count" if counting else "list" if listing else "record"
    ambiguities = []
    if references and not has_context:
        ambiguities.append(
            _say(lang, "refers to an earlier turn, but there is none", "ссылка на прошлый ход, которого нет")
        )
    informal = [s for s, _ in terms.informal(normalized, [f.text for f in found])] if terms else []
    criteria = [_say(lang, f"bind {c.surface!r}", f"привязать «{c.surface}»") for c in candidates]
    criteria += [_say(lang, f"fix what {t!r} means", f"определить, что значит «{t}»") for t in informal]
    criteria.append(_say(lang, "find rows that answer the question", "найти строки, отвечающие на вопрос"))
    return QueryFrame(
        turn_id=turn_id, conversation_id=conversation_id, original_question=question,
        normalized_question=normalized, language="ru" if lang == "ru" else "en", intent=intent,
        expected_answer_shape=shape, entity_candidates=candidates, references=references,
        time_scope=scope, informal_terms=informal, ambiguities=ambiguities, success_criteria=criteria,
    )  # fmt: skip


def _say(lang: str, en: str, ru: str) -> str:
    return ru if lang == "ru" else en
