"""The card vectors of a snapshot, loaded on first use, and the dense side of a search's view."""

from __future__ import annotations

import threading

import numpy as np
import numpy.typing as npt

from apiatlas.search.cards import matrix_from_blobs
from apiatlas.search.confidence import SearchView
from apiatlas.snapshot.catalog_reader import CatalogReader


class CardVectors:
    """Every kept API's card vector as one matrix (thread-safe; loaded on first use)."""

    def __init__(self, snapshot: CatalogReader) -> None:
        self.snapshot = snapshot
        self._lock = threading.Lock()
        self._matrix: npt.NDArray[np.float32] | None = None
        self._keys: list[str] = []
        self._objects: npt.NDArray[np.str_] | None = None
        self._row: dict[str, int] = {}

    def _load(self) -> None:
        with self._lock:
            if self._matrix is not None:
                return
            rows = self.snapshot.api_vectors()
            self._keys = [k for k, _, _ in rows]
            self._objects = np.array([o for _, o, _ in rows], dtype=np.str_)
            self._row = {k: i for i, k in enumerate(self._keys)}
            self._matrix = matrix_from_blobs([v for _, _, v in rows], len(rows[0][2]) if rows else 0)

    def fill(
        self,
        vector: npt.NDArray[np.float32] | None,
        object_key: str | None,
        view: SearchView,
        candidates: int,
    ) -> None:
        """Fills ``view``'s cosines (the ``candidates`` best cards and the lexical ones), dense order, mean
        and spread."""
        self._load()
        assert self._matrix is not None and self._objects is not None
        if vector is None or not len(self._keys):
            return
        scores = self._matrix @ vector.astype(np.float32)
        view.dense_mean, view.dense_std = float(scores.mean()), float(scores.std())
        if object_key is not None:
            scores = np.where(self._objects == object_key, scores, -2.0)
        k = min(candidates, len(scores))
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top])]
        view.dense_order = [self._keys[i] for i in top if scores[i] > -2.0]
        cosines = {self._keys[i]: float(scores[i]) for i in top if scores[i] > -2.0}
        for key in view.lexical:
            row = self._row.get(key)
            if row is not None and key not in cosines:
                cosines[key] = float(scores[row])
        view.cosines = cosines
