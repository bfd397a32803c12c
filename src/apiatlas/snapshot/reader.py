"""Read a snapshot: open it read-only in milliseconds and answer catalog, graph and search queries.

Thread-safety: a ``Snapshot`` holds one read-only SQLite connection opened with
``check_same_thread=False`` and guards every query with a lock, so one instance may be shared by
the MCP server's event-loop thread and worker threads; calls are serialised, each is short.
Several processes may open the same file at once (it is never written after compile).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self
from urllib.parse import quote

from apiatlas.catalog.model import (
    EDGE_LEVEL_RANK,
    Api,
    BusinessObject,
    DomainType,
    Edge,
    EdgeLevel,
    Playbook,
)
from apiatlas.errors import Diagnostic, Location, ReasonCode, Severity, SnapshotError
from apiatlas.language.catalog import CatalogVocabulary
from apiatlas.snapshot.graph_links import GraphLinks
from apiatlas.snapshot.packing import Packer
from apiatlas.snapshot.schema import APIS_DICT, CONTRACTS_DICT, FORMAT_VERSION
from apiatlas.snapshot.search_reads import SearchReads

if TYPE_CHECKING:
    from apiatlas.snapshot.edge_arrays import EdgeArrays

# an edge's texts back from its integers (apis.id, edge_names.id)
_EDGES = (
    "SELECT p.key, pt.text, pf.text, c.key, ct.text, cf.text, dt.text, e.rank, r.text FROM edges e"
    " JOIN apis p ON p.id = e.producer JOIN apis c ON c.id = e.consumer"
    " LEFT JOIN edge_names pt ON pt.id = e.producer_table JOIN edge_names pf ON pf.id = e.producer_field"
    " LEFT JOIN edge_names ct ON ct.id = e.consumer_table JOIN edge_names cf ON cf.id = e.consumer_field"
    " LEFT JOIN edge_names dt ON dt.id = e.domain_type LEFT JOIN edge_names r ON r.id = e.reason"
)
_MAX_RANK = max(EDGE_LEVEL_RANK.values())
_LEVEL_OF_RANK = {rank: level for level, rank in EDGE_LEVEL_RANK.items()}


class Snapshot(GraphLinks, SearchReads):
    """A read-only view of one ``*.atlas`` file (see docs/snapshot.md, "Reader API")."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self._lock = threading.Lock()
        self.path = path
        self._manifest: dict[str, Any] | None = None
        self._packers: dict[str, Packer] = {}  # the packed columns' dictionaries, read on first use

    @classmethod
    def open(cls, path: Path | str) -> Self:
        """Open ``path`` read-only; ``SnapshotError`` if missing, not a snapshot or of another format."""
        path = Path(path)
        where = Location(file=str(path))
        if not path.is_file():
            raise SnapshotError(
                f"snapshot not found: {path}", code=ReasonCode.SNAPSHOT_NOT_FOUND, location=where
            )
        uri = f"file:{quote(str(path.resolve()))}?mode=ro&immutable=1"
        try:
            conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
            row = conn.execute("SELECT value FROM manifest WHERE key = 'format_version'").fetchone()
        except sqlite3.DatabaseError as exc:
            raise SnapshotError(
                f"not an apiatlas snapshot ({exc}): {path}", code=ReasonCode.SNAPSHOT_CORRUPT, location=where
            ) from exc
        version = json.loads(row[0]) if row else None
        if version != FORMAT_VERSION:
            conn.close()
            raise SnapshotError(
                f"snapshot format_version {version!r} is not supported "
                f"(this apiatlas reads {FORMAT_VERSION}); "
                "recompile it with `apiatlas compile`",
                code=ReasonCode.SNAPSHOT_VERSION_MISMATCH,
                location=where,
            )
        return cls(conn, path)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    def _unpacked(self, column: str, blob: bytes) -> str:
        """A packed column's value as text (the column's dictionary read on its first value)."""
        packer = self._packers.get(column)
        if packer is None:
            rows = self._rows("SELECT zdict FROM packing WHERE name = ?", (column,))
            packer = self._packers[column] = Packer(bytes(rows[0][0]) if rows else b"")
        return packer.unpack(blob)

    def _api(self, blob: bytes) -> Api:
        return Api.model_validate_json(self._unpacked(APIS_DICT, blob))

    # -- manifest and counts -------------------------------------------------------------

    def manifest(self) -> dict[str, Any]:
        """Every manifest key with its decoded JSON value."""
        if self._manifest is None:
            self._manifest = {
                k: json.loads(v) for k, v in self._rows("SELECT key, value FROM manifest ORDER BY key")
            }
        return dict(self._manifest)

    def vocabulary(self) -> CatalogVocabulary:
        """The catalog's own words the vocabulary pass recorded (none in a snapshot built before it)."""
        recorded = self.manifest().get("pass_stats", {}).get("vocabulary") or {}
        return CatalogVocabulary.model_validate(recorded)

    def source_files(self) -> dict[str, str]:
        """Every source file read by the build (path relative to the source root) and its sha256."""
        rows = self._rows("SELECT path, sha256 FROM source_files ORDER BY path")
        return {p: bytes(h).hex() for p, h in rows}

    def counts(self) -> dict[str, int]:
        counts = self.manifest().get("counts", {})
        return {str(k): int(v) for k, v in counts.items()}

    # -- business objects and APIs --------------------------------------------------------

    def list_objects(self, offset: int = 0, limit: int = 50) -> tuple[list[BusinessObject], int]:
        """A page of business objects with at least one kept API, by key, and their total."""
        total = self._rows("SELECT count(*) FROM objects WHERE api_count > 0")[0][0]
        rows = self._rows(
            "SELECT body FROM objects WHERE api_count > 0 ORDER BY key LIMIT ? OFFSET ?", (limit, offset)
        )
        return [BusinessObject.model_validate_json(r[0]) for r in rows], int(total)

    def object_api_count(self, key: str) -> int:
        """Kept APIs of one business object (0 when unknown)."""
        rows = self._rows("SELECT api_count FROM objects WHERE key = ?", (key,))
        return int(rows[0][0]) if rows else 0

    def object_api_counts(self) -> dict[str, int]:
        """Kept APIs per business object (objects with none included), by key."""
        return {k: int(n) for k, n in self._rows("SELECT key, api_count FROM objects ORDER BY key")}

    def get_object(self, key: str) -> BusinessObject | None:
        rows = self._rows("SELECT body FROM objects WHERE key = ?", (key,)) or self._rows(
            "SELECT body FROM objects WHERE key = ? COLLATE NOCASE ORDER BY key LIMIT 1", (key,)
        )
        return BusinessObject.model_validate_json(rows[0][0]) if rows else None

    def list_apis(
        self, object_key: str, offset: int = 0, limit: int = 50, include_dropped: bool = False
    ) -> tuple[list[Api], int]:
        """A page of one object's APIs (kept only unless ``include_dropped``), by key, and their total."""
        where = "object_key = ?" + ("" if include_dropped else " AND kept = 1")
        total = self._rows(f"SELECT count(*) FROM apis WHERE {where}", (object_key,))[0][0]
        rows = self._rows(
            f"SELECT body FROM apis WHERE {where} ORDER BY key LIMIT ? OFFSET ?", (object_key, limit, offset)
        )
        return [self._api(r[0]) for r in rows], int(total)

    def object_api_keys(self, object_key: str, limit: int = 50) -> list[str]:
        """The keys of ``list_apis(object_key, limit=limit)``'s APIs (kept, by key), without decoding them."""
        sql = "SELECT key FROM apis WHERE object_key = ? AND kept = 1 ORDER BY key LIMIT ?"
        return [r[0] for r in self._rows(sql, (object_key, limit))]

    def all_api_keys(self, include_dropped: bool = False) -> list[str]:
        sql = "SELECT key FROM apis" + ("" if include_dropped else " WHERE kept = 1") + " ORDER BY key"
        return [r[0] for r in self._rows(sql)]

    def get_api(self, key: str) -> Api | None:
        """The API with this exact key, else the one whose key matches case-insensitively."""
        rows = self._rows("SELECT body FROM apis WHERE key = ?", (key,)) or self._rows(
            "SELECT body FROM apis WHERE key = ? COLLATE NOCASE ORDER BY key LIMIT 1", (key,)
        )
        return self._api(rows[0][0]) if rows else None

    def api_object(self, key: str) -> str:
        """The business object of an API ('' when unknown), without decoding its body."""
        rows = self._rows("SELECT object_key FROM apis WHERE key = ?", (key,))
        return str(rows[0][0] or "") if rows else ""

    def api_input_schema(self, key: str) -> dict[str, Any] | None:
        """The API's input as one JSON Schema object, as the compiler built it (None when unknown)."""
        rows = self._rows("SELECT input_schema FROM api_contracts WHERE key = ?", (key,))
        return dict(json.loads(self._unpacked(CONTRACTS_DICT, rows[0][0]))) if rows else None

    def api_output_schema(self, key: str) -> dict[str, Any] | None:
        """The API's output tables as one JSON Schema object, as the compiler built it (None when unknown)."""
        rows = self._rows("SELECT output_schema FROM api_contracts WHERE key = ?", (key,))
        return dict(json.loads(self._unpacked(CONTRACTS_DICT, rows[0][0]))) if rows else None

    def writes_enabled(self, key: str) -> bool:
        """Whether a write API may run: never through the snapshot itself (a role's view may enable one)."""
        return False

    def get_type(self, name: str) -> DomainType | None:
        rows = self._rows("SELECT body FROM types WHERE name = ?", (name,)) or self._rows(
            "SELECT body FROM types WHERE upper(name) = upper(?) ORDER BY name LIMIT 1", (name,)
        )
        return DomainType.model_validate_json(rows[0][0]) if rows else None

    def all_types(self) -> dict[str, DomainType]:
        """Every domain type of the snapshot by name (one query; for executors at start-up)."""
        return {
            str(name): DomainType.model_validate_json(body)
            for name, body in self._rows("SELECT name, body FROM types ORDER BY name", ())
        }

    def entry_points(self) -> list[str]:
        """Kept APIs callable from user-known values alone, by key."""
        return [
            r[0] for r in self._rows("SELECT key FROM apis WHERE kept = 1 AND entry_point = 1 ORDER BY key")
        ]

    # -- dependency graph -----------------------------------------------------------------

    def edges_into(self, api_key: str, min_rank: int = _MAX_RANK) -> list[Edge]:
        """Edges whose consumer is ``api_key`` (its producers), strongest level first."""
        rows = self._rows(
            f"{_EDGES} WHERE e.consumer = (SELECT id FROM apis WHERE key = ?) AND e.rank <= ?"
            " ORDER BY e.rank, e.id",
            (api_key, min_rank),
        )
        return [_edge(r) for r in rows]

    def edges_out_of(self, api_key: str, min_rank: int = _MAX_RANK) -> list[Edge]:
        """Edges whose producer is ``api_key`` (the APIs it feeds), strongest level first."""
        rows = self._rows(
            f"{_EDGES} WHERE e.producer = (SELECT id FROM apis WHERE key = ?) AND e.rank <= ?"
            " ORDER BY e.rank, e.id",
            (api_key, min_rank),
        )
        return [_edge(r) for r in rows]

    def edge_links(self, min_rank: int = _MAX_RANK) -> list[tuple[str, str, str, str, EdgeLevel]]:
        """``(producer, consumer, producer_field, consumer_field, level)`` of every edge, strongest first.

        A light form of ``all_edges`` for whole-graph walks (the report, planners).
        """
        rows = self._rows(
            "SELECT p.key, c.key, pf.text, cf.text, e.rank FROM edges e"
            " JOIN apis p ON p.id = e.producer JOIN apis c ON c.id = e.consumer"
            " JOIN edge_names pf ON pf.id = e.producer_field JOIN edge_names cf ON cf.id = e.consumer_field"
            " WHERE e.rank <= ? ORDER BY e.rank, e.id",
            (min_rank,),
        )
        return [(p, c, pf, cf, _LEVEL_OF_RANK[rank]) for p, c, pf, cf, rank in rows]

    def edge_arrays(self, min_rank: int = _MAX_RANK) -> EdgeArrays:
        """``edge_links`` as integer arrays (``snapshot/edge_arrays.py``): the whole graph in a few MiB."""
        from apiatlas.snapshot.edge_arrays import read_edge_arrays  # numpy: not loaded by a server's start

        with self._lock:
            return read_edge_arrays(self._conn, min_rank)

    def all_edges(self, min_rank: int = _MAX_RANK) -> list[Edge]:
        rows = self._rows(f"{_EDGES} WHERE e.rank <= ? ORDER BY e.id", (min_rank,))
        return [_edge(r) for r in rows]

    # -- diagnostics ----------------------------------------------------------------------

    def playbooks(self) -> list[Playbook]:
        """Every playbook compiled into the snapshot, by name."""
        rows = self._rows("SELECT body FROM playbooks ORDER BY name")
        return [Playbook.model_validate(json.loads(body)) for (body,) in rows]

    def diagnostics(self, severity: Severity | str | None = None) -> list[Diagnostic]:
        """Build findings, errors first; only one severity when given."""
        sql = "SELECT severity, code, message, file, line, anchor FROM diagnostics"
        rows = (
            self._rows(sql + " WHERE severity = ? ORDER BY id", (str(Severity(severity)),))
            if severity
            else (self._rows(sql + " ORDER BY id"))
        )
        return [_diagnostic(r) for r in rows]


def _edge(row: tuple[Any, ...]) -> Edge:
    producer, ptable, pfield, consumer, ctable, cfield, dtype, rank, reason = row
    # rows were validated when written: construct without re-validating (hundreds of thousands of edges)
    return Edge.model_construct(
        producer=producer,
        producer_table=ptable,
        producer_field=pfield,
        consumer=consumer,
        consumer_table=ctable,
        consumer_field=cfield,
        domain_type=dtype or "",
        level=_LEVEL_OF_RANK[rank],
        reason=reason or "",
    )


def _diagnostic(row: tuple[Any, ...]) -> Diagnostic:
    severity, code, message, file, line, anchor = row
    return Diagnostic(
        severity=Severity(severity),
        code=ReasonCode(code),
        message=message,
        location=Location(file=file, line=line, anchor=anchor),
    )
