"""The snapshot: one immutable SQLite file written by compile and read by everything else."""

from apiatlas.snapshot.catalog_reader import CatalogReader
from apiatlas.snapshot.hits import SearchHit
from apiatlas.snapshot.manifest import Manifest
from apiatlas.snapshot.reader import Snapshot
from apiatlas.snapshot.schema import FORMAT_VERSION
from apiatlas.snapshot.writer import write_snapshot

__all__ = ["FORMAT_VERSION", "CatalogReader", "Manifest", "SearchHit", "Snapshot", "write_snapshot"]
