"""Index pass: card texts of kept APIs embedded into compact vectors, and the search settings recorded."""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from apiatlas.catalog.model import Api, Catalog
from apiatlas.forked import Forked, can_fork
from apiatlas.forked_parts import ForkedParts, budgeted_parts
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
PART_APIS: int | None = None  # APIs per child (tests); None: ``forked_parts.budgeted_parts`` decides


@dataclass
class LexicalArrays:
    """The index pass's lexical part, from one stemming of every card: the search arrays of the kept and
    the dropped APIs (``search_index`` blobs), the kept APIs' full-text rows as the snapshot writer would
    build them (``(apis.id, name, title, body)`` stems), and the kept index's vocabulary size."""

    blobs: dict[str, bytes]
    fts_rows: list[tuple[int, str, str, str]]
    terms: int


Fields = tuple[list[str], list[str], list[str]]  # a card's stems: name, title, body (``card_fields``)
Card = tuple[str, str, bool, str, Fields]  # an API's key, object key, kept, funnel stage dropped at, stems


def lexical_arrays(catalog: Catalog) -> LexicalArrays:
    """``LexicalArrays`` of a refined ``catalog`` (reads it, changes nothing)."""
    apis = [a for _, a in sorted(catalog.apis.items())]
    return _arrays(_cards(catalog, apis, range(len(apis))))


def lexical_parts(catalog: Catalog) -> ForkedParts[bytes, LexicalArrays] | None:
    """``lexical_arrays(catalog)`` on another core: the cards' stems of a part of the APIs at a time, each
    part in a child of its own (``apiatlas.forked_parts``: a child copies the pages of the objects it
    reads; the parts as large as the memory budget lets, one part while the compiler is small), pickled,
    and the arrays built from them in the last part's child. None when no part fits beside the compiler:
    the arrays are built in the compiling process."""
    apis = [a for _, a in sorted(catalog.apis.items())]
    parts = budgeted_parts(len(apis), PART_APIS)
    if parts is None:
        return None
    work = partial(_cards_part, catalog, apis, parts)
    return ForkedParts(len(parts), work, _arrays_of_parts, finish_fresh=True)


def _cards_part(catalog: Catalog, apis: list[Api], parts: list[range], n: int) -> bytes:
    return pickle.dumps(list(_cards(catalog, apis, parts[n])), protocol=pickle.HIGHEST_PROTOCOL)


def _arrays_of_parts(parts: Iterable[bytes]) -> LexicalArrays:
    return _arrays(card for part in parts for card in pickle.loads(part))


def _cards(catalog: Catalog, apis: list[Api], places: range) -> Iterator[Card]:
    """The cards of ``apis[n]`` for ``n`` in ``places`` (kept and dropped), one at a time."""
    objects = catalog.objects
    for n in places:
        api = apis[n]
        obj = objects.get(api.object_key)
        fields = card_fields(api, obj.name if obj is not None else "")
        yield api.key, api.object_key, api.funnel.kept, api.funnel.dropped_at or "", fields


def _arrays(cards: Iterable[Card]) -> LexicalArrays:
    """``LexicalArrays`` of every API's card, in key order: the kept ones' index (read as they come), then
    the dropped ones'."""
    fts_rows: list[tuple[int, str, str, str]] = []
    dropped: list[tuple[str, str, Fields]] = []

    def kept_cards() -> Iterator[tuple[str, str, Fields]]:
        for n, (key, object_key, kept, dropped_at, fields) in enumerate(cards, start=1):  # n: apis.id
            if kept:
                fts_rows.append((n, " ".join(fields[0]), " ".join(fields[1]), " ".join(fields[2])))
                yield key, object_key, fields
            else:
                dropped.append((key, dropped_at, fields))

    lexical = LexicalIndex.build(kept_cards())
    blobs = lexical.to_blobs()
    # documented APIs the funnel dropped: a request for one is told why it cannot be called
    if dropped:
        unkept = LexicalIndex.build(dropped)
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
    _lexical: Forked[LexicalArrays] | ForkedParts[bytes, LexicalArrays] | None = field(
        default=None, init=False, repr=False
    )
    _stats: dict[str, Any] = field(default_factory=dict, init=False, repr=False)
    _early: Catalog | None = field(default=None, init=False, repr=False)  # the catalog start_early forked on

    def start_lexical(self, catalog: Catalog, stats: dict[str, Any]) -> None:
        """Build ``catalog``'s lexical arrays (in a child when ``background`` and the catalog is large);
        their vocabulary size goes into ``stats["lexical_terms"]`` when they are there. A child that
        ``start_early`` forked on this catalog goes on (the passes since then left its cards as they were)."""
        if self._early is not catalog:
            self.close()
            background = self.background and len(catalog.apis) >= BACKGROUND_FROM and can_fork()
            self._lexical = (lexical_parts(catalog) if background else None) or Forked(
                partial(lexical_arrays, catalog), background=False
            )
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
        parts = lexical_parts(catalog)
        if parts is not None:  # else the index pass builds the arrays here
            self._lexical, self._early = parts, catalog

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
