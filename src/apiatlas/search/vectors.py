"""The card vectors of a snapshot, loaded on first use, and the dense side of a search's view."""

from __future__ import annotations

import threading

import numpy as np
import numpy.typing as npt

from apiatlas.search.confidence import SearchView
from apiatlas.search.int8_scores import Int8Scores, int8_scores
from apiatlas.snapshot.catalog_reader import CatalogReader

Floats = npt.NDArray[np.float32]
FILTERED = -2.0  # the score of a card of another object than the one asked for


class CardVectors:
    """Every kept API's card vector (thread-safe; loaded on first use).

    The int8 codes stay as stored; every card is scored by the 8-bit product (``int8_scores``), and
    the cards whose cosine could be among the best ``candidates`` (within twice the product's bound of
    the ``candidates``-th) and the lexical candidates are scored again exactly, as the float32 matrix
    of the re-normalised codes would: the dense order and the cosines are the float32 product's.
    Without onnxruntime that matrix is built and multiplied whole (4x the bytes read per query)."""

    def __init__(self, snapshot: CatalogReader, *, int8: bool = True) -> None:
        self.snapshot = snapshot
        self._int8 = int8
        self._lock = threading.Lock()
        self._codes: npt.NDArray[np.int8] | None = None
        self._norms: Floats | None = None
        self._product: Int8Scores | None = None
        self._matrix: Floats | None = None  # the float32 matrix, only when there is no 8-bit product
        self._keys: list[str] = []
        self._objects: npt.NDArray[np.str_] | None = None
        self._row: dict[str, int] = {}

    def _load(self) -> None:
        with self._lock:
            if self._codes is not None:
                return
            rows = self.snapshot.api_vectors()
            dim = len(rows[0][2]) if rows else 0
            codes = np.frombuffer(b"".join(v for _, _, v in rows), dtype=np.int8).reshape(len(rows), dim)
            norms = np.linalg.norm(codes.astype(np.float32), axis=1)
            norms[norms == 0] = 1.0
            self._keys = [k for k, _, _ in rows]
            self._objects = np.array([o for _, o, _ in rows], dtype=np.str_)
            self._row = {k: i for i, k in enumerate(self._keys)}
            self._norms = norms.astype(np.float32)
            self._product = int8_scores(codes, self._norms) if self._int8 and rows else None
            if self._product is None:
                self._matrix = self._exact_rows(codes)
            self._codes = codes

    @property
    def path(self) -> str:
        """How every card is scored: ``int8`` (onnxruntime's product) or ``float32`` (NumPy's)."""
        self._load()
        return "int8" if self._product is not None else "float32"

    def _exact_rows(self, codes: npt.NDArray[np.int8], rows: npt.NDArray[np.intp] | None = None) -> Floats:
        """The float32 rows (re-normalised codes) of ``rows`` (all when None)."""
        assert self._norms is not None
        norms = self._norms if rows is None else self._norms[rows]
        out: Floats = (codes.astype(np.float32) / norms[:, None]).astype(np.float32)
        return out

    def _exact(self, rows: npt.NDArray[np.intp], vector: Floats) -> Floats:
        """The float32 cosines of ``rows`` to ``vector``, on the calling thread: NumPy's own loop, not
        BLAS, whose idle threads spin ~0.1 s of CPU after each product (for a few hundred rows that
        spin cost the next query embedding the other core)."""
        assert self._codes is not None
        matrix = self._matrix[rows] if self._matrix is not None else self._exact_rows(self._codes[rows], rows)
        scores: Floats = np.einsum("ij,j->i", matrix, vector)
        return scores

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
        assert self._objects is not None
        if vector is None or not len(self._keys):
            return
        vector = vector.astype(np.float32)
        if self._product is not None:
            scores, bound = self._product.scores(vector)
        else:
            assert self._matrix is not None
            scores, bound = self._matrix @ vector, 0.0
        view.dense_mean, view.dense_std = float(scores.mean()), float(scores.std())
        if object_key is not None:
            scores = np.where(self._objects == object_key, scores, np.float32(FILTERED))
        k = min(candidates, len(scores))
        kth = float(np.partition(scores, len(scores) - k)[len(scores) - k])
        # every card that could be among the k best (none of another object)
        near = np.flatnonzero((scores >= kth - 2 * bound) & (scores > FILTERED))
        if bound:
            scores = scores.copy()
            scores[near] = self._exact(near, vector)
        top = near[np.argsort(-scores[near], kind="stable")][:k]
        view.dense_order = [self._keys[i] for i in top]
        cosines = {self._keys[i]: float(scores[i]) for i in top}
        lexical = [r for key in view.lexical if (r := self._row.get(key)) is not None and key not in cosines]
        if lexical:
            rows = np.array(lexical, dtype=np.intp)
            exact = self._exact(rows, vector) if bound else scores[rows]
            if object_key is not None:  # a card of another object scores as in the ranking
                exact = np.where(self._objects[rows] == object_key, exact, np.float32(FILTERED))
            cosines.update({self._keys[r]: float(s) for r, s in zip(lexical, exact, strict=True)})
        view.cosines = cosines
