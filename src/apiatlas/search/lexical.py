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
        first_seen = _Numbering()  # term -> its number in order of first use
        number = first_seen.__getitem__
        tokens = array("i")  # every card's terms by number: card 0's name, title, body, card 1's ...
        lengths = array("i")  # the length of each (card, column), in that order
        for key, obj, fields in cards:
            keys.append(key)
            objects.append(obj)
            for field in fields:
                tokens.extend(map(number, field))
                lengths.append(len(field))
        n, terms = len(keys), sorted(first_seen)
        postings = _postings(n, len(first_seen), np.frombuffer(tokens, dtype=np.int32), lengths)
        term_of, doc, weight = postings
        rank = np.empty(len(first_seen), dtype=np.int64)  # a term's place in sorted order
        rank[[first_seen[t] for t in terms]] = np.arange(len(terms))
        order = np.lexsort((doc, rank[term_of]))  # by term (sorted), then card
        sorted_terms = rank[term_of][order]
        df = np.bincount(sorted_terms, minlength=len(terms))
        idf = np.array([math.log1p((n - d + 0.5) / (d + 0.5)) for d in df.tolist()], dtype=np.float64)
        indptr = np.zeros(len(terms) + 1, dtype=np.int32)
        np.cumsum(df, out=indptr[1:])
        return cls(
            keys,
            np.array(objects, dtype=np.str_),
            {t: i for i, t in enumerate(terms)},
            indptr,
            doc[order].astype(np.int32),
            (weight[order] * idf[sorted_terms]).astype(np.float32),
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
        present: list[list[bool]] = []  # per term, whether each hit holds it (Python lists: read per hit)
        for _, i in known:
            plist = self.docs[self.indptr[i] : self.indptr[i + 1]]
            pos = np.minimum(np.searchsorted(plist, hit), len(plist) - 1)
            present.append((plist[pos] == hit).tolist())
        terms_known = [t for t, _ in known]
        return [
            (self.keys[doc], score, [t for t, p in zip(terms_known, present, strict=True) if p[n]])
            for n, (doc, score) in enumerate(zip(hit.tolist(), scores[hit].tolist(), strict=True))
        ]


class _Numbering(dict[str, int]):
    """Numbers for keys in the order they are first looked up."""

    def __missing__(self, key: str) -> int:
        number = self[key] = len(self)
        return number


_CHUNK_CARDS = 2048  # cards whose postings are made at once: the temporaries grow with a chunk, not the index


def _postings(
    n: int, vocab: int, tokens: npt.NDArray[np.int32], lengths: array[int]
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.float64]]:
    """(term, card, bm25f weight without the idf) of every term of every card, ``tokens`` being the cards'
    terms column after column (``lengths`` long each), card after card. The float operations are the ones a
    loop over the cards would do, in its order (a column's weight, then the columns summed name, title,
    body), so the weights are the same to the bit; made ``_CHUNK_CARDS`` cards at a time (a chunk's
    postings are all its own, in card order: the chunks' results joined are the whole's)."""
    if not len(tokens):
        return np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.float64)
    size = np.frombuffer(lengths, dtype=np.int32).reshape(n, 3).astype(np.int64)
    avg = [max(int(size[:, f].sum()) / n, 1e-9) for f in range(3)]
    norms = [K1 * (1 - B + B * size[:, f].astype(np.float64) / avg[f]) for f in range(3)]
    ends = np.cumsum(size.sum(axis=1))  # where each card's tokens end
    parts = []
    for first in range(0, n, _CHUNK_CARDS):
        last = min(first + _CHUNK_CARDS, n)
        begin = int(ends[first - 1]) if first else 0
        chunk = tokens[begin : int(ends[last - 1])]
        parts.append(_chunk_postings(first, size[first:last], vocab, chunk, norms))
    term_of, card_of, total = (np.concatenate(column) for column in zip(*parts, strict=True))
    return term_of, card_of, total


def _chunk_postings(
    first: int,
    size: npt.NDArray[np.int64],
    vocab: int,
    tokens: npt.NDArray[np.int32],
    norms: list[npt.NDArray[np.float64]],
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.float64]]:
    """``_postings`` of the cards ``first`` … ``first + len(size) - 1`` (their token counts per column)."""
    cells = np.arange(3 * first, 3 * (first + len(size)), dtype=np.int64)
    cell = np.repeat(cells, size.ravel())  # (card, column) of each token
    pairs, counts = np.unique(cell * vocab + tokens, return_counts=True)  # sorted: card, column, term
    cell, term = np.divmod(pairs, vocab)
    card, field = np.divmod(cell, 3)
    k1_1 = K1 + 1
    weight = np.zeros((len(pairs),), dtype=np.float64)
    for f in range(3):
        at = field == f
        c = counts[at].astype(np.float64)
        weight[at] = FIELD_WEIGHTS[f] * c * k1_1 / (c + norms[f][card[at]])
    # one posting per (card, term): its columns' weights added in column order, from 0.0
    key = card * vocab + term
    order = np.lexsort((field, key))
    key, weight, field = key[order], weight[order], field[order]
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    total = np.zeros(len(starts), dtype=np.float64)
    group = np.cumsum(np.r_[False, key[1:] != key[:-1]])
    for f in range(3):
        part = np.zeros(len(starts), dtype=np.float64)
        at = field == f
        part[group[at]] = weight[at]
        total = total + part
    card_of, term_of = np.divmod(key[starts], vocab)
    return term_of.astype(np.int32), card_of.astype(np.int32), total
