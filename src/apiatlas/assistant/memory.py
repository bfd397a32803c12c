"""What a turn leaves in the conversation: the entity it found (or the candidates it asks about), the
informal terms it asks about or was told the meaning of."""

from __future__ import annotations

from apiatlas.assistant.artifacts import EvidenceRows, Outcome
from apiatlas.assistant.execute import key_column
from apiatlas.assistant.resolve import SUBJECT_KINDS
from apiatlas.assistant.state import ActiveEntity, ConversationState, OpenAmbiguity, OpenTerm, PremiseRecord
from apiatlas.assistant.trace import Turn
from apiatlas.catalog.model import Api
from apiatlas.language.stemming import same_stem, stem
from apiatlas.planning import values as v
from apiatlas.snapshot import CatalogReader

NAME_KINDS = {v.SURNAME, v.ENTITY}  # values that need not be unique: several rows are an ambiguity


def update_terms(turn: Turn, state: ConversationState) -> None:
    """A turn blocked on informal terms leaves them open with its question; any other turn closes them.
    A meaning the user gave is kept (confirmed) for the later turns of the conversation."""
    res = turn.resolution
    state.open_term = None
    if res.terms and turn.answer.outcome is Outcome.BLOCKED_BY_AMBIGUITY:
        state.open_term = OpenTerm(
            question=res.rewritten_question, surfaces=list(res.terms),
            stems=[stem(t.lower().replace("ё", "е")) for t in res.terms], turn_id=turn.turn_id,
            bindings=list(res.bindings), candidates=list(turn.frame.entity_candidates), period=res.period,
            shape=turn.frame.expected_answer_shape, readings=list(res.readings),
        )  # fmt: skip
    for term in res.resolved_terms:
        if term.origin == "user" and term.premise == "confirmed":
            state.resolved_terms = [t for t in state.resolved_terms if not same_stem(t.stem, term.stem)]
            state.resolved_terms.append(term)
        state.premises.append(
            PremiseRecord(
                text=f"«{term.surface}»: {term.meaning}" + (f" ({term.applied})" if term.applied else ""),
                status=term.premise, turn_id=turn.turn_id,
            )
        )  # fmt: skip


def update_entity(turn: Turn, state: ConversationState, snapshot: CatalogReader) -> None:
    """A first step that found exactly one row for a stated subject makes it the active entity; several
    rows for a name leave an open ambiguity; a clarified turn closes it."""
    if turn.answer.outcome is Outcome.BLOCKED_BY_AMBIGUITY and turn.evidence.sources:
        first = turn.evidence.sources[0]
        state.open_ambiguity = OpenAmbiguity(
            question=turn.resolution.rewritten_question, surface=turn.answer.short_answer,
            kind=v.SURNAME, api=first.api, evidence_id=first.evidence_id, columns=first.columns,
            candidates=first.rows[:10], identifying=_identifying(snapshot.get_api(first.api), first),
        )  # fmt: skip
        names = [c.surface for c in turn.frame.entity_candidates if c.type in NAME_KINDS]
        state.open_ambiguity.surface = names[0] if names else first.api
        return
    if not turn.answer.outcome.answered or not turn.evidence.sources:
        return
    clarified = any(b.origin == "clarification" for b in turn.resolution.bindings)
    subjects = [c for c in turn.frame.entity_candidates if c.type in SUBJECT_KINDS]
    first = turn.evidence.sources[0]
    if len(first.rows) != 1 or not (subjects or clarified):
        return
    surface = (
        state.open_ambiguity.surface
        if clarified and state.open_ambiguity
        else subjects[0].surface
        if subjects
        else ""
    )
    row = dict(zip(first.columns, first.rows[0], strict=False))
    key = key_column(first.columns)
    identifying = _identifying(snapshot.get_api(first.api), first)
    state.active_entity = ActiveEntity(
        surface=surface, kind=subjects[0].type if subjects else v.SURNAME, key=f"{key}={row.get(key)}",
        values={n: row[n] for n in identifying if row.get(n) is not None},
        api=first.api, evidence_id=first.evidence_id,
    )  # fmt: skip
    state.open_ambiguity = None


def _identifying(api: Api | None, first: EvidenceRows) -> list[str]:
    """The columns of the first step's rows named like that step's inputs (what found the entity)."""
    if api is None:
        return []
    inputs = {p.name.lower() for p in api.params}
    inputs |= {c.name.lower() for t in api.input_tables for c in t.columns}
    return [c for c in first.columns if c.lower() in inputs]
