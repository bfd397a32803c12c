"""Informal business terms: words of a question whose meaning the catalog cannot fix by itself ("крупные
суммы", "recent accounts"), found against the catalog's own words, given a meaning by the catalog's
settings (an assumption said in the answer) or by the user's answer to the question back, and applied to
the answering rows as a bound on one of their columns."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from apiatlas.assistant.artifacts import EvidenceRows, Note, ResolvedTerm, TermFilter
from apiatlas.assistant.execute import key_column
from apiatlas.assistant.words import (
    FINDING,
    LOWER_BOUND,
    MULTIPLIERS,
    PERIOD_UNITS,
    QUALIFIERS,
    REFERENCES,
    UPPER_BOUND,
    words_of,
)
from apiatlas.catalog.model import Api
from apiatlas.errors import ReasonCode
from apiatlas.language.catalog import CatalogVocabulary
from apiatlas.language.stemming import same_stem, stem
from apiatlas.planning import values as v
from apiatlas.snapshot import CatalogReader
from apiatlas.text import split_identifier, stems

_NUMBER = re.compile(r"(?<![\d.,])(\d{1,3}(?:[ \u00a0]\d{3})+|\d+)(?:[.,](\d+))?(?![\d])")
_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}")
_TWO_WORDS = {"не менее": "не_менее", "не более": "не_более", "up to": "up_to"}
_NAMED = {v.SURNAME, v.ENTITY, v.INN, v.ACCOUNT_NUMBER, v.ISIN, v.IDENTIFIER}
QUALIFIER_STEMS = frozenset(stem(w.replace("ё", "е")) for w in QUALIFIERS)


class TermDefinition(BaseModel):
    """One term a catalog's settings define (``terms:`` in the assistant settings file)."""

    model_config = ConfigDict(extra="forbid")

    words: list[str] = Field(min_length=1, description="the forms the term is written with (by stem)")
    means: str = Field(description="the definition, said in the answer")
    means_en: str = ""
    reads_as: str = Field(default="", description="catalog words the question is planned with instead")
    filter: TermFilter | None = None

    def stems(self) -> set[str]:
        return {stem(w.lower().replace("ё", "е")) for w in self.words}

    def meaning(self, language: str) -> str:
        return self.means_en if language == "en" and self.means_en else self.means


def catalog_stems(snapshot: CatalogReader) -> frozenset[str]:
    """The stems a qualitative word can be bound by in this catalog: its prose (titles, descriptions of
    APIs, inputs, columns, errors, business objects), its inputs' and columns' allowed values, and the
    head word of each input's and column's name (``IsActive`` binds "active"; ``NewValue`` does not bind
    "new": it is a value that is new, not a thing)."""
    prose: list[str] = []
    heads: list[str] = []
    for key in snapshot.all_api_keys():
        api = snapshot.get_api(key)
        if api is not None:
            prose += _api_prose(api, heads)
    objects, _ = snapshot.list_objects(0, 10_000)
    prose += [f"{getattr(o, 'title', '')} {getattr(o, 'description', '')}" for o in objects]
    return frozenset({*stems(" ".join(prose)), *(stem(h.lower()) for h in heads)})


def _api_prose(api: Api, heads: list[str]) -> list[str]:
    out = [api.title, api.description]
    fields: list[Any] = [*api.params]
    for table in (*api.input_tables, *api.output_tables):
        out.append(table.description)
        fields += table.columns
    for field in fields:
        out += [field.description, *(str(e) for e in field.json_schema.get("enum", []))]
        heads += split_identifier(field.name.replace("_", " ").split()[-1] if field.name.strip() else "")[-1:]
    out += [e.description for e in api.errors]
    return out


class TermReader:
    """Finds a question's informal terms: a configured term, or a qualitative word the catalog's texts do
    not use (it needs a definition the catalog cannot give)."""

    def __init__(self, known: frozenset[str], definitions: Iterable[TermDefinition]) -> None:
        self.known = known
        self.definitions = [(d, d.stems()) for d in definitions]

    def informal(self, text: str, values: Iterable[str]) -> list[tuple[str, str]]:
        """(surface, stem) of each informal term of ``text``, once per stem, values left out."""
        inside = {w for value in values for w in words_of(value)}
        out: dict[str, str] = {}
        for word in words_of(text):
            term = stem(word.replace("ё", "е"))
            if word in inside or word in LOWER_BOUND or word in UPPER_BOUND or term in out.values():
                continue  # a value's word, or a comparison word ("больше 1 000 000")
            if self.definition(term) is not None or (term in QUALIFIER_STEMS and term not in self.known):
                out[word] = term
        return list(out.items())

    def definition(self, term: str) -> TermDefinition | None:
        return next((d for d, forms in self.definitions if any(same_stem(term, f) for f in forms)), None)


