"""Stage 2, the resolver: the question's references bound to the conversation's active entity, an answer
to a clarifying question bound to the candidate it names, the period stated or inherited."""

from __future__ import annotations

from typing import Any

from apiatlas.assistant.artifacts import EntityBinding, Note, QueryFrame, Resolution, ResolvedTerm, TimeScope
from apiatlas.assistant.readings import chosen_reading
from apiatlas.assistant.state import ConversationState, OpenAmbiguity, OpenTerm
from apiatlas.assistant.terms import TermReader, answers_term, parse_bound
from apiatlas.assistant.words import CHOICE_ORDINALS, FILLERS, REFERENCES, words_of
from apiatlas.errors import ReasonCode
from apiatlas.language.catalog import CatalogVocabulary
from apiatlas.language.stemming import same_stem, stem
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


def resolve(
    frame: QueryFrame,
    state: ConversationState,
    vocabulary: CatalogVocabulary,
    terms: TermReader | None = None,
) -> Resolution:
    """Bindings from the conversation, the clarified question, the period, the informal terms' meanings;
    notes say what was inherited."""
    res = Resolution(rewritten_question=frame.text, period=frame.time_scope)
    open_term = state.open_term
    if open_term is not None and answers_term(frame.text, vocabulary):
        if not open_term.readings:
            return _term_answered(frame, open_term, res, vocabulary)
        index = chosen_reading(frame.text, open_term.readings)
        if index is not None:
            return _reading_chosen(frame, open_term, index, res)
    res = _bound(frame, state, vocabulary, res)
    if terms is not None:
        read_terms(frame, state, terms, res)
    return res


def read_terms(frame: QueryFrame, state: ConversationState, terms: TermReader, res: Resolution) -> None:
    """Each informal term given the meaning the user gave it earlier (inherited), else the one the
    catalog's settings give (assumed), else left for the user (``res.terms``)."""
    own = [w for w in own_words(frame) if w not in frame.informal_terms]
    for told in state.resolved_terms:  # a word the user chose the catalog's reading of, said again
        surface = next(
            (w for w in own if told.reads_as and same_stem(stem(w.replace("ё", "е")), told.stem)), ""
        )
        if surface:
            res.resolved_terms.append(told.model_copy(update={"surface": surface, "premise": "inherited"}))
            res.rewritten_question += " " + told.reads_as
    for surface in frame.informal_terms:
        term = stem(surface.lower().replace("ё", "е"))
        given = next((t for t in reversed(state.resolved_terms) if same_stem(t.stem, term)), None)
        definition = terms.definition(term)
        if given is not None:
            res.resolved_terms.append(given.model_copy(update={"surface": surface, "premise": "inherited"}))
            res.rewritten_question = without_words(res.rewritten_question, [surface])
        elif definition is not None:
            res.resolved_terms.append(
                ResolvedTerm(
                    surface=surface, stem=term, meaning=definition.meaning(frame.language),
                    origin="settings", premise="assumed", turn_id=frame.turn_id,
                    reads_as=definition.reads_as, filter=definition.filter,
                )
            )  # fmt: skip
            if definition.reads_as:
                res.rewritten_question = res.rewritten_question.replace(surface, definition.reads_as)
            else:
                res.rewritten_question = without_words(res.rewritten_question, [surface])
        else:
            res.terms.append(surface)


def without_words(text: str, surfaces: list[str]) -> str:
    """The question planned without its informal terms: the rows' bound carries what they mean, and a word
    the catalog does not bind only misleads the search ("new" towards a column named NewValue)."""
    drop = {s.lower() for s in surfaces}
    return " ".join(w for w in text.split() if w.lower().strip('?,.!«»"') not in drop)


def _term_answered(
    frame: QueryFrame, open_: OpenTerm, res: Resolution, vocabulary: CatalogVocabulary
) -> Resolution:
    """The waiting question asked again, its terms meaning what the user just said (confirmed)."""
    bound = parse_bound(frame.text, vocabulary)
    res.rewritten_question = without_words(open_.question, open_.surfaces)
    res.bindings = list(open_.bindings)
    res.period = open_.period
    res.term_answer = True
    for surface, term in zip(open_.surfaces, open_.stems, strict=True):
        res.resolved_terms.append(
            ResolvedTerm(
                surface=surface, stem=term, meaning=frame.text, origin="user", premise="confirmed",
                turn_id=frame.turn_id, filter=bound,
            )
        )  # fmt: skip
    names = ", ".join(f"«{s}»" for s in open_.surfaces)
    res.notes.append(Note(reason_code=ReasonCode.OK, message=f"the answer says what {names} means"))
    return res


def _reading_chosen(frame: QueryFrame, open_: OpenTerm, index: int, res: Resolution) -> Resolution:
    """The waiting question asked again with the chosen reading's title (the planner's words for it)."""
    reading = open_.readings[index]
    res.rewritten_question = f"{open_.question} {reading.title.lower()}"  # lower case: no name to extract
    res.bindings, res.period, res.term_answer = list(open_.bindings), open_.period, True
    for surface, term in zip(open_.surfaces, open_.stems, strict=True):
        res.resolved_terms.append(
            ResolvedTerm(
                surface=surface, stem=term, meaning=reading.title, origin="user", premise="confirmed",
                turn_id=frame.turn_id, reads_as=reading.title.lower(),
            )
        )  # fmt: skip
    res.notes.append(Note(reason_code=ReasonCode.OK, message=f"the answer chose {reading.api}"))
    return res


def _bound(
    frame: QueryFrame, state: ConversationState, vocabulary: CatalogVocabulary, res: Resolution
) -> Resolution:
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
