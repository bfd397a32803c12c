"""LexicalIndex.build (numpy over every card's terms) against the card-by-card loop it replaced."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from apiatlas.search.lexical import FIELD_WEIGHTS, K1, B, LexicalIndex

Card = tuple[str, str, tuple[list[str], list[str], list[str]]]


def loop_postings(cards: list[Card]) -> tuple[dict[str, int], list[int], list[int], list[float]]:
    """vocab, indptr, docs, float32 weights, card by card and term by term (the former build)."""
    n = len(cards)
    columns = [tuple({t: f.count(t) for t in f} for f in fields) for _, _, fields in cards]
    avg = [max(sum(sum(c[f].values()) for c in columns) / n, 1e-9) if n else 1.0 for f in range(3)]
    postings: dict[str, list[tuple[int, float]]] = {}
    for doc, counts in enumerate(columns):
        part: dict[str, float] = {}
        for f, tf in enumerate(counts):
            norm = K1 * (1 - B + B * sum(tf.values()) / avg[f])
            for term, c in tf.items():
                part[term] = part.get(term, 0.0) + FIELD_WEIGHTS[f] * c * (K1 + 1) / (c + norm)
        for term, w in part.items():
            postings.setdefault(term, []).append((doc, w))
    indptr, docs, weights = [0], [], []
    for term in sorted(postings):
        plist = postings[term]
        idf = math.log1p((n - len(plist) + 0.5) / (len(plist) + 0.5))
        docs += [d for d, _ in plist]
        weights += [float(np.float32(w * idf)) for _, w in plist]
        indptr.append(len(docs))
    return {t: i for i, t in enumerate(sorted(postings))}, indptr, docs, weights


def test_build_gives_the_loops_arrays_to_the_bit() -> None:
    rnd = random.Random(11)
    terms = [f"t{i}" for i in range(40)] + ["счет", "", "x"]
    for _ in range(400):
        cards: list[Card] = [
            (
                f"API_{i}",
                f"obj{rnd.randint(0, 3)}",
                ([rnd.choice(terms) for _ in range(rnd.choice([0, 1, 3, 25]))],
                 [rnd.choice(terms) for _ in range(rnd.choice([0, 2]))],
                 [rnd.choice(terms) for _ in range(rnd.choice([0, 5, 60]))]),
            )
            for i in range(rnd.randint(0, 9))
        ]  # fmt: skip
        index = LexicalIndex.build(cards)
        vocab, indptr, docs, weights = loop_postings(cards)
        assert index.keys == [key for key, _, _ in cards]
        assert index.objects.tolist() == [obj for _, obj, _ in cards]
        assert index.vocab == vocab
        assert index.indptr.tolist() == indptr and index.indptr.dtype == np.int32
        assert index.docs.tolist() == docs and index.docs.dtype == np.int32
        assert index.weights.tolist() == weights and index.weights.dtype == np.float32


def test_a_card_set_without_terms_has_empty_postings() -> None:
    index = LexicalIndex.build([("API_A", "a", ([], [], []))])
    assert index.vocab == {} and index.indptr.tolist() == [0] and len(index.docs) == len(index.weights) == 0
    assert index.search(["x"], 5) == []


def test_postings_made_in_chunks_are_the_whole_index(monkeypatch: pytest.MonkeyPatch) -> None:
    """The postings are made a few cards at a time (``_CHUNK_CARDS``): the same arrays, to the bit."""
    from apiatlas.search import lexical

    rng = random.Random(7)
    words = [f"w{i}" for i in range(60)]
    cards = [
        (f"k{n:03}", f"o{n % 4}", ([rng.choice(words) for _ in range(rng.randint(0, 4))],
                                   [rng.choice(words) for _ in range(rng.randint(0, 6))],
                                   [rng.choice(words) for _ in range(rng.randint(0, 30))]))
        for n in range(50)
    ]  # fmt: skip
    whole = lexical.LexicalIndex.build(cards)
    monkeypatch.setattr(lexical, "_CHUNK_CARDS", 3)
    chunked = lexical.LexicalIndex.build(cards)
    assert whole.keys == chunked.keys and whole.vocab == chunked.vocab
    for name in ("indptr", "docs", "weights"):
        assert getattr(whole, name).tobytes() == getattr(chunked, name).tobytes()