def answers_term(text: str, vocabulary: CatalogVocabulary) -> bool:
    """Whether a turn reads as the answer to "what does X mean?" rather than a new question: it asks for
    nothing (no finding verb, no reference back, no name or number to look up) and states a bound, or is a
    few words only."""
    words = words_of(text)
    if any(w in FINDING or w in REFERENCES for w in words):
        return False
    if any(f.kind in _NAMED for f in v.extract_values(text, vocabulary)):
        return False
    return parse_bound(text, vocabulary) is not None or len(words) <= 5


def parse_bound(text: str, vocabulary: CatalogVocabulary) -> TermFilter | None:
    """The bound an answer states: a date or period ("с 01.01.2025", "last 90 days") or a number with its
    comparison word ("больше 1 000 000", "over 20k", "свыше миллиона"); a bare number only as the whole
    answer ("1000000"); none when it states neither."""
    lowered = text.lower()
    for pair, joined in _TWO_WORDS.items():
        lowered = lowered.replace(pair, joined)
    dated = _date_bound(lowered, vocabulary)
    if dated is not None:
        return dated
    words = words_of(lowered)
    for match in _NUMBER.finditer(lowered):
        value = float(match.group(1).replace(" ", "").replace("\u00a0", "") + "." + (match.group(2) or "0"))
        after = words_of(lowered[match.end() :])[:1]
        if after and after[0] in PERIOD_UNITS:
            return TermFilter(within_days=int(value) * PERIOD_UNITS[after[0]])
        if after and after[0] in MULTIPLIERS:
            value *= MULTIPLIERS[after[0]]
        before = _word_before(lowered, match.start())
        if before in UPPER_BOUND:
            return TermFilter(at_most=value)
        if before in LOWER_BOUND or len(words) <= 3:
            return TermFilter(at_least=value)
    for index, word in enumerate(words[1:], 1):  # "свыше миллиона"
        if word in MULTIPLIERS and words[index - 1] in LOWER_BOUND | UPPER_BOUND:
            upper = words[index - 1] in UPPER_BOUND
            return TermFilter(at_most=MULTIPLIERS[word]) if upper else TermFilter(at_least=MULTIPLIERS[word])
    unit = next((PERIOD_UNITS[w] for w in words if w in PERIOD_UNITS), None)
    if unit is not None and any(w in ("последний", "последние", "last", "past") for w in words):
        return TermFilter(within_days=unit)
    return None


def _date_bound(text: str, vocabulary: CatalogVocabulary) -> TermFilter | None:
    found = [f for f in v.extract_values(text, vocabulary) if f.kind in (v.DATE, v.DATE_FROM, v.DATE_TO)]
    if not found:
        return None
    bound = TermFilter()
    for value in found:
        day = date.fromisoformat(str(value.value)[:10])
        before = _word_before(text, text.find(value.text))
        if value.kind == v.DATE_TO or (value.kind == v.DATE and before in UPPER_BOUND - {"с", "со"}):
            bound.until = day
        else:
            bound.since = day
    return bound


def _word_before(text: str, start: int) -> str:
    """The word before a value, past "than" ("more than 1000000") and a currency sign."""
    before = [w.strip("?,.!:;()«»\"'$€₽") for w in text[:start].split()]
    before = [w for w in before if w and w != "than"]
    return before[-1] if before else ""


def apply_terms(
    sources: list[EvidenceRows], api: str | None, terms: list[ResolvedTerm], snapshot: CatalogReader,
    words: list[str], as_of: date,
) -> list[EvidenceRows]:  # fmt: skip
    """The answering API's rows kept where every resolved term's bound holds; each term says in
    ``applied`` how it was applied (nothing when no column of the rows can carry it)."""
    for term in terms:
        if term.filter is None or api is None:
            continue
        bound = term.filter.dated(as_of)
        hint = [*words, *words_of(term.meaning)]
        for index, source in enumerate(sources):
            if source.api != api:
                continue
            column = choose_column(source, bound, snapshot.get_api(api), hint)
            if column is None:
                continue
            at = source.columns.index(column)
            rows = [row for row in source.rows if _holds(row[at], bound)]
            sources[index] = source.model_copy(update={"rows": rows})
            term.applied = bound.describe(column)
    return sources


