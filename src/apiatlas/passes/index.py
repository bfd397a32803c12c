"""Index pass: card texts of kept APIs embedded into compact vectors, and the search settings recorded."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from apiatlas.catalog.model import Catalog
from apiatlas.passes.config import BuildConfig
from apiatlas.passes.context import PassContext
from apiatlas.search.cards import card_text
from apiatlas.search.embedding import EmbeddingProvider
from apiatlas.search.lexical import DROPPED_PREFIX, LexicalIndex, card_fields
from apiatlas.search.tuning import CALIBRATED, FusionSettings
from apiatlas.search.vector_cache import embed_passages
from apiatlas.snapshot.manifest import Manifest
from apiatlas.snapshot.writer import write_snapshot
from apiatlas.sources import source_format


@dataclass
class SearchIndexing:
    """What the index pass embeds with (``provider``, ``settings``, vector ``cache``, ``on_progress``) and
    what it leaves for the snapshot writer: ``vectors`` (key -> int8 blob) and ``blobs`` (search arrays).

    Without a provider only the lexical index exists and the manifest says ``embedding_model: null``;
    search then runs lexical-only.
    """

    provider: EmbeddingProvider | None = None
    settings: FusionSettings = CALIBRATED
    cache: Path | None = None
    on_progress: Callable[[int, int], None] | None = None
    vectors: dict[str, bytes] = field(default_factory=dict)
    blobs: dict[str, bytes] = field(default_factory=dict)


def index(catalog: Catalog, config: BuildConfig, context: PassContext) -> None:
    """The last pass: embeds every kept API's card and builds the lexical arrays (``context.indexing``),
    and records ``stats["search"]``."""
    if context.indexing is None:
        context.indexing = SearchIndexing()
    indexing = context.indexing
    apis = catalog.kept_apis()
    names = {k: o.name for k, o in catalog.objects.items()}
    lexical = LexicalIndex.build(
        (a.key, a.object_key, card_fields(a, names.get(a.object_key, ""))) for a in apis
    )
    indexing.blobs = lexical.to_blobs()
    # documented APIs the funnel dropped: a request for one is told why it cannot be called
    dropped = [a for _, a in sorted(catalog.apis.items()) if not a.funnel.kept]
    if dropped:
        unkept = LexicalIndex.build(
            (a.key, a.funnel.dropped_at or "", card_fields(a, names.get(a.object_key, ""))) for a in dropped
        )
        indexing.blobs.update({DROPPED_PREFIX + k: v for k, v in unkept.to_blobs().items()})
    indexing.vectors = {}
    dim = 0
    provider = indexing.provider
    if provider is not None and apis:
        titles = {k: o.title or o.name for k, o in catalog.objects.items()}
        texts = [card_text(a, titles.get(a.object_key, "")) for a in apis]
        context.progress(f"index: embedding {len(texts)} API cards with {provider.model_id}")
        blobs = embed_passages(provider, texts, cache=indexing.cache, progress=indexing.on_progress)
        indexing.vectors = {a.key: b for a, b in zip(apis, blobs, strict=True)}
        dim = len(blobs[0])
    settings = indexing.settings
    if source_format(catalog.source_kind).surface == "code":  # an SDK's names: fused by what they cover
        settings = settings.model_copy(update={"lexical_by_cover": True})
    catalog.stats["search"] = {
        "embedding_model": provider.model_id if provider is not None else None,
        "dim": dim,
        "vectors": len(indexing.vectors),
        "lexical_terms": len(lexical.vocab),
        "dropped_indexed": len(dropped),
        "quantization": "int8 (x127, L2-normalised)",
        **settings.manifest(),
    }


def run_index_pass(catalog: Catalog, indexing: SearchIndexing) -> dict[str, bytes]:
    """Run the index pass alone over an already refined ``catalog``; returns the vectors for the writer."""
    index(catalog, BuildConfig(), PassContext(indexing=indexing))
    return indexing.vectors


def index_and_write(
    catalog: Catalog, path: Path, *, options: dict[str, Any], index: SearchIndexing
) -> Manifest:
    """Run the index pass alone over ``catalog`` and write the snapshot with its vectors and search arrays."""
    run_index_pass(catalog, index)
    return write_snapshot(catalog, path, options=options, vectors=index.vectors, search_index=index.blobs)
