"""A snapshot's dependency edges as integer arrays, for walks over the whole graph (the compile report).

``Snapshot.edge_links`` gives a tuple of five strings per edge; for the hundreds of thousands of edges of
a large catalog those tuples (and the fetched rows behind them) cost hundreds of MiB while the compile
still holds the catalog. Here an edge is one row across five integer arrays, read in chunks; APIs and
field names are numbered once.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from apiatlas.errors import ReasonCode, SnapshotError

_CHUNK = 8_192  # rows fetched (as Python tuples) at a time: ~2 MiB of them


@dataclass(frozen=True)
class EdgeArrays:
    """Every edge up to a rank, strongest level first and then in the order written (``ORDER BY rank,
    id``): edge ``i`` is ``apis[producer[i]]`` feeding ``apis[consumer[i]]`` through
    ``fields[producer_field[i]]`` → ``fields[consumer_field[i]]`` at ``rank[i]`` (``EDGE_LEVEL_RANK``)."""

    producer: NDArray[np.int32]
    consumer: NDArray[np.int32]
    producer_field: NDArray[np.int32]
    consumer_field: NDArray[np.int32]
    rank: NDArray[np.int32]
    apis: list[str]
    fields: list[str]


def read_edge_arrays(conn: sqlite3.Connection, max_rank: int) -> EdgeArrays:
    """The edges of rank ``max_rank`` or stronger of the snapshot open on ``conn``."""
    cursor = conn.execute(
        "SELECT rank, id, producer, consumer, producer_field, consumer_field FROM edges WHERE rank <= ?",
        (max_rank,),
    )
    chunks = [np.empty((0, 6), dtype=np.int32)]
    while batch := cursor.fetchmany(_CHUNK):
        chunks.append(np.array(batch, dtype=np.int32))
    table = np.concatenate(chunks)
    table = table[np.lexsort((table[:, 1], table[:, 0]))]  # by rank, then id: the reader's edge order
    api_ids, api_at = np.unique(table[:, 2:4].ravel(), return_inverse=True)
    field_ids, field_at = np.unique(table[:, 4:6].ravel(), return_inverse=True)
    apis = _texts(conn, "SELECT id, key FROM apis", "id", api_ids)
    fields = _texts(conn, "SELECT id, text FROM edge_names", "id", field_ids)
    ends: NDArray[np.int32] = api_at.reshape(-1, 2).astype(np.int32)
    names: NDArray[np.int32] = field_at.reshape(-1, 2).astype(np.int32)
    return EdgeArrays(
        producer=ends[:, 0],
        consumer=ends[:, 1],
        producer_field=names[:, 0],
        consumer_field=names[:, 1],
        rank=table[:, 0].copy(),
        apis=apis,
        fields=fields,
    )


def _texts(conn: sqlite3.Connection, select: str, id_column: str, ids: NDArray[np.int32]) -> list[str]:
    """The texts of ``ids`` (sorted, distinct) in their order, read in chunks of ids."""
    texts: list[str] = []
    for start in range(0, len(ids), 500):
        chunk = [int(i) for i in ids[start : start + 500]]
        marks = ",".join("?" * len(chunk))
        rows = conn.execute(f"{select} WHERE {id_column} IN ({marks}) ORDER BY {id_column}", chunk).fetchall()
        if len(rows) != len(chunk):
            missing = len(chunk) - len(rows)
            corrupt = ReasonCode.SNAPSHOT_CORRUPT
            raise SnapshotError(f"edges name {missing} unknown ids ({select})", code=corrupt)
        texts.extend(str(text) for _, text in rows)
    return texts
