"""The planner's side of the one retrieval stack: the snapshot's search (``search.hybrid.HybridSearch``,
the one the ``search`` tool answers with) ranks the APIs for a request, its typo fallback reads misspelt
words, its index says how rare a word is among the cards. The planner keeps no index of its own."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor

from apiatlas.language.catalog import title_stems
from apiatlas.planning.intent import kinds_by_stem
from apiatlas.planning.relevance import RankedApi
from apiatlas.search.hybrid import HybridSearch
from apiatlas.search.outcome import SearchMode
from apiatlas.search.providers import provider_for_snapshot
from apiatlas.snapshot import CatalogReader
from apiatlas.text import distinct_stems, stem, words

_LATIN = re.compile(r"[A-Za-z]+")
SEARCH_LIMIT = 40  # the search hits a plan looks at as targets and as the relevance of every step


class PlanSearch:
    """The search of one snapshot as the planner reads it; the engine is shared with the server's
    ``search`` tool when the server passes its own (one engine, one vector matrix, one typo index)."""

    def __init__(self, snapshot: CatalogReader, engine: HybridSearch | None = None) -> None:
        self.snapshot = snapshot
        self._engine = engine
        self._titles: dict[str, list[str]] | None = None
        self._key_stems: frozenset[str] | None = None
        self._beside: ThreadPoolExecutor | None = None  # works out ``meaning`` beside the plan
        self._rarity: dict[str, float] = {}  # ``rarity`` by stem: the index does not change

    @property
    def engine(self) -> HybridSearch:
        """The snapshot's search; built on first use when none was given (the snapshot's own embedding
        model when it has vectors and the bundled model can embed queries, else words alone)."""
        if self._engine is None:
            self._engine = HybridSearch(self.snapshot, provider_for_snapshot(self.snapshot))
        return self._engine

    def ranked(self, text: str, limit: int = SEARCH_LIMIT) -> list[RankedApi]:
        """The search's ranking of the kept APIs for the request's words (``relevance.search_text``): its
        BM25F scores with the typo fallback and the other forms of its words («сделок» for «сделки»),
        exact names first. Words: fed the fused hybrid scores instead, the planner did worse on
        every development set (bank chains 0.967 -> 0.90, measured); the meaning of the whole request
        is a term of its own (``meaning``). Abstention does not apply: the
        planner ranks the candidates and says itself when no chain reaches them."""
        if not text.strip():
            return []
        outcome = self.engine.search(text, limit=limit, mode=SearchMode.LEXICAL, word_forms=True)
        return [RankedApi(h.api_key, h.score, h.exact, frozenset(h.matched)) for h in outcome.ranked]

    def meaning_soon(self, request: str) -> Callable[[], dict[str, float]]:
        """``meaning`` of ``request`` worked out on a thread of its own while the planner reads the
        request and searches its words (the embedding model leaves the interpreter lock while it
        runs); the returned call waits for it. Nothing to wait for without vectors."""
        if not request.strip() or not self.engine.has_vectors:
            return dict
        if self._beside is None:
            self._beside = ThreadPoolExecutor(2, thread_name_prefix="plan-meaning")
        return self._beside.submit(self.meaning, request).result

    def meaning(self, request: str, limit: int = SEARCH_LIMIT) -> dict[str, float]:
        """How near in meaning each of the ``limit`` nearest kept APIs is to the whole request (the
        snapshot's embedding model, once per plan): its cosine over the spread between the nearest and
        the ``limit``-th, 0..1; empty for a snapshot without vectors."""
        if not request.strip() or not self.engine.has_vectors:
            return {}
        hits = self.engine.search(request, limit=limit, mode=SearchMode.DENSE).ranked
        if not hits:
            return {}
        hi, lo = hits[0].score, hits[-1].score
        span = (hi - lo) or 1.0
        return {h.api_key: max(0.0, (h.score - lo) / span) for h in hits}

    def read_across(self, said: list[str]) -> dict[str, str]:
        """The stems of the request's content words ``said`` in a script the catalog does not write, each
        -> the catalog stem the search reads it as (the search's ``CrossScript``: «логи» -> log, «сервера»
        -> server); empty when every word is in the catalog's scripts or no embedding model reads them.
        The words are the planner's (function words dropped as written: a content word whose stem is a
        function word's, «пода» of «под», is kept)."""
        terms = list(dict.fromkeys(stem(w) for w in said))
        if not terms or not self.engine.across.scripts().foreign(terms):
            return {}
        return dict(self.engine.across.read(said, terms, {}, allowed=True).bridged)

    def kinds_across(self, said: list[str], kinds: Collection[str]) -> dict[str, str]:
        """The stems of the request words ``said`` in a script the catalog does not write, each -> the kind
        of ``kinds`` it translates (``WordBridge.nearest_among``), where one kind alone has that stem;
        empty without an embedding model or such words."""
        foreign = [w for w in said if not w.isascii()]
        bridge = self.engine.across.bridge() if foreign else None
        if bridge is None:
            return {}
        single = kinds_by_stem(kinds)
        return {said: single[near] for said, near in bridge.nearest_among(foreign, single).items()}

    def rarity(self, term: str) -> float:
        """How rare a stem is among the cards (the search index's idf; 1.0 for a snapshot without one),
        kept."""
        if term not in self._rarity:
            index = self.engine.lexical_index()
            if len(self._rarity) >= 100_000:
                self._rarity.clear()
            self._rarity[term] = index.idf(term) if index is not None else 1.0
        return self._rarity[term]

    def uses_term(self, word: str) -> bool:
        """Whether the catalog's cards use ``word`` ("SMS" in "Канал: SMS, EMAIL")."""
        index = self.engine.lexical_index()
        if index is None:
            return bool(self.snapshot.search(word, limit=1))
        return stem(word.lower()) in index.vocab

    def names_apis(self, text: str) -> bool:
        """Whether every word of ``text`` is a word of the kept APIs' keys ("Search Acme" where
        ``Acme_Search_User`` is one): the request names the catalog's operations, not a value."""
        if self._key_stems is None:
            self._key_stems = frozenset(distinct_stems(self.titles()))  # the kept keys, read once with titles
        said = [stem(w) for w in words(text)]
        return bool(said) and all(w in self._key_stems for w in said)

    def titles(self) -> dict[str, list[str]]:
        """Each kept API's title stems (``title_stems``), read once."""
        if self._titles is None:
            self._titles = {key: title_stems(title) for key, title in self.snapshot.kept_api_names()}
        return self._titles

    def corrected(self, text: str, keep: list[str], known: frozenset[str]) -> str:
        """``text`` with misspelt Latin words read as the catalog word one edit away (the search's typo
        fallback, ``TypoFallback.one_edit_fix``); the stated values (``keep``) and the words the planner
        knows (``known``: plain words, the catalog's vocabulary) stay as written."""
        stated = {w.lower() for piece in keep for w in _LATIN.findall(piece)}
        fallback = self.engine.typo_fallback()

        def fix(match: re.Match[str]) -> str:
            word = match.group(0)
            if word.lower() in stated or word.lower() in known:
                return word
            return fallback.one_edit_fix(word) or word

        return _LATIN.sub(fix, text)
