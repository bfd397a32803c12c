"""Typo and partial-name fallback: query words unknown to the catalog mapped to close catalog words.

One fallback for the whole product: the ``search`` tool adds a query word's close catalog words to the
query (``corrections``), the planner reads a misspelt request word as the one catalog word one edit
away (``one_edit_fix``); both take their candidates from the same trigram index."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Container, Iterable

from apiatlas.language.stemming import same_stem
from apiatlas.text import split_identifier, stem, words

MIN_WORD = 4  # shorter words are too ambiguous to correct
MIN_SIMILARITY = 0.45  # trigram Jaccard
UNDOING = "un"  # "unstar", "unfollow": the prefix that undoes a verb (or negates a word: "unpaid")
ENDING = 3  # "-s", "-ed", "-ing": a word of the language with an ending added is no undoing ("units")
FORM_ENDING = 2  # a catalog word's form differs from a query word's stem by at most this many end letters
MIN_INITIALS = 3  # an abbreviation by initials is read for names of this many words or more ("pv" is not)
_CAMEL_NAME = re.compile(r"\b[A-Za-z][a-z0-9]*(?:[A-Z][a-z0-9]+){2,}\b")  # ScheduledReportRunner


_RAW_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def initials_of(texts: Iterable[str]) -> dict[str, list[str]]:
    """The camelCase names of ``texts`` of ``MIN_INITIALS`` words or more by their initials, lower-case:
    ``ScheduledReportRunner`` "srr" -> ["scheduled report runner"]."""
    found: dict[str, set[str]] = defaultdict(set)
    for text in texts:
        for name in _CAMEL_NAME.findall(text):
            parts = [p.lower() for p in split_identifier(name)]
            if len(parts) >= MIN_INITIALS and all(p.isalpha() for p in parts):
                found["".join(p[0] for p in parts)].add(" ".join(parts))
    return {k: sorted(v) for k, v in found.items()}


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
        self.initials = initials_of(texts)
        self._postings: dict[str, list[str]] = defaultdict(list)
        for word in sorted(vocabulary):
            if len(word) >= MIN_WORD - 1:
                for gram in _trigrams(word):
                    self._postings[gram].append(word)

    def corrections(self, query: str, per_word: int = 2) -> dict[str, list[str]]:
        """Query word -> the closest catalog words, for query words the catalog does not contain."""
        out: dict[str, list[str]] = {}
        for word in dict.fromkeys(words(query)):
            if not self._correctable(word):
                continue
            if (undone := self.undone(word)) is not None:
                out[word] = [undone]
                continue
            close = [c for s, c in self._candidates(word)[:per_word] if s >= MIN_SIMILARITY]
            if close:
                out[word] = close
        return out

    def undone(self, word: str) -> str | None:
        """The catalog word an unknown ``word`` undoes or negates by its English prefix ("unstar": star, as
        the catalog writes it, "star" or "stars"), None when the rest is no catalog word of three letters
        or more, or when ``word`` is a word of the language with an ending ("units": unit, not "its";
        "unions"). The API that does the undoing is among those of that word ("stars.remove")."""
        if not word.startswith(UNDOING) or self._inflects_a_known_word(word):
            return None
        rest = word[len(UNDOING) :]
        found = [w for w in (rest, rest + "s") if w in self.vocabulary]
        return found[0] if len(rest) >= MIN_WORD - 1 and found else None

    def _inflects_a_known_word(self, word: str) -> bool:
        """Whether ``word`` less one to ``ENDING`` end letters is a word of the language ("units": unit)."""
        known = self._lexicon() if self._lexicon is not None else frozenset[str]()
        return any(word[:-n] in known for n in range(1, ENDING + 1) if len(word) - n >= MIN_WORD)

    def spelled_out(self, query: str) -> dict[str, list[str]]:
        """Query word -> the words of the one catalog name it abbreviates by initials ("srr": scheduled,
        report, runner; "srrs": scheduled, report, runners), for query words the catalog does not contain."""
        out: dict[str, list[str]] = {}
        for word in dict.fromkeys(words(query)):
            if word in self.vocabulary:
                continue
            names = self.initials.get(word, [])
            if len(names) == 1:
                out[word] = names[0].split()
            elif (
                word.endswith("s")
                and word[:-1] not in self.vocabulary
                and len(self.initials.get(word[:-1], [])) == 1
            ):
                # "crds": the initials in the plural, the name's last word too
                *head, last = self.initials[word[:-1]][0].split()
                out[word] = [*head, last if last.endswith("s") else last + "s"]
        return out

    def spelled_pieces(self, query: str) -> set[str]:
        """The pieces a camelCase split cuts a written word into ("CRDs": cr, ds) when the word is spelled
        out whole (``spelled_out``): they are that word, not words of their own — unless another word of the
        request says one ("CRDs named CR 1": cr is said)."""
        spelled = self.spelled_out(query)
        raws = _RAW_WORD.findall(query)
        said = {w for raw in raws if raw.lower() not in spelled for w in words(raw)}
        return {p for raw in raws if raw.lower() in spelled for p in words(raw)[1:]} - said

    def one_edit_fix(self, word: str, min_length: int = 5) -> str | None:
        """The one catalog word one edit away from an unknown ``word`` ("bitrhday": birthday), if there is
        exactly one and ``word`` is not that word made longer ("start" is no misspelt "star")."""
        low = word.lower()
        if len(low) < min_length or not self._correctable(low):
            return None
        close = [c for _, c in self._candidates(low) if one_edit(low, c) and not low.startswith(c)]
        return close[0] if len(close) == 1 else None

    def _correctable(self, word: str) -> bool:
        """A query word the catalog lacks and the language does not know as a word of its own."""
        if len(word) < MIN_WORD or word in self.vocabulary or word.isdigit():
            return False
        return self._lexicon is None or word not in self._lexicon()

    def _candidates(self, word: str) -> list[tuple[float, str]]:
        """Catalog words sharing two trigrams or more with ``word``, by trigram Jaccard, best first."""
        grams = _trigrams(word)
        shared: dict[str, int] = defaultdict(int)
        for gram in grams:
            postings = self._postings.get(gram, ())
            if len(postings) > 2000:  # a gram in everything says nothing
                continue
            for candidate in postings:
                shared[candidate] += 1
        return sorted(
            ((n / (len(grams) + len(_trigrams(c)) - n), c) for c, n in shared.items() if n >= 2),
            reverse=True,
        )


def known_forms(corrections: dict[str, list[str]], indexed: Container[str]) -> dict[str, list[str]]:
    """``corrections`` without the other words offered for a query word the catalog writes (its stem is
    ``indexed``, in a description or a field if not in a name): such a word is no typo, and only other
    forms of it are read («сделок» for «сделки», stems a letter apart), not longer words that hold it
    ("items": not ``itemset``) nor words that merely look alike ("supports": not "sports")."""
    out: dict[str, list[str]] = {}
    for word, close in corrections.items():
        own = stem(word)
        if own in indexed:
            close = [c for c in close if _a_form_of(own, stem(c))]
        if close:
            out[word] = close
    return out


def _a_form_of(own: str, other: str) -> bool:
    return same_stem(own, other) and abs(len(own) - len(other)) <= FORM_ENDING
