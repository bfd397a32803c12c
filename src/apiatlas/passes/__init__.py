"""The build passes, in the order they run, and ``run_passes`` which runs them over a catalog.

Each pass is a function named after its module (``passes/funnel.py: funnel(catalog, config, context)``),
like sqlglot's optimizer rules. Order, and why:

1. overlays     -- operator amendments are facts about the source, merged before any decision is made;
                   an overlay is matched against every documented API, kept or not.
   side_effects -- the config's per-API side-effect classes (real APIs write over GET), before the funnel.
2. funnel       -- decides which APIs are kept; every later pass looks at kept APIs.
3. types        -- merges the built-in and documented types and types every field (the graph compares
                   types and their generic class; the MCP contract needs each field's JSON Schema).
4. graph        -- edges between kept APIs, using the declared sources (from docs and overlays) and types.
   rest_edges   -- formats with ``rest_passes`` only: response fields feed path/query/body parameters.
   co_usage     -- code surfaces only (body facts): members called one after the other in the SDK's bodies.
5. entry_points -- kept APIs whose required inputs are all values a user can say.
6. vocabulary   -- the catalog's own words (kinds of things, synonyms) derived from its kept APIs,
                   amended by the build config's ``vocabulary``; read by the planner.
   enrichment   -- with ``--llm`` only: a model's usage scenarios and search hints for an SDK's members,
                   before the index reads the cards.
7. index        -- the search index of the kept APIs (lexical arrays, card vectors), last: it reads
                   everything the others decided. In a compile its lexical arrays are built in a forked
                   child from the types pass on (``_LEAVE_CARDS``: the passes between change no card).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from apiatlas.catalog.model import Catalog, Overlay
from apiatlas.gc_phases import paused_collections
from apiatlas.passes.co_usage import co_usage
from apiatlas.passes.config import BuildConfig
from apiatlas.passes.context import Pass, PassContext
from apiatlas.passes.enrichment import enrichment
from apiatlas.passes.entry_points import entry_points
from apiatlas.passes.funnel import funnel
from apiatlas.passes.graph import graph
from apiatlas.passes.index import SearchIndexing, index
from apiatlas.passes.overlays import overlays as overlays_pass
from apiatlas.passes.rest_edges import rest_edges
from apiatlas.passes.side_effects import side_effects
from apiatlas.passes.types import types
from apiatlas.passes.vocabulary import vocabulary

PASSES: list[Pass] = [
    overlays_pass, side_effects, funnel, types, graph, rest_edges, co_usage, entry_points, vocabulary,
    enrichment, index,
]  # fmt: skip

__all__ = ["PASSES", "BuildConfig", "Pass", "PassContext", "SearchIndexing", "run_passes"]

# passes that change nothing a search card reads (its texts, kept or dropped): from the first pass after
# which only these run before the index pass, the lexical arrays can be built on another core while they
# run (``SearchIndexing.start_early``); enrichment writes into the cards when it has a model
# (types writes JSON Schemas, which no card reads)
_LEAVE_CARDS = frozenset({"types", "graph", "rest_edges", "co_usage", "entry_points", "vocabulary"})


def run_passes(
    catalog: Catalog,
    config: BuildConfig,
    *,
    passes: Sequence[Pass] = PASSES,
    context: PassContext | None = None,
    overlays: dict[str, Overlay] | None = None,
    progress: Callable[[str], None] | None = None,
) -> Catalog:
    """Run ``passes`` (default every pass of ``PASSES``) in order over ``catalog``, refined in place.

    ``context`` carries the source format, overlays, progress and indexing inputs; ``overlays`` and
    ``progress`` are shorthands that fill a fresh context's fields.
    """
    context = context or PassContext()
    if overlays is not None:
        context.overlays = dict(overlays)
    if progress is not None:
        context.progress = progress
    for build_pass in passes:
        context.progress(f"pass {build_pass.__name__}")
        context.on_pass(build_pass.__name__)
        if context.indexing is not None and _cards_settled(build_pass, context):
            context.indexing.start_early(catalog)
        started = time.perf_counter()
        with paused_collections():  # a pass adds to the catalog: see gc_phases
            build_pass(catalog, config, context)
        context.pass_timings[build_pass.__name__] = time.perf_counter() - started
    return catalog


def _cards_settled(next_pass: Pass, context: PassContext) -> bool:
    """True when ``next_pass`` and every pass after it before the index pass leave the cards as they are."""
    if next_pass not in PASSES[:-1]:
        return False
    for later in PASSES[PASSES.index(next_pass) : -1]:
        if later.__name__ not in _LEAVE_CARDS and not (later is enrichment and context.enricher is None):
            return False
    return True
