"""Search reads of a snapshot: its full-text index (FTS5 bm25), an API named exactly, vectors, the
precomputed search arrays and the titles a search shows."""

from __future__ import annotations

import sqlite3
import zlib
from typing import Any

from apiatlas.snapshot.hits import SearchHit
from apiatlas.snapshot.schema import FTS_WEIGHTS
from apiatlas.text import query_terms


class SearchReads:
    """Mixed into ``Snapshot``: search queries through its ``_rows``."""

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        raise NotImplementedError

    def search(self, query: str, limit: int = 10, object_key: str | None = None) -> list[SearchHit]:
        """Kept APIs matching ``query``: an API named exactly by the query first, then FTS5 bm25 order."""
        exact = self._exact_hits(query, object_key)
        terms = query_terms(query)
        hits: list[SearchHit] = []
        if terms:
            weights = ", ".join(str(w) for w in FTS_WEIGHTS)
            sql = (
                f"SELECT a.id, a.key, a.object_key, a.title, bm25(api_fts, {weights}) AS score"
                " FROM api_fts JOIN apis a ON a.id = api_fts.rowid WHERE api_fts MATCH ?"
                + (" AND a.object_key = ?" if object_key is not None else "")
                + " ORDER BY score LIMIT ?"
            )
            match = " OR ".join(_fts_term(t) for t in terms)
            params: tuple[Any, ...] = (match, object_key, limit) if object_key is not None else (match, limit)
            rows = self._rows(sql, params)
            holding = self._terms_held(terms, [r[0] for r in rows])
            hits = [
                SearchHit(
                    api_key=key,
                    object_key=obj,
                    title=title or "",
                    score=round(-score, 6),
                    matched=[t for t in terms if n in holding[t]],
                )
                for n, key, obj, title, score in rows
            ]
        top = max((h.score for h in hits), default=0.0)
        seen = {h.api_key for h in exact}
        front = [h.model_copy(update={"score": round(top + 1.0, 6)}) for h in exact]
        return (front + [h for h in hits if h.api_key not in seen])[:limit]

    def api_vectors(self) -> list[tuple[str, str, bytes]]:
        """``(key, object_key, int8 vector)`` of every embedded kept API by key ([] without vectors)."""
        try:
            return [
                (k, o or "", bytes(v))
                for k, o, v in self._rows("SELECT key, object_key, vector FROM api_vectors ORDER BY key")
            ]
        except sqlite3.OperationalError:  # a snapshot written before api_vectors existed
            return []

    def search_index(self) -> dict[str, bytes]:
        """The precomputed search arrays by name ({} for a snapshot written without them), inflated."""
        try:
            rows = self._rows("SELECT name, data FROM search_index ORDER BY name")
            return {n: zlib.decompress(d) for n, d in rows}
        except sqlite3.OperationalError:  # a snapshot written before search_index existed
            return {}

    def api_titles(self, keys: list[str]) -> dict[str, tuple[str, str]]:
        """``key -> (object_key, title)`` of the given APIs (unknown keys left out)."""
        out: dict[str, tuple[str, str]] = {}
        for start in range(0, len(keys), 500):
            part = keys[start : start + 500]
            marks = ",".join("?" * len(part))
            for k, o, t in self._rows(
                f"SELECT key, object_key, title FROM apis WHERE key IN ({marks})", tuple(part)
            ):
                out[k] = (o or "", t or "")
        return out

    def kept_api_names(self) -> list[tuple[str, str]]:
        """``(key, title)`` of every kept API by key: the vocabulary of the typo fallback."""
        return [
            (k, t or "") for k, t in self._rows("SELECT key, title FROM apis WHERE kept = 1 ORDER BY key")
        ]

    def _exact_hits(self, query: str, object_key: str | None) -> list[SearchHit]:
        hits: list[SearchHit] = []
        for token in dict.fromkeys(query.replace(",", " ").split()):
            rows = self._rows(
                "SELECT key, object_key, title FROM apis"
                " WHERE kept = 1 AND key = ? COLLATE NOCASE ORDER BY key",
                (token,),
            )
            for key, obj, title in rows:
                if object_key is None or obj == object_key:
                    hits.append(
                        SearchHit(api_key=key, object_key=obj, title=title or "", score=0.0, exact=True)
                    )
        return hits

    def _terms_held(self, terms: list[str], ids: list[int]) -> dict[str, set[int]]:
        """Which of the APIs ``ids`` hold each term (the index keeps no texts: one match per term)."""
        marks = ",".join("?" * len(ids))
        return {
            t: {
                r[0]
                for r in self._rows(
                    f"SELECT rowid FROM api_fts WHERE api_fts MATCH ? AND rowid IN ({marks})",
                    (_fts_term(t), *ids),
                )
            }
            if ids
            else set()
            for t in dict.fromkeys(terms)
        }


def _fts_term(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'
