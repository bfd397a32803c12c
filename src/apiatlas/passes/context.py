"""What every build pass looks like (``Pass``) and what it is handed besides the catalog (``PassContext``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from apiatlas.catalog.model import Catalog, Overlay
from apiatlas.passes.config import BuildConfig
from apiatlas.sources.format import SourceFormat

if TYPE_CHECKING:
    from apiatlas.code.enrichment import Enricher
    from apiatlas.passes.index import SearchIndexing


def _silent(message: str) -> None:
    """Default progress sink: says nothing."""


@dataclass
class PassContext:
    """Inputs of a build that are not part of the catalog, and where progress lines go.

    ``source`` is the catalog's format (None: the one registered for ``catalog.source_kind``);
    ``indexing`` is what the index pass embeds with and where it leaves the vectors and search arrays
    (None: the index pass builds the lexical index only and leaves its own ``SearchIndexing`` here).
    """

    overlays: dict[str, Overlay] = field(default_factory=dict)
    progress: Callable[[str], None] = _silent
    source: SourceFormat | None = None
    indexing: SearchIndexing | None = None
    # seconds per pass as ``run_passes`` ran them, and a hook called as each pass starts (a meter's)
    pass_timings: dict[str, float] = field(default_factory=dict)
    on_pass: Callable[[str], None] = _silent
    # the model that enriches an SDK's cards (``--llm``; None: no enrichment), and a (done, total) sink
    enricher: Enricher | None = None
    advance: Callable[[int, int], None] | None = None

    def source_of(self, catalog: Catalog) -> SourceFormat:
        """The source format the passes ask about ``catalog`` (REST passes, schemas, ...)."""
        if self.source is None:
            from apiatlas.sources import source_format

            self.source = source_format(catalog.source_kind)
        return self.source


class Pass(Protocol):
    """One build pass, a function named after its module: reads and refines the catalog in place."""

    __name__: str

    def __call__(self, catalog: Catalog, config: BuildConfig, context: PassContext) -> None: ...
