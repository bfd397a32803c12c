"""Index pass: card texts of kept APIs embedded into compact vectors, and the search settings recorded."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from apiatlas.catalog.model import Catalog
from apiatlas.forked import Forked, can_fork
from apiatlas.passes.config import BuildConfig
from apiatlas.passes.context import PassContext
from apiatlas.search.cards import card_text
from apiatlas.search.embedding import EmbeddingProvider
from apiatlas.search.lexical import DROPPED_PREFIX, LexicalIndex, card_fields
from apiatlas.search.reach import measure_reach
from apiatlas.search.tuning import CALIBRATED, FusionSettings
from apiatlas.search.vector_cache import embed_passages
from apiatlas.snapshot.manifest import Manifest
from apiatlas.snapshot.writer import SearchTables, write_snapshot
from apiatlas.sources import source_format

# from this many APIs (kept and dropped) the lexical arrays are built in a forked child while the compiler
# writes the snapshot (``SearchIndexing.background``); below it, forking costs more than it saves
BACKGROUND_FROM = 2000


@dataclass
class LexicalArrays:
    """The index pass's lexical part, from one stemming of every card: the search arrays of the kept and
    the dropped APIs (``search_index`` blobs), the kept APIs' full-text rows as the snapshot writer would
    build them (``(apis.id, name, title, body)`` stems), and the kept index's vocabulary size."""

    blobs: dict[str, bytes]
    fts_rows: list[tuple[int, str, str, str]]
    terms: int


def lexical_arrays(catalog: Catalog) -> LexicalArrays:
    """``LexicalArrays`` of a refined ``catalog`` (reads it, changes nothing)."""
    names = {k: o.name for k, o in catalog.objects.items()}
    fts_rows: list[tuple[int, str, str, str]] = []

    def kept_cards() -> Iterator[tuple[str, str, tuple[list[str], list[str], list[str]]]]:
        """Each kept API's stems, one card at a time (the index reads each once: none held beside it)."""
        for n, (_, api) in enumerate(sorted(catalog.apis.items()), start=1):  # n: the API's apis.id
            if api.funnel.kept:
                fields = card_fields(api, names.get(api.object_key, ""))
                fts_rows.append((n, " ".join(fields[0]), " ".join(fields[1]), " ".join(fields[2])))
                yield api.key, api.object_key, fields

    lexical = LexicalIndex.build(kept_cards())
    blobs = lexical.to_blobs()
    # documented APIs the funnel dropped: a request for one is told why it cannot be called
    dropped = [a for _, a in sorted(catalog.apis.items()) if not a.funnel.kept]
    if dropped:
        unkept = LexicalIndex.build(
            (a.key, a.funnel.dropped_at or "", card_fields(a, names.get(a.object_key, ""))) for a in dropped
        )
        blobs.update({DROPPED_PREFIX + k: v for k, v in unkept.to_blobs().items()})
    return LexicalArrays(blobs, fts_rows, len(lexical.vocab))


