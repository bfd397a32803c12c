"""Kinds of things named in another script than the catalog's (issue 18, chains): «удали покупателя X» names a
buyer where the search's bridge reads «покупателя» as a nearer word of the catalog that names no kind
("client"; ``PlanSearch.kinds_across`` reads it among the kinds). An id said right after such a word is one
of that kind, as "buyer b_1" is (``values._id_noun`` reads Latin words only)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from apiatlas.language.catalog import CatalogVocabulary
from apiatlas.planning import values as v
from apiatlas.planning.retrieval import PlanSearch
from apiatlas.text import stem

_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def hinted_across(
    request: str, found: list[v.ExtractedValue], kinds: Mapping[str, str]
) -> list[v.ExtractedValue]:
    """``found`` with the kind of the word right before each id stated without one (``kinds``: the stems
    of the request's foreign words -> the kind each names) as that id's hint."""
    if not kinds:
        return found
    out = []
    for value in found:
        at = request.find(value.text) if value.kind == v.IDENTIFIER and not value.hint else -1
        before = _WORD.findall(request[:at]) if at > 0 else []
        kind = kinds.get(stem(before[-1].lower()), "") if before else ""
        out.append(replace(value, hint=kind) if kind else value)
    return out


def as_catalog_stems(bridged: Mapping[str, str], kinds: Mapping[str, str]) -> dict[str, str]:
    """The search's reading of foreign words (stem -> catalog stem) with the kind each one names in
    place of a reading that is no kind («покупателя»: buyer, not "client")."""
    return {**bridged, **{said: stem(kind) for said, kind in kinds.items()}}


def named_across(
    search: PlanSearch, vocabulary: CatalogVocabulary, said: list[str], kinds: Mapping[str, str]
) -> dict[str, str]:
    """The request's words ``said`` in a script the catalog does not write, read as catalog stems, a kind
    (``kinds``) first (only when the catalog names inputs for kinds: a name may follow such a word,
    «канала general»)."""
    if not vocabulary.named_inputs:
        return {}
    foreign = [w for w in said if not w.isascii()]
    return as_catalog_stems(search.read_across(foreign), kinds) if foreign else {}


def foreign_kinds(
    search: PlanSearch, vocabulary: CatalogVocabulary, request: str, found: list[v.ExtractedValue]
) -> dict[str, str]:
    """The request's foreign words read as the kinds they name (``PlanSearch.kinds_across``), when a name may
    follow such a word (the catalog names inputs for kinds) or an id without a kind is stated: an embedding
    per foreign word, not spent on every request."""
    if vocabulary.named_inputs or any(f.kind == v.IDENTIFIER and not f.hint for f in found):
        return search.kinds_across(_WORD.findall(request), vocabulary.kind_set)
    return {}
