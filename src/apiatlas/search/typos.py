"""Typo and partial-name fallback: query words unknown to the catalog mapped to close catalog words."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from apiatlas.text import words

MIN_WORD = 4  # shorter words are too ambiguous to correct
MIN_SIMILARITY = 0.45  # trigram Jaccard


def _trigrams(word: str) -> set[str]:
    padded = f"  {word} "
    return {padded[i : i + 3] for i in range(len(padded) - 2)}


class TypoFallback:
    """A trigram index over the words of API names and titles. ``lexicon`` (called at the first word to
    correct) gives words of the language that are no typos, however close to a catalog word: "taxi" is
    not "tax"."""

    def __init__(self, texts: list[str], lexicon: Callable[[], frozenset[str]] | None = None) -> None:
        self._lexicon = lexicon
        vocabulary: set[str] = set()
        for text in texts:
            vocabulary.update(w for w in words(text) if len(w) >= 2)
        self.vocabulary = vocabulary
        self._postings: dict[str, list[str]] = defaultdict(list)
        for word in sorted(vocabulary):
            if len(word) >= MIN_WORD - 1:
                for gram in _trigrams(word):
                    self._postings[gram].append(word)

    def corrections(self, query: str, per_word: int = 2) -> dict[str, list[str]]:
        """Query word -> the closest catalog words, for query words the catalog does not contain."""
        out: dict[str, list[str]] = {}
        for word in dict.fromkeys(words(query)):
            if len(word) < MIN_WORD or word in self.vocabulary or word.isdigit():
                continue
            if self._lexicon is not None and word in self._lexicon():
                continue
            grams = _trigrams(word)
            shared: dict[str, int] = defaultdict(int)
            for gram in grams:
                postings = self._postings.get(gram, ())
                if len(postings) > 2000:  # a gram in everything says nothing
                    continue
                for candidate in postings:
                    shared[candidate] += 1
            scored = sorted(
                ((n / (len(grams) + len(_trigrams(c)) - n), c) for c, n in shared.items() if n >= 2),
                reverse=True,
            )
            close = [c for s, c in scored[:per_word] if s >= MIN_SIMILARITY]
            if close:
                out[word] = close
        return out