@dataclass
class SearchIndexing:
    """What the index pass embeds with (``provider``, ``settings``, vector ``cache``, ``on_progress``) and
    what it leaves for the snapshot writer: ``vectors`` (key -> int8 blob) and ``blobs`` (search arrays).

    Without a provider only the lexical index exists and the manifest says ``embedding_model: null``;
    search then runs lexical-only. With ``background`` (the compiler's), a catalog of ``BACKGROUND_FROM``
    APIs or more has its lexical arrays built in a forked child (``apiatlas.forked``) while the compiler
    embeds and writes the snapshot: ``blobs`` and the ``lexical_terms`` stat are filled when the writer
    asks for ``search_tables()``; ``close()`` stops a child whose result was never asked for.
    """

    provider: EmbeddingProvider | None = None
    settings: FusionSettings = CALIBRATED
    cache: Path | None = None
    on_progress: Callable[[int, int], None] | None = None
    vectors: dict[str, bytes] = field(default_factory=dict)
    blobs: dict[str, bytes] = field(default_factory=dict)
    background: bool = False
    _lexical: Forked[LexicalArrays] | None = field(default=None, init=False, repr=False)
    _stats: dict[str, Any] = field(default_factory=dict, init=False, repr=False)
    _early: Catalog | None = field(default=None, init=False, repr=False)  # the catalog start_early forked on

    def start_lexical(self, catalog: Catalog, stats: dict[str, Any]) -> None:
        """Build ``catalog``'s lexical arrays (in a child when ``background`` and the catalog is large);
        their vocabulary size goes into ``stats["lexical_terms"]`` when they are there. A child that
        ``start_early`` forked on this catalog goes on (the passes since then left its cards as they were)."""
        if self._early is not catalog:
            self.close()
            background = self.background and len(catalog.apis) >= BACKGROUND_FROM
            self._lexical = Forked(partial(lexical_arrays, catalog), background=background)
        self._early, self._stats = None, stats
        assert self._lexical is not None
        if not self._lexical.forked:
            self.search_tables()

    def start_early(self, catalog: Catalog) -> None:
        """Fork the lexical arrays' child now, before the passes that leave the cards as they are (the
        graph's): it builds them on another core meanwhile. Only with ``background``, a large catalog and a
        platform that forks; once per catalog; the index pass takes it over (``start_lexical``)."""
        if (
            self._early is catalog
            or not self.background
            or len(catalog.apis) < BACKGROUND_FROM
            or not can_fork()
        ):
            return
        self.close()
        self._lexical, self._early = Forked(partial(lexical_arrays, catalog), background=True), catalog

    def search_tables(self) -> SearchTables:
        """The search arrays and full-text rows for the snapshot writer (waits for a child building them)."""
        if self._lexical is None:
            return SearchTables(self.blobs)
        arrays = self._lexical.result()
        self.blobs = arrays.blobs
        self._stats["lexical_terms"] = arrays.terms
        return SearchTables(arrays.blobs, arrays.fts_rows)

    def close(self) -> None:
        if self._lexical is not None:
            self._lexical.close()
        self._early = None


def index(catalog: Catalog, config: BuildConfig, context: PassContext) -> None:
    """The last pass: embeds every kept API's card and builds the lexical arrays (``context.indexing``),
    and records ``stats["search"]``."""
    if context.indexing is None:
        context.indexing = SearchIndexing()
    indexing = context.indexing
    apis = catalog.kept_apis()
    stats: dict[str, Any] = {}
    indexing.start_lexical(catalog, stats)  # on another core meanwhile, when it can
    indexing.vectors = {}
    dim = 0
    provider = indexing.provider
    embedded = [a for a in apis if a.extra.get("embedded", True)]  # a source may leave cards to words
    if provider is not None and embedded:
        titles = {k: o.title or o.name for k, o in catalog.objects.items()}
        texts = [card_text(a, titles.get(a.object_key, "")) for a in embedded]
        context.progress(f"index: embedding {len(texts)} API cards with {provider.model_id}")
        blobs = embed_passages(provider, texts, cache=indexing.cache, progress=indexing.on_progress)
        indexing.vectors = {a.key: b for a, b in zip(embedded, blobs, strict=True)}
        dim = len(blobs[0])
        reach = measure_reach(provider, blobs)  # the catalog's null cosine (``search.reach``)
        if reach is not None:
            stats["reach"] = reach.model_dump()
    settings = indexing.settings
    if source_format(catalog.source_kind).surface == "code":  # an SDK's names: fused by what they cover
        settings = settings.model_copy(update={"lexical_by_cover": True})
    stats.update(
        {
            "embedding_model": provider.model_id if provider is not None else None,
            "dim": dim,
            "vectors": len(indexing.vectors),
            "lexical_terms": stats.get("lexical_terms"),  # a number when the arrays are built
            "dropped_indexed": sum(1 for a in catalog.apis.values() if not a.funnel.kept),
            "quantization": "int8 (x127, L2-normalised)",
            **settings.manifest(),
        }
    )
    catalog.stats["search"] = stats


def run_index_pass(catalog: Catalog, indexing: SearchIndexing) -> dict[str, bytes]:
    """Run the index pass alone over an already refined ``catalog``; returns the vectors for the writer."""
    index(catalog, BuildConfig(), PassContext(indexing=indexing))
    return indexing.vectors


def index_and_write(
    catalog: Catalog, path: Path, *, options: dict[str, Any], index: SearchIndexing
) -> Manifest:
    """Run the index pass alone over ``catalog`` and write the snapshot with its vectors and search arrays."""
    run_index_pass(catalog, index)
    return write_snapshot(catalog, path, options=options, vectors=index.vectors, search=index.search_tables)
