"""The dense side on real card vectors: the int8 product, its exact rescoring, and ``bench search``
(``--clone-to``, the float32 baseline in the same run)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from apiatlas.commands.bench_search import run_bench
from apiatlas.search.confidence import SearchView
from apiatlas.search.int8_scores import int8_scores
from apiatlas.search.providers import bundled_provider
from apiatlas.search.vectors import CardVectors
from apiatlas.snapshot.reader import Snapshot

QUERIES = [
    "выписка по счёту клиента за период",
    "данные вклада по ID",
    "найти клиента по ИНН",
    "list the payments of an account",
    "кредитный договор заемщика",
    "закрыть карту",
]


def _view(lexical: list[str]) -> SearchView:
    return SearchView(
        terms=[], rarity={}, max_rarity=0.0, vocabulary=None, corrected=frozenset(),
        lexical={k: (1.0, [], False) for k in lexical}, cosines={}, dense_order=[], dense_mean=None,
        dense_std=None, fused={}, order=[], objects={}, surface={}, asked={}, foreign=[], unread=[],
    )  # fmt: skip


def test_the_int8_product_ranks_and_scores_as_the_float32_matrix(bank_snapshot: Path) -> None:
    vectors = bundled_provider().embed_queries(QUERIES)
    with Snapshot.open(bank_snapshot) as snap:
        rows = snap.api_vectors()
        keys, objects = [k for k, _, _ in rows], sorted({o for _, o, _ in rows})
        int8, float32 = CardVectors(snap), CardVectors(snap, int8=False)
        assert (int8.path, float32.path) == ("int8", "float32")
        for i, vector in enumerate(vectors):
            lexical = keys[i :: max(1, len(keys) // 7)]
            for object_key in (None, objects[i % len(objects)]):
                for candidates in (10, 40):
                    a, b = _view(lexical), _view(lexical)
                    int8.fill(vector, object_key, a, candidates)
                    float32.fill(vector, object_key, b, candidates)
                    assert a.dense_order == b.dense_order and len(a.dense_order) > 0
                    assert a.cosines.keys() == b.cosines.keys()
                    assert all(abs(a.cosines[k] - b.cosines[k]) < 1e-6 for k in a.cosines)
                    assert a.dense_mean is not None and b.dense_mean is not None
                    assert abs(a.dense_mean - b.dense_mean) < 1e-4
                    assert a.dense_std is not None and b.dense_std is not None
                    assert abs(a.dense_std - b.dense_std) < 1e-4


def test_every_approximate_cosine_is_within_the_bound(bank_snapshot: Path) -> None:
    with Snapshot.open(bank_snapshot) as snap:
        blobs = [v for _, _, v in snap.api_vectors()]
    codes = np.frombuffer(b"".join(blobs), dtype=np.int8).reshape(len(blobs), -1)
    norms = np.linalg.norm(codes.astype(np.float32), axis=1)
    product = int8_scores(codes, norms)
    assert product is not None
    exact = (codes.astype(np.float64) / norms[:, None]) @ bundled_provider().embed_queries(QUERIES).T
    for n, vector in enumerate(bundled_provider().embed_queries(QUERIES)):
        approx, bound = product.scores(vector)
        error = np.abs(approx - exact[:, n]).max()
        assert 0 < bound < 1e-3 and error <= bound


def test_bench_search_clones_the_generated_apis_without_parsing_them(tmp_path: Path) -> None:
    figures = run_bench(apis=300, cards=40, queries=12, seed=0, work=tmp_path, clone_to=1500)
    assert figures["apis"] == figures["kept_apis"] == 1500
    assert figures["parsed_apis"] == 300
    assert figures["dense_path"] == "int8"
    assert figures["hybrid_cpu_p50_ms"] > 0 and figures["hybrid_p50_ms"] > 0
    assert figures["float32_dense_p50_ms"] > 0 and figures["float32_hybrid_p50_ms"] > 0
    assert not list(tmp_path.glob("docs-1500"))  # no pages written for the copies
