"""What every build pass looks like (``Pass``) and what it is handed besides the catalog (``PassContext``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from apiatlas.catalog.model import Catalog, Overlay
from apiatlas.passes.config import BuildConfig


def _silent(message: str) -> None:
    """Default progress sink: says nothing."""


@dataclass
class PassContext:
    """Inputs of a build that are not part of the catalog, and where progress lines go."""

    overlays: dict[str, Overlay] = field(default_factory=dict)
    progress: Callable[[str], None] = _silent


class Pass(Protocol):
    """One build pass: reads and refines the catalog in place."""

    name: str

    def run(self, catalog: Catalog, config: BuildConfig, context: PassContext) -> None: ...
