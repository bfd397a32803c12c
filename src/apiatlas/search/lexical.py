"""In-memory bm25 over entity-card stems: built at compile time, stored as arrays, loaded in milliseconds."""

from __future__ import annotations

import json
import math
from array import array
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from apiatlas.catalog.model import Api
from apiatlas.snapshot.writer import api_body_parts, api_name_parts
from apiatlas.text import stems

FIELD_WEIGHTS = (4.0, 2.0, 1.0)  # name, title, body -- the same weights as the snapshot's FTS5 bm25
K1, B = 1.2, 0.75


def card_fields(api: Api, object_name: str) -> tuple[list[str], list[str], list[str]]:
    """The stems of an API's name (its name parts, as the writer's), title and body (as the FTS5 index)."""
    name = [s for part in api_name_parts(api, object_name) for s in stems(part)]
    body = [s for part in api_body_parts(api) for s in stems(part)]
    return name, stems(api.title), body


# search_index blobs of the index over APIs the funnel dropped (its ``objects`` hold the funnel stage)
DROPPED_PREFIX = "dropped."


@dataclass
class LexicalIndex:
    """Postings per stem (doc ids, precomputed BM25F weights), one row per kept API in key order."""

    keys: list[str]
    objects: npt.NDArray[np.str_]
    vocab: dict[str, int]
    indptr: npt.NDArray[np.int32]
    docs: npt.NDArray[np.int32]
    weights: npt.NDArray[np.float32]

    @classmethod
    def build(cls, cards: Iterable[tuple[str, str, tuple[list[str], list[str], list[str]]]]) -> LexicalIndex:
        """Per-column bm25 summed with the column weights, as SQLite FTS5 ``bm25()`` computes it, but for
        the idf: Lucene's ``ln(1 + (N - df + 0.5) / (df + 0.5))``, where FTS5's is 0 (1e-6) for a word
        in more than half the cards. Stripe's cards nearly all mention "customer" in their parameters, so
        "list all my customers" found every card but ``GET /v1/customers`` by that word."""
        keys: list[str] = []
        objects: list[str] = []
        columns: list[tuple[dict[str, int], ...]] = []
        for key, obj, fields in cards:
            keys.append(key)
            objects.append(obj)
            per_field: list[dict[str, int]] = []
            for field in fields:
                tf: dict[str, int] = {}
                for s in field:
                    tf[s] = tf.get(s, 0) + 1
                per_field.append(tf)
            columns.append(tuple(per_field))
        n = len(keys)
        avg = [max(sum(sum(c[f].values()) for c in columns) / n, 1e-9) if n else 1.0 for f in range(3)]
        # per term: its cards and their weights, as packed arrays (a tuple per posting held every one of
        # them as three Python objects)
        postings: dict[str, tuple[array[int], array[float]]] = {}
        for doc, counts in enumerate(columns):
            part: dict[str, float] = {}
            for f, tf in enumerate(counts):
                norm = K1 * (1 - B + B * sum(tf.values()) / avg[f])
                for term, c in tf.items():
                    part[term] = part.get(term, 0.0) + FIELD_WEIGHTS[f] * c * (K1 + 1) / (c + norm)
            for term, w in part.items():
                plist = postings.get(term)
                if plist is None:
                    plist = postings[term] = (array("i"), array("d"))
                plist[0].append(doc)
                plist[1].append(w)
        columns.clear()
        vocab = {t: i for i, t in enumerate(sorted(postings))}
        indptr = [0]
        docs = array("i")
        weights: list[npt.NDArray[np.float32]] = []
        for term in sorted(postings):
            term_docs, term_weights = postings.pop(term)
            idf = math.log1p((n - len(term_docs) + 0.5) / (len(term_docs) + 0.5))
            docs.extend(term_docs)
            weights.append((np.frombuffer(term_weights, dtype=np.float64) * idf).astype(np.float32))
            indptr.append(len(docs))
        return cls(
            keys,
            np.array(objects, dtype=np.str_),
            vocab,
            np.array(indptr, dtype=np.int32),
            np.array(docs, dtype=np.int32),
            np.concatenate(weights) if weights else np.array([], dtype=np.float32),
        )

    def to_blobs(self) -> dict[str, bytes]:
        """The arrays as named blobs for the snapshot's ``search_index`` table."""
        return {
            "lexical.keys": json.dumps(self.keys, ensure_ascii=False).encode(),
            "lexical.objects": json.dumps(self.objects.tolist(), ensure_ascii=False).encode(),
            "lexical.vocab": json.dumps(
                sorted(self.vocab, key=self.vocab.__getitem__), ensure_ascii=False
            ).encode(),
            "lexical.indptr": self.indptr.tobytes(),
            "lexical.docs": self.docs.tobytes(),
            "lexical.weights": self.weights.tobytes(),
        }

    @classmethod
    def from_blobs(cls, blobs: dict[str, bytes], prefix: str = "") -> LexicalIndex | None:
        blobs = {k.removeprefix(prefix): v for k, v in blobs.items() if k.startswith(prefix)}
        if "lexical.keys" not in blobs:
            return None
        vocab_list: list[str] = json.loads(blobs["lexical.vocab"])
        return cls(
            json.loads(blobs["lexical.keys"]),
            np.array(json.loads(blobs["lexical.objects"]), dtype=np.str_),
            {t: i for i, t in enumerate(vocab_list)},
            np.frombuffer(blobs["lexical.indptr"], dtype=np.int32),
            np.frombuffer(blobs["lexical.docs"], dtype=np.int32),
            np.frombuffer(blobs["lexical.weights"], dtype=np.float32),
        )

    def document_frequencies(self) -> dict[str, int]:
        """How many cards hold each term."""
        counts = np.diff(self.indptr)
        return {t: int(counts[i]) for t, i in self.vocab.items()}

    def idf(self, term: str) -> float:
        """How rare ``term`` is among the cards; a term no card has weighs most (log of 2(N+1))."""
        i = self.vocab.get(term)
        df = 0 if i is None else int(self.indptr[i + 1] - self.indptr[i])
        return math.log((len(self.keys) + 1) / (df + 0.5))

    def search(
        self, terms: list[str], limit: int, object_key: str | None = None
    ) -> list[tuple[str, float, list[str]]]:
        """``(key, bm25f score, matched terms)`` of the best ``limit`` APIs containing any of ``terms``."""
        known = [(t, self.vocab[t]) for t in dict.fromkeys(terms) if t in self.vocab]
        if not known:
            return []
        scores = np.zeros(len(self.keys), dtype=np.float32)
        for _, i in known:
            lo, hi = self.indptr[i], self.indptr[i + 1]
            scores[self.docs[lo:hi]] += self.weights[lo:hi]
        if object_key is not None:
            scores[self.objects != object_key] = 0.0
        hit = np.flatnonzero(scores)
        if not len(hit):
            return []
        if len(hit) > limit:
            hit = hit[np.argpartition(-scores[hit], limit - 1)[:limit]]
        hit = hit[np.lexsort((hit, -scores[hit]))]
        present = []
        for _, i in known:
            plist = self.docs[self.indptr[i] : self.indptr[i + 1]]
            pos = np.minimum(np.searchsorted(plist, hit), len(plist) - 1)
            present.append(plist[pos] == hit)
        return [
            (
                self.keys[doc],
                float(scores[doc]),
                [t for (t, _), p in zip(known, present, strict=True) if p[n]],
            )
            for n, doc in enumerate(hit)
        ]
