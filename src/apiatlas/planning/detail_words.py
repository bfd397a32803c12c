"""Words asking for everything about one thing ("details about the channel X", "information on …"):
a catalog says one or some of them (``language.words.DETAIL_WORDS``); a request's word the catalog's
keys and titles never say is read as those they do ("details" where the reads are ``….info``)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from apiatlas.language.catalog import CatalogVocabulary
from apiatlas.language.words import DETAIL_WORDS
from apiatlas.text import stem

_WORD = re.compile(r"[^\W\d_]+")


def detail_expansions(names: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Each detail word no key or title of ``names`` (key, title) says, nor a word of its stem, -> those
    they say (space-separated); none when they say none of them."""
    said = {w.lower() for key, title in names for w in _WORD.findall(f"{key} {title}")} & DETAIL_WORDS
    if not said:
        return {}
    used, stems = " ".join(sorted(said)), {stem(w) for w in said}  # "details" says "detail" too
    return {w: used for w in sorted(DETAIL_WORDS) if stem(w) not in stems}


def with_detail_words(vocabulary: CatalogVocabulary, names: Iterable[tuple[str, str]]) -> CatalogVocabulary:
    """``vocabulary`` whose expansions read a detail word the catalog never says as those it does."""
    return vocabulary.with_expansions(detail_expansions(names))
