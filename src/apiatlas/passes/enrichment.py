"""Enrichment pass: with ``--llm``, a model writes usage scenarios and search hints for each kept member of
an SDK catalog (``code/enrichment.py``), before the index embeds the cards. Without a model, or for a
catalog without SDK members, it does nothing: the build is complete without it."""

from __future__ import annotations

from apiatlas.catalog.model import Catalog
from apiatlas.passes.config import BuildConfig
from apiatlas.passes.context import PassContext


def enrichment(catalog: Catalog, config: BuildConfig, context: PassContext) -> None:
    enricher = context.enricher
    if enricher is None:
        return
    run = enricher.enrich(catalog, context.advance)
    nothing = not (run.written or run.cached or run.failed)
    context.progress("enrichment: no SDK members in this catalog" if nothing else run.summary())
