"""The build passes, in the order they run, and ``run_passes`` which runs them over a catalog.

Order, and why:

1. overlays     -- operator amendments are facts about the source, merged before any decision is made;
                   an overlay is matched against every documented API, kept or not.
   side_effects -- the config's per-API side-effect classes (real APIs write over GET), before the funnel.
2. funnel       -- decides which APIs are kept; every later pass looks at kept APIs.
3. types        -- merges the built-in and documented types and types every field (the graph compares
                   types and their generic class; the MCP contract needs each field's JSON Schema).
4. graph        -- edges between kept APIs, using the declared sources (from docs and overlays) and types.
   rest_edges   -- HTTP sources only: response fields feed path/query/body parameters (resource ids, shapes).
5. entry_points -- kept APIs whose required inputs are all values a user can say.
"""

from __future__ import annotations

from collections.abc import Callable

from apiatlas.catalog.model import Catalog, Overlay
from apiatlas.passes.config import BuildConfig
from apiatlas.passes.context import Pass, PassContext
from apiatlas.passes.entry_points import EntryPointsPass
from apiatlas.passes.funnel import FunnelPass
from apiatlas.passes.graph import GraphPass
from apiatlas.passes.overlays import OverlaysPass
from apiatlas.passes.rest_edges import RestEdgesPass
from apiatlas.passes.side_effects import SideEffectsPass
from apiatlas.passes.types import TypesPass
from apiatlas.passes.vocabulary import VocabularyPass

PASSES: list[Pass] = [
    OverlaysPass(),
    SideEffectsPass(),
    FunnelPass(),
    TypesPass(),
    GraphPass(),
    RestEdgesPass(),
    EntryPointsPass(),
    VocabularyPass(),
]

__all__ = ["PASSES", "BuildConfig", "Pass", "PassContext", "run_passes"]


def run_passes(
    catalog: Catalog,
    config: BuildConfig,
    *,
    overlays: dict[str, Overlay] | None = None,
    progress: Callable[[str], None] | None = None,
) -> Catalog:
    """Run every pass of ``PASSES`` in order over ``catalog`` (refined in place) and return it."""
    context = PassContext(overlays=dict(overlays or {}))
    if progress is not None:
        context.progress = progress
    for build_pass in PASSES:
        context.progress(f"pass {build_pass.name}")
        build_pass.run(catalog, config, context)
    return catalog
