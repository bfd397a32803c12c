"""Words a catalog writes with a hyphen after a reversing prefix ("Un-stars an item", "De-lists a
product") that a request writes as one word ("Unstar the message …"): the request's word read as the
prefix and the word after it, and a write's title opening with such a word says a verb of the catalog."""

from __future__ import annotations

import re
from collections.abc import Iterable

from apiatlas.language.actions import REVERSING_PREFIXES
from apiatlas.language.catalog import CatalogVocabulary, singular

_PREFIXED = re.compile(rf"\b({'|'.join(REVERSING_PREFIXES)})-([a-z]{{3,}})\b", re.IGNORECASE)
_READS = ("GET ", "HEAD ", "OPTIONS ")


def prefixed_words(titles: Iterable[str]) -> dict[str, str]:
    """Each hyphenated prefixed word of the ``titles`` run together, singular and as written ("unstars",
    "unstar"), -> its two parts ("un stars")."""
    out: dict[str, str] = {}
    for title in titles:
        for prefix, rest in _PREFIXED.findall(title):
            parts = f"{prefix.lower()} {rest.lower()}"
            joined = prefix.lower() + rest.lower()
            out.setdefault(joined, parts)
            out.setdefault(singular(joined), parts)
    return out


def with_prefixed(vocabulary: CatalogVocabulary, titles: Iterable[str]) -> CatalogVocabulary:
    """``vocabulary`` whose expansions read each prefixed word as its parts (``prefixed_words``): the
    request's "unstar" finds the title's "Un-stars"."""
    return vocabulary.with_expansions(prefixed_words(titles))


def prefixed_verbs(names: Iterable[tuple[str, str]]) -> frozenset[str]:
    """The verbs (lower case, base form) that writes' titles open with as a prefixed word ("Un-stars an
    item": unstar), of (key, title) pairs; a read's title says no write verb."""
    out = set()
    for key, title in names:
        opening = _PREFIXED.match(title.lstrip())
        if opening and not key.startswith(_READS):
            out.add(singular(opening.group(1).lower() + opening.group(2).lower()))
    return frozenset(out)
