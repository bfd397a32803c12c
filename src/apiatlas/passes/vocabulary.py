"""Vocabulary pass: the catalog's own words (kinds of things, numbered parts) derived from its kept APIs,
amended by the build config's ``vocabulary``, recorded for the snapshot (``stats["vocabulary"]``)."""

from __future__ import annotations

from apiatlas.catalog.model import Catalog
from apiatlas.language.catalog import derive_vocabulary
from apiatlas.passes.config import BuildConfig
from apiatlas.passes.context import PassContext


def vocabulary(catalog: Catalog, config: BuildConfig, context: PassContext) -> None:
    """Derive the catalog's vocabulary, amend it with the config's, and record it in ``catalog.stats``."""
    derived = derive_vocabulary(catalog.kept_apis()).amended(config.vocabulary)
    catalog.stats["vocabulary"] = derived.model_dump()
    context.progress(f"vocabulary: {len(derived.kinds)} kinds of things, {len(derived.expansions)} synonyms")
