"""Words across scripts: a request word in a script the catalog does not write, read as the catalog's word
of the same meaning (Russian «канал» as "channel"), by the multilingual embedding model, or as the
catalog word it is borrowed from when the model reads it as none («логов» as "log",
``language.transliteration``).

The catalog side is the stems of its API names and titles (the words that name what an API does),
embedded once as passages, on first use, through the vector cache (a recompile or another process
finds them there). A request word is embedded as a query and read as its nearest catalog stem when
that stem is close (cosine >= ``BRIDGE_COSINE``) and stands out from the others (``BRIDGE_Z``
standard deviations above the word's mean cosine to the catalog's stems; e5 cosines are compressed
in 0.8-0.95, so neither alone separates a translation from the nearest of unrelated words). Words
without such a counterpart stay foreign.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from apiatlas.language.transliteration import borrowed_stem
from apiatlas.search.cards import matrix_from_blobs
from apiatlas.search.embedding import EmbeddingProvider
from apiatlas.search.lexical import LexicalIndex
from apiatlas.search.scripts import CatalogScripts
from apiatlas.search.vector_cache import default_cache_path, embed_passages
from apiatlas.snapshot.catalog_reader import CatalogReader
from apiatlas.text import function_stems, pieces, stem

BRIDGE_COSINE = 0.88  # the least cosine of a word to its counterpart (multilingual-e5: 0.88-0.92 for a
# translation, 0.81-0.875 for the nearest stem of a word the catalog has no counterpart of)
BRIDGE_Z = 3.0  # ... which must also stand this many standard deviations above the word's mean cosine
MIN_LENGTH = 3  # shorter stems ("id", "to") are not words to translate into


class WordBridge:
    """The catalog stems a provider reads foreign request words as (thread-safe; embedded on first use)."""

    def __init__(
        self,
        provider: EmbeddingProvider,
        names: Iterable[str],
        known: Mapping[str, int],
        cache: Path | None = None,
    ) -> None:
        stop = function_stems()
        spelt = _spellings(names)
        self.stems = sorted(
            s for s in spelt if s in known and s.isalpha() and len(s) >= MIN_LENGTH and s not in stop
        )
        self.words = [spelt[s] for s in self.stems]  # what is embedded: a word as the catalog writes it
        self._frequency = {s: known[s] for s in self.stems}  # documents per stem (``borrowed_stem``)
        self.provider = provider
        self.cache = cache
        self._lock = threading.Lock()
        self._matrix: npt.NDArray[np.float32] | None = None

    def _catalog(self) -> npt.NDArray[np.float32]:
        with self._lock:
            if self._matrix is None:
                blobs = embed_passages(self.provider, self.words, cache=self.cache)
                self._matrix = matrix_from_blobs(blobs, len(blobs[0]) if blobs else 0)
        return self._matrix

    def translate(self, words: Iterable[str]) -> dict[str, str]:
        """``stem of a request word -> the catalog stem it reads as``, for the words that have one: by the
        embedding model, else as the catalog word it is borrowed from («логов»: log, ``borrowed_stem``;
        the model's reading first: «сети» is a network, not "set")."""
        unique = list(dict.fromkeys(w for w in words if len(w) >= MIN_LENGTH))
        if not unique or not self.stems:
            return {}
        matrix = self._catalog()
        vectors = self.provider.embed_queries(unique)
        out: dict[str, str] = {}
        scores = vectors.astype(np.float32) @ matrix.T
        for word, row in zip(unique, scores, strict=True):
            best = int(np.argmax(row))
            top, spread = float(row[best]), float(row.std())
            if top >= BRIDGE_COSINE and spread > 0 and (top - float(row.mean())) / spread >= BRIDGE_Z:
                out[stem(word)] = self.stems[best]
            elif (borrowed := borrowed_stem(word, self._frequency)) is not None:
                out[stem(word)] = borrowed
        return out


def _spellings(names: Iterable[str]) -> dict[str, str]:
    """Each stem of the words of ``names`` -> its most frequent spelling (lower-cased). An identifier
    counts as its words (``SetDefaultSize``: set, default, size): the whole of one is no word of any
    language, and a model reads "rectangle" better than its stem "rectangl"."""
    counts: dict[str, dict[str, int]] = {}
    for text in names:
        for word in pieces(text):
            forms = counts.setdefault(stem(word), {})
            forms[word] = forms.get(word, 0) + 1
    return {s: min(forms, key=lambda w: (-forms[w], len(w), w)) for s, forms in counts.items()}


@dataclass(frozen=True)
class Across:
    """A request's words in a script the catalog does not write, as the search reads them."""

    bridged: dict[str, str]  # such a stem -> the catalog stem it reads as («канал» -> "channel")
    unread: frozenset[str]  # the ones read as no catalog word
    neutral: frozenset[str]  # the ones the word signals leave out (neither known nor unknown)
    surface: dict[str, str]  # catalog stem -> the request word read as it (what `why` says)


class CrossScript:
    """How one snapshot's search reads request words in scripts its catalog does not write: the
    catalog's scripts (``CatalogScripts``) and the bridge to its words (``WordBridge``), built on first
    use."""

    def __init__(
        self,
        snapshot: CatalogReader,
        lexical: Callable[[], LexicalIndex | None],
        provider: EmbeddingProvider | None,
    ) -> None:
        self.snapshot = snapshot
        self._lexical = lexical
        self.provider = provider
        self._scripts: CatalogScripts | None = None
        self._bridge: WordBridge | None = None

    def scripts(self) -> CatalogScripts:
        """The scripts the catalog's words are written in (from the lexical index)."""
        if self._scripts is None:
            index = self._lexical()
            self._scripts = CatalogScripts(index.document_frequencies() if index is not None else {})
        return self._scripts

    def bridge(self) -> WordBridge | None:
        """The catalog's words for request words in another script (None without an embedding model)."""
        index = self._lexical()
        if self.provider is None or index is None:
            return None
        if self._bridge is None:
            names = [f"{k} {t}" for k, t in self.snapshot.kept_api_names()]
            self._bridge = WordBridge(self.provider, names, index.vocab, cache=default_cache_path())
        return self._bridge

    def read(self, said: list[str], terms: list[str], asked: Mapping[str, str], allowed: bool) -> Across:
        """How the request's content stems ``terms`` in a foreign script are read: each one the bridge
        reads as a catalog stem, an ordered action's verb as that action («создай»: create); the rest
        are left out of the word signals when some were read, and count as unknown when none was (the
        catalog has no word of the request in any script). ``allowed``: the mode reads words at all."""
        foreign = self.scripts().foreign(terms)
        bridge = self.bridge() if foreign and allowed else None
        if bridge is None:  # no model to read them with: they say nothing either way
            return Across({}, frozenset(foreign), frozenset(foreign), {})
        alien = set(foreign)
        bridged = {stem(w): stem(action) for action, w in asked.items() if stem(w) in alien}
        unknown = [w for w in said if stem(w) in alien and stem(w) not in bridged]
        bridged.update(bridge.translate(unknown))
        unread = frozenset(t for t in foreign if t not in bridged)
        surface = {bridged[stem(w)]: w for w in reversed(said) if stem(w) in bridged}
        return Across(bridged, unread, unread if bridged else frozenset(), surface)
