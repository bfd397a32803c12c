"""A local cache of card vectors keyed by model and text hash, so rebuilds embed only changed cards."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

from apiatlas.local_cache import cache_root
from apiatlas.search.cards import to_blob
from apiatlas.search.embedding import EmbeddingProvider


def default_cache_path() -> Path:
    """``$APIATLAS_CACHE`` or ``~/.cache/apiatlas``, file ``vectors.sqlite``."""
    return cache_root() / "vectors.sqlite"


# Bumped when a provider's vectors of the same text change, so older cached ones are not read back.
# 2: the int8 card path's products are exact on x86 CPUs without VNNI (they saturated there before).
VECTORS_VERSION = 2


def _cached_model(provider: EmbeddingProvider) -> str:
    """The cache's model column: the provider's model and ``VECTORS_VERSION``."""
    return f"{provider.model_id}#{VECTORS_VERSION}"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def embed_passages(
    provider: EmbeddingProvider,
    texts: Sequence[str],
    *,
    cache: Path | None,
    progress: Callable[[int, int], None] | None = None,
    chunk: int = 256,
) -> list[bytes]:
    """int8 blobs of every text, taken from ``cache`` when present there (``None``: no cache)."""
    found: dict[str, bytes] = {}
    conn: sqlite3.Connection | None = None
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(cache, timeout=30)
        conn.execute(
            "CREATE TABLE IF NOT EXISTS vectors(model TEXT, digest TEXT, blob BLOB,"
            " PRIMARY KEY(model, digest))"
        )
        digests = sorted({_digest(t) for t in texts})
        for start in range(0, len(digests), 500):
            part = digests[start : start + 500]
            marks = ",".join("?" * len(part))
            found.update(
                conn.execute(
                    f"SELECT digest, blob FROM vectors WHERE model = ? AND digest IN ({marks})",
                    (_cached_model(provider), *part),
                ).fetchall()
            )
    # by length: a chunk's texts are embedded as batches of similar length (little padding)
    todo = sorted({t for t in texts if _digest(t) not in found}, key=lambda t: (len(t), t))
    try:
        for start in range(0, len(todo), chunk):
            part = todo[start : start + chunk]
            blobs = [to_blob(v) for v in provider.embed_passages(part)]
            fresh = {_digest(t): b for t, b in zip(part, blobs, strict=True)}
            found.update(fresh)
            if conn is not None:
                conn.executemany(
                    "INSERT OR REPLACE INTO vectors(model, digest, blob) VALUES (?, ?, ?)",
                    [(_cached_model(provider), d, b) for d, b in fresh.items()],
                )
                conn.commit()
            if progress is not None:
                progress(min(start + chunk, len(todo)), len(todo))
    finally:
        if conn is not None:
            conn.close()
    return [found[_digest(t)] for t in texts]
