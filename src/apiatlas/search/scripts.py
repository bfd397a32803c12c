"""Writing systems: which scripts a catalog's words are written in, and which request words are in another.

A Russian request over an English catalog shares no word with it: every Russian word is "unknown" to
the lexical index, so the signals built on words (coverage, unknown words, bm25) read the request as
one the catalog does not serve, although its meaning may fit an API exactly. Words in a script the
catalog does not write are neither known nor unknown to it: the search judges them by meaning (the
multilingual dense side) and the word signals by the request's other words only.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from functools import lru_cache

MIN_SHARE = 0.01  # a script the catalog writes holds at least this share of its word occurrences


@lru_cache(maxsize=65536)
def script_of(term: str) -> str:
    """The script of a word's first letter ("LATIN", "CYRILLIC", "GREEK", "CJK", ...; "" without a
    letter, as for numbers)."""
    for ch in term:
        if ch.isalpha():
            name = unicodedata.name(ch, "")
            return name.split(" ", 1)[0] if name else ""
    return ""


class CatalogScripts:
    """The scripts a catalog's words are written in, each with its share of the word occurrences."""

    def __init__(self, document_frequency: Mapping[str, int] | Iterable[tuple[str, int]]) -> None:
        pairs = document_frequency.items() if isinstance(document_frequency, Mapping) else document_frequency
        counts: dict[str, int] = {}
        for term, df in pairs:
            script = script_of(term)
            if script:
                counts[script] = counts.get(script, 0) + df
        total = sum(counts.values())
        self.shares = {s: c / total for s, c in sorted(counts.items())} if total else {}

    def writes(self, script: str) -> bool:
        """Whether the catalog writes words in ``script`` (a word without letters is in every one)."""
        return not script or not self.shares or self.shares.get(script, 0.0) >= MIN_SHARE

    def main(self) -> str:
        """The script most of the catalog's words are written in ("" for a catalog without words)."""
        return max(self.shares, key=lambda s: (self.shares[s], s)) if self.shares else ""

    def beside_main(self, terms: Iterable[str]) -> frozenset[str]:
        """The terms written in another script than the catalog's main one (numbers aside): a Russian
        word over an English spec, an English word over a Russian catalog that also writes Latin names."""
        main = self.main()
        return frozenset(t for t in terms if main and script_of(t) not in ("", main))

    def foreign(self, terms: Iterable[str]) -> list[str]:
        """The terms in a script the catalog does not write (in order, once each)."""
        return [t for t in dict.fromkeys(terms) if not self.writes(script_of(t))]