def choose_column(source: EvidenceRows, bound: TermFilter, api: Api | None, hint: list[str]) -> str | None:
    """The column a bound is on: the one named, else the one of the bound's kind (a date, a quantity)
    that every row has a value in, narrowed by the words of the question and the definition."""
    if bound.column is not None:
        return bound.column if bound.column in source.columns else None
    described = _column_texts(api, source.table)
    key = key_column(source.columns)
    fits = [
        c for i, c in enumerate(source.columns)
        if c != key and source.rows and all(_of_kind(row[i], bound, described.get(c)) for row in source.rows)
    ]  # fmt: skip
    if len(fits) > 1:
        asked = [stem(w) for w in hint]
        texts = [stems(f"{c} {described.get(c, ('', ''))[0]}") for c in fits]
        scores = [sum(1 for s in text if _said(s, asked)) for text in texts]
        best = max(scores)
        fits = [c for c, score in zip(fits, scores, strict=True) if score == best] if best else fits
    if len(fits) > 1 and not bound.on_dates:
        fractional = [c for c in fits if described.get(c, ("", ""))[1] == "number"]
        fits = fractional or fits
    return fits[0] if len(fits) == 1 else None


def _said(term: str, asked: list[str]) -> bool:
    return any(same_stem(term, a) for a in asked)


def _column_texts(api: Api | None, table: str) -> dict[str, tuple[str, str]]:
    """Each column of the table: its description and its JSON type."""
    if api is None:
        return {}
    for candidate in api.output_tables:
        if candidate.name == table or len(api.output_tables) == 1:
            return {c.name: (c.description, str(c.json_schema.get("type", ""))) for c in candidate.columns}
    return {}


def _of_kind(cell: Any, bound: TermFilter, described: tuple[str, str] | None) -> bool:
    if cell is None or str(cell) == "":
        return False
    if bound.on_dates:
        return bool(_ISO.match(str(cell)))
    if described is not None and described[1] not in ("number", "integer", ""):
        return False  # a code or a number written as text (an account number) is not a quantity
    return _as_number(cell) is not None


def _as_number(cell: Any) -> float | None:
    try:
        return float(str(cell))
    except ValueError:
        return None


def _holds(cell: Any, bound: TermFilter) -> bool:
    if cell is None:
        return False
    if bound.on_dates:
        if not _ISO.match(str(cell)):
            return False
        day = date.fromisoformat(str(cell)[:10])
        return (bound.since is None or day >= bound.since) and (bound.until is None or day <= bound.until)
    number = _as_number(cell)
    if number is None:
        return False
    return (bound.at_least is None or number >= bound.at_least) and (
        bound.at_most is None or number <= bound.at_most
    )


def term_notes(terms: list[ResolvedTerm], sources: list[EvidenceRows], api: str) -> tuple[list[Note], str]:
    """Why the answer is partial because of its terms (a settings' definition is an assumption; a meaning
    no column could carry is not applied), and what a bound left nothing of ("" when rows are left)."""
    notes = []
    for t in terms:
        said = f"«{t.surface}»: {t.meaning}" + (f" ({t.applied})" if t.applied else "")
        if t.filter is not None and not t.applied and not t.reads_as:
            notes.append(
                Note(
                    reason_code=ReasonCode.AMBIGUOUS_BUSINESS_TERM,
                    message=f"{said} — no column of the answer carries it: every row is shown",
                    ru=f"{said} — ни один столбец ответа не позволяет это применить: показаны все строки",
                )
            )
        elif t.filter is None and not t.reads_as:
            notes.append(
                Note(
                    reason_code=ReasonCode.AMBIGUOUS_BUSINESS_TERM,
                    message=f"{said} — not a threshold or a period: not applied, every row is shown",
                    ru=f"{said} — это не порог и не период: не применено, показаны все строки",
                )
            )
        elif t.origin == "settings":
            notes.append(
                Note(
                    reason_code=ReasonCode.ASSUMPTION_APPLIED_EXPLICITLY,
                    message=f"{said} — the catalog's definition, assumed",
                    ru=f"{said} — определение из настроек каталога, принято как допущение",
                )
            )
    applied = [t for t in terms if t.applied]
    answering = [s for s in sources if s.api == api]
    empty = bool(applied) and bool(answering) and not any(s.rows for s in answering)
    return notes, "; ".join(f"«{t.surface}» ({t.applied})" for t in applied) if empty else ""
