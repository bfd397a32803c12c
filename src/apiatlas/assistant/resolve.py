"""Stage 2, the resolver: the question's references bound to the conversation's active entity, an answer
to a clarifying question bound to the candidate it names, the period stated or inherited."""

from __future__ import annotations

from typing import Any

from apiatlas.assistant.artifacts import EntityBinding, Note, QueryFrame, Resolution, TimeScope
from apiatlas.assistant.state import ConversationState, OpenAmbiguity
from apiatlas.assistant.words import CHOICE_ORDINALS, FILLERS, REFERENCES, words_of
from apiatlas.errors import ReasonCode
from apiatlas.language.catalog import CatalogVocabulary
from apiatlas.planning import values as v

SUBJECT_KINDS = {v.SURNAME, v.ENTITY, v.ACCOUNT_NUMBER, v.INN, v.ISIN, v.DOC_NUMBER, v.IDENTIFIER}


def _same_word(word: str, cell: str) -> bool:
    """A question word naming a cell's value, allowing another case ending ("Никиту" for "Никита")."""
    cell = cell.lower()
    if word == cell:
        return True
    stem = max(3, len(cell) - 2)
    return (
        len(word) >= 3 and len(cell) >= 3 and word[:stem] == cell[:stem] and abs(len(word) - len(cell)) <= 3
    )


def _cell_texts(value: Any) -> list[str]:
    text = str(value).strip()
    out = [text.lower()]
    if len(text) == 10 and text[4] == "-" and text[7] == "-":  # an ISO date also said as 12.05.1985
        out.append(f"{text[8:10]}.{text[5:7]}.{text[:4]}")
        out.append(text[:4])
    return out


def chosen_candidate(question: str, open_: OpenAmbiguity, vocabulary: CatalogVocabulary) -> int | None:
    """The candidate the answer names (by its values or its position), when exactly one fits best."""
    words = words_of(question)
    stated = {str(f.value).lower() for f in v.extract_values(question, vocabulary)}
    scores = []
    for row in open_.candidates:
        cells = [t for value in row if value is not None for t in _cell_texts(value)]
        score = sum(1 for w in words if any(_same_word(w, c) for c in cells))
        score += sum(1 for s in stated if s in cells)
        scores.append(score)
    best = max(scores, default=0)
    if best > 0 and scores.count(best) == 1:
        return scores.index(best)
    for word in words:  # "второй", "the second", "2"
        index = CHOICE_ORDINALS.get(word)
        if index is not None and index <= len(open_.candidates) and len(words) <= 4:
            return index - 1
    return None


def own_words(frame: QueryFrame) -> list[str]:
    """The question's words besides references, fillers, numbers and its period: what it asks about."""
    period = set(words_of(frame.time_scope.text))
    return [
        w for w in words_of(frame.text)
        if w not in REFERENCES and w not in FILLERS and w not in period and not w.isdigit()
    ]  # fmt: skip


def topic_of(question: str, vocabulary: CatalogVocabulary) -> str:
    """A question without its period: what a follow-up stating only a new period asks again."""
    for value in v.extract_values(question, vocabulary):
        if value.kind in (v.DATE, v.DATE_FROM, v.DATE_TO):
            question = question.replace(value.text, " ")
    return " ".join(question.split())


def _has_subject(frame: QueryFrame) -> bool:
    return any(c.type in SUBJECT_KINDS for c in frame.entity_candidates)


def resolve(frame: QueryFrame, state: ConversationState, vocabulary: CatalogVocabulary) -> Resolution:
    """Bindings from the conversation, the clarified question, the period; notes say what was inherited."""
    res = Resolution(rewritten_question=frame.text, period=frame.time_scope)
    open_ = state.open_ambiguity
    if open_ is not None:
        index = chosen_candidate(frame.text, open_, vocabulary)
        if index is not None:
            return _clarified(frame, open_, index, res)
    entity = state.active_entity
    if entity is not None and (frame.references or not _has_subject(frame)):
        kept = [w for w in frame.text.split() if w.lower().strip("?,.!") not in REFERENCES]
        res.rewritten_question = " ".join([*kept, entity.surface])
        if state.topic and not own_words(frame):  # "а за февраль?": the last question, another period
            res.rewritten_question = " ".join([state.topic, frame.time_scope.text]).strip()
        stated = {str(c.value).lower() for c in frame.entity_candidates}
        for name, value in entity.values.items():
            if str(value).lower() not in stated:
                res.bindings.append(
                    EntityBinding(
                        surface=entity.surface, input=name, value=value, origin="conversation",
                        premise="inherited", evidence_ids=[entity.evidence_id],
                    )
                )  # fmt: skip
        res.notes.append(
            Note(
                reason_code=ReasonCode.OK,
                message=f"{entity.surface!r} taken from the conversation ({entity.key})",
            )
        )
        _inherit_period(frame, state, res)
    elif frame.references:
        res.unbound += frame.references
        res.notes.append(
            Note(reason_code=ReasonCode.ENTITY_NOT_RESOLVED, message="nothing earlier to refer to")
        )
    return res


def _inherit_period(frame: QueryFrame, state: ConversationState, res: Resolution) -> None:
    """A follow-up without a period of its own keeps the conversation's, marked inherited."""
    if frame.time_scope.kind == "explicit" or state.time_scope.kind not in ("explicit", "inherited"):
        return
    res.period = TimeScope(**{**state.time_scope.model_dump(), "kind": "inherited"})
    if state.time_scope.text:
        res.rewritten_question += " " + state.time_scope.text


def _clarified(frame: QueryFrame, open_: OpenAmbiguity, index: int, res: Resolution) -> Resolution:
    """The waiting question asked again with the chosen candidate's identifying values bound."""
    row = dict(zip(open_.columns, open_.candidates[index], strict=True))
    res.rewritten_question = open_.question
    for name in open_.identifying:
        if row.get(name) is not None:
            res.bindings.append(
                EntityBinding(
                    surface=frame.text, input=name, value=row[name], origin="clarification",
                    premise="confirmed", evidence_ids=[open_.evidence_id],
                )
            )  # fmt: skip
    res.notes.append(
        Note(
            reason_code=ReasonCode.OK,
            message=f"the answer chose candidate {index + 1} of {len(open_.candidates)} "
            f"for {open_.surface!r}",
        )
    )
    return res
