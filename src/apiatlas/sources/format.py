"""What a source format is: every fact apiatlas knows about one kind of source, with neutral defaults.

A format (one folder under ``sources/``) subclasses ``SourceFormat`` and overrides only what differs:
how to detect and load its sources, its build defaults (funnel, aliases, type classes, edge caps), its
built-in domain types, whether the REST passes apply, whether its own JSON Schemas win, its tool prefix,
which executor kind serves it and what the compile summary says about it. The base class keeps every
API, has no aliases, no built-in types, no REST passes, prefix ``atlas_`` and no executor: what an
unknown kind gets.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from apiatlas.catalog.model import Catalog, DomainType
from apiatlas.errors import ConfigError, Location
from apiatlas.snapshot.manifest import ExecutorKind, Serving, Surface

Progress = Callable[[int, int], None]


class SourceFormat:
    """One kind of source; the class attributes are the facts, the methods detect and load."""

    kind: ClassVar[str] = ""  # recorded as Catalog.source_kind and in the manifest
    description: ClassVar[str] = ""  # one line for `apiatlas compile --help` and errors
    display_name: ClassVar[str] = "catalog"  # what the served MCP server calls the snapshot's source
    tool_prefix: ClassVar[str] = "atlas_"  # MCP tool names: PREFIX + search, describe_api, ...
    executor: ClassVar[ExecutorKind | None] = None  # "sql": served with --db URL; "http": --upstream URL
    rest_passes: ClassVar[bool] = False  # operations over HTTP paths: the rest_edges pass applies
    source_schemas_win: ClassVar[bool] = False  # a parameter's own JSON Schema beats its domain type's
    featured_api: ClassVar[str | None] = None  # the API whose chains the compile report draws first
    # every model of a loaded catalog has its class's shared fields set already (``catalog/compact.py``):
    # the compiler need not walk the catalog to give it them
    shares_field_sets: ClassVar[bool] = False
    surface: ClassVar[Surface] = "api"  # "code": an SDK's types and members (code tools, no execution)

    def detects(self, path: Path) -> bool:
        """Whether ``path`` holds a source of this format (the base recognises nothing)."""
        return False

    def load(self, path: Path, *, progress: Progress | None = None) -> Catalog:
        """Read the source at ``path`` into a Catalog whose ``source_kind`` is ``kind``."""
        raise ConfigError(
            f"source kind {self.kind or '(neutral)'!r} cannot load sources", location=Location(file=str(path))
        )

    def load_with(self, path: Path, options: dict[str, Any], *, progress: Progress | None = None) -> Catalog:
        """``load`` with the format's own options (``apiatlas compile --include-internal``); the base takes
        none, so an option it does not know is a located error rather than silently ignored."""
        raise ConfigError(
            f"source kind {self.kind or '(neutral)'!r} takes no options ({', '.join(options)})",
            location=Location(file=str(path)),
        )

    def build_defaults(self) -> dict[str, Any]:
        """BuildConfig fields this format sets over the neutral defaults (a build config file wins)."""
        return {}

    def builtin_types(self) -> dict[str, DomainType]:
        """Domain types the format's sources use without defining them (the types pass merges them in)."""
        return {}

    def compile_notes(self, catalog: Catalog) -> list[str]:
        """Lines the compile summary prints about this source (Rich markup), e.g. operations found."""
        return []

    def serving(self) -> Serving:
        """What serving a snapshot of this format needs, recorded in its manifest at compile time."""
        return Serving(
            tool_prefix=self.tool_prefix,
            executor=self.executor,
            display_name=self.display_name,
            surface=self.surface,
        )

    def __repr__(self) -> str:
        return f"{type(self).__name__}(kind={self.kind!r})"


NEUTRAL = SourceFormat()
