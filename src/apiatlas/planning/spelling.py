"""Misspelt request words ("bitrhday") read as the catalog or planner word one edit away."""

from __future__ import annotations

import re
from collections import defaultdict

from apiatlas.snapshot import CatalogReader
from apiatlas.text import words

MIN_LENGTH = 5  # shorter words are too ambiguous to correct
_LATIN = re.compile(r"[A-Za-z]+")


def one_edit(a: str, b: str) -> bool:
    """Whether ``b`` is ``a`` with one letter changed, added, dropped, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


class Spelling:
    """The words of the snapshot's API names and titles plus ``known``, by first letter and length."""

    def __init__(self, snapshot: CatalogReader, known: list[str]) -> None:
        vocabulary: set[str] = set(known)
        for key, title in snapshot.kept_api_names():
            vocabulary.update(words(f"{key} {title}"))
        self.vocabulary = vocabulary
        self._by_start: dict[tuple[str, int], list[str]] = defaultdict(list)
        for word in sorted(vocabulary):
            if len(word) >= MIN_LENGTH - 1 and word.isascii():
                self._by_start[word[0], len(word)].append(word)

    def fix(self, word: str) -> str:
        """The one known word one edit from an unknown Latin ``word``; else ``word`` itself."""
        low = word.lower()
        if len(low) < MIN_LENGTH or low in self.vocabulary or not low.isascii():
            return word
        close = [
            c for n in (len(low) - 1, len(low), len(low) + 1) for c in self._by_start.get((low[0], n), ())
            if one_edit(low, c) and not low.startswith(c)  # "start" is not a misspelt "star"
        ]  # fmt: skip
        return close[0] if len(close) == 1 else word

    def corrected(self, text: str, keep: list[str]) -> str:
        """``text`` with misspelt Latin words outside ``keep`` (the stated values) corrected."""
        protected = {w.lower() for piece in keep for w in _LATIN.findall(piece)}
        return _LATIN.sub(
            lambda m: m.group(0) if m.group(0).lower() in protected else self.fix(m.group(0)), text
        )
