"""Index text: split identifiers and prose into words and stem them (``language.stemming``)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from apiatlas.language.stemming import american, stem
from apiatlas.language.words import FUNCTION_WORDS

__all__ = [
    "american", "content_terms", "distinct_stems", "function_stems", "index_text", "pieces", "query_terms",
    "split_identifier", "stem", "stems", "words",
]  # fmt: skip

# A word: a run of letters/digits; '_' is a separator, so API_Prs_FindListByFIO splits on it.
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
# camelCase / PascalCase / acronym boundaries: FindListByFIO -> Find List By FIO; DSec -> D Sec.
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+|[^\W\d_A-Za-z]+", re.UNICODE)


def split_identifier(word: str) -> list[str]:
    """Split one identifier-like word on camelCase, acronym and digit boundaries (no lower-casing)."""
    parts = _CAMEL.findall(word)
    return parts or [word]


def words(text: str) -> list[str]:
    """Lower-cased words of ``text``: identifiers are split on ``_`` and camelCase, ``ё`` becomes ``е``."""
    out: list[str] = []
    for raw in _WORD.findall(text):
        out.extend(_raw_words(raw))
    return out


def _raw_words(raw: str) -> list[str]:
    """``words`` of one run of letters and digits (what ``_WORD`` finds)."""
    pieces = split_identifier(raw)
    if len(pieces) == 1:
        return [_normalise(raw)]
    # the whole identifier too (exact names still match); a lone letter left by the split (the D of DSec)
    # only adds noise to the index
    return [_normalise(raw), *(_normalise(p) for p in pieces if len(p) > 1 or p.isdigit())]


def pieces(text: str) -> list[str]:
    """Lower-cased words of ``text`` with identifiers as their parts only (``SetDefaultSize``: set, default,
    size; ``words`` keeps the whole identifier too)."""
    return [_normalise(p) for raw in _WORD.findall(text) for p in split_identifier(raw)]


def stems(text: str) -> list[str]:
    """The stemmed words of ``text`` in order (duplicates kept; bm25 uses the frequencies)."""
    return list(_text_stems(text))


@lru_cache(maxsize=1 << 18)
def _text_stems(text: str) -> tuple[str, ...]:
    """``stems`` of one text, remembered: a catalog repeats its field names and descriptions across APIs,
    and a compile stems every card text twice (the lexical arrays and the snapshot's FTS rows). A text
    not seen yet is stemmed word by word from ``_word_stems`` (texts differ, their words repeat)."""
    out: list[str] = []
    for raw in _WORD.findall(text):
        out.extend(_word_stems(raw))
    return tuple(out)


@lru_cache(maxsize=1 << 16)  # the 31,580-API gen-docs cards have ~10,000 distinct words
def _word_stems(raw: str) -> tuple[str, ...]:
    """The stems of one run of letters and digits (its ``words``), remembered."""
    return tuple(stem(w) for w in _raw_words(raw))


def distinct_stems(texts: Iterable[str]) -> set[str]:
    """Every stem of ``texts`` (``stems`` of each), each run of letters and digits stemmed once: the texts
    of a catalog (its API keys) share most of their runs."""
    runs = {raw for text in texts for raw in _WORD.findall(text)}
    return {s for raw in runs for s in _word_stems(raw)}


def index_text(parts: Iterable[str]) -> str:
    """One space-joined string of stems, the form stored in the FTS5 index."""
    return " ".join(s for part in parts for s in stems(part))


@lru_cache(maxsize=1)
def function_stems() -> frozenset[str]:
    """The stems of the function words (``content_terms`` leaves them out)."""
    return frozenset(stem(_normalise(w)) for w in FUNCTION_WORDS)


def content_terms(terms: list[str]) -> list[str]:
    """``terms`` without function-word stems ("в", "the"); all of them when nothing else is left."""
    stop = function_stems()
    return [t for t in terms if t not in stop] or terms


def query_terms(query: str) -> list[str]:
    """Distinct stems of a search query, in first-seen order."""
    seen: dict[str, None] = {}
    for s in stems(query):
        seen.setdefault(s, None)
    return list(seen)


def _normalise(word: str) -> str:
    return word.lower().replace("ё", "е")
