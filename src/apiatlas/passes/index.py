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


@dataclass
class IndexPass:
    """Embeds every kept API's card (``vectors``: key -> int8 blob) and records ``stats["search"]``.

    Without a provider only the lexical index exists (written by the snapshot writer) and the
    manifest says ``embedding_model: null``; search then runs lexical-only.
    """

    provider: EmbeddingProvider | None
    settings: FusionSettings = CALIBRATED
    cache: Path | None = None
    on_progress: Callable[[int, int], None] | None = None
    name: str = "index"
    vectors: dict[str, bytes] = field(default_factory=dict)
    blobs: dict[str, bytes] = field(default_factory=dict)

    def run(self, catalog: Catalog, config: BuildConfig, context: PassContext) -> None:
        apis = catalog.kept_apis()
        names = {k: o.name for k, o in catalog.objects.items()}
        lexical = LexicalIndex.build(
            (a.key, a.object_key, card_fields(a, names.get(a.object_key, ""))) for a in apis
        )
        self.blobs = lexical.to_blobs()
        # documented APIs the funnel dropped: a request for one is told why it cannot be called
        dropped = [a for _, a in sorted(catalog.apis.items()) if not a.funnel.kept]
        if dropped:
            unkept = LexicalIndex.build(
                (a.key, a.funnel.dropped_at or "", card_fields(a, names.get(a.object_key, "")))
                for a in dropped
            )
            self.blobs.update({DROPPED_PREFIX + k: v for k, v in unkept.to_blobs().items()})
        self.vectors = {}
        dim = 0
        if self.provider is not None and apis:
            titles = {k: o.title or o.name for k, o in catalog.objects.items()}
            texts = [card_text(a, titles.get(a.object_key, "")) for a in apis]
            context.progress(f"index: embedding {len(texts)} API cards with {self.provider.model_id}")
            blobs = embed_passages(self.provider, texts, cache=self.cache, progress=self.on_progress)
            self.vectors = {a.key: b for a, b in zip(apis, blobs, strict=True)}
            dim = len(blobs[0])
        catalog.stats["search"] = {
            "embedding_model": self.provider.model_id if self.provider is not None else None,
            "dim": dim,
            "vectors": len(self.vectors),
            "lexical_terms": len(lexical.vocab),
            "dropped_indexed": len(dropped),
            "quantization": "int8 (x127, L2-normalised)",
            **self.settings.manifest(),
        }


def run_index_pass(catalog: Catalog, index: IndexPass) -> dict[str, bytes]:
    """Run ``index`` over ``catalog`` outside the pass list and return the vectors for the writer."""
    index.run(catalog, BuildConfig(), PassContext())
    return index.vectors


def index_and_write(catalog: Catalog, path: Path, *, options: dict[str, Any], index: IndexPass) -> Manifest:
    """Run ``index`` over ``catalog`` and write the snapshot with its vectors and search arrays."""
    run_index_pass(catalog, index)
    return write_snapshot(catalog, path, options=options, vectors=index.vectors, search_index=index.blobs)
