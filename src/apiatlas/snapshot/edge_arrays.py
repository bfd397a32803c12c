"""A snapshot's dependency edges as integer arrays, for walks over the whole graph (the compile report).

``Snapshot.edge_links`` gives a tuple of five strings per edge; for the hundreds of thousands of edges of
a large catalog those tuples (and the fetched rows behind them) cost hundreds of MiB while the compile
still holds the catalog. Here an edge is one row across five integer arrays, read in chunks; APIs and
field names are numbered once.
"""

from __future__ import annotations

import sqlite3
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field

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


@dataclass
class EdgeColumns:
    """The edges as the snapshot writer numbers them, kept while it writes them (``write_snapshot``'s
    ``edge_columns``), so that the compile's report need not read them back: edge ``id`` is row ``id - 1``
    of the integer columns (APIs by ``apis.id``, fields by ``edge_names.id``); ``apis[n - 1]`` is the key
    of ``apis.id`` ``n`` and ``fields[n - 1]`` the text of ``edge_names.id`` ``n``."""

    producer: array[int] = field(default_factory=lambda: array("i"))
    consumer: array[int] = field(default_factory=lambda: array("i"))
    producer_field: array[int] = field(default_factory=lambda: array("i"))
    consumer_field: array[int] = field(default_factory=lambda: array("i"))
    rank: array[int] = field(default_factory=lambda: array("i"))
    apis: list[str] = field(default_factory=list)
    fields: list[str] = field(default_factory=list)

    def arrays(self, max_rank: int) -> EdgeArrays:
        """What ``read_edge_arrays`` reads of the snapshot these edges were written to."""
        rank = np.frombuffer(self.rank, dtype=np.int32)
        at = np.flatnonzero(rank <= max_rank)
        at = at[np.argsort(rank[at], kind="stable")]  # by rank, then id

        def column(values: array[int]) -> NDArray[np.int32]:
            return np.frombuffer(values, dtype=np.int32)[at]

        ends = np.stack((column(self.producer), column(self.consumer)), axis=1)
        names = np.stack((column(self.producer_field), column(self.consumer_field)), axis=1)
        return _numbered(
            rank[at],
            ends,
            names,
            lambda ids: [self.apis[i - 1] for i in ids.tolist()],
            lambda ids: [self.fields[i - 1] for i in ids.tolist()],
        )


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
    return _numbered(
        table[:, 0].copy(),
        table[:, 2:4],
        table[:, 4:6],
        lambda ids: _texts(conn, "SELECT id, key FROM apis", "id", ids),
        lambda ids: _texts(conn, "SELECT id, text FROM edge_names", "id", ids),
    )


def _numbered(
    rank: NDArray[np.int32],
    ends: NDArray[np.int32],
    names: NDArray[np.int32],
    api_texts: Callable[[NDArray[np.int32]], list[str]],
    field_texts: Callable[[NDArray[np.int32]], list[str]],
) -> EdgeArrays:
    """Edges in order (``ends``: producer and consumer ``apis.id``, ``names``: their fields'
    ``edge_names.id``) with their APIs and fields numbered from 0 in id order (``*_texts``: the texts of
    sorted ids)."""
    api_ids, api_at = np.unique(ends.ravel(), return_inverse=True)
    field_ids, field_at = np.unique(names.ravel(), return_inverse=True)
    apis, fields = api_texts(api_ids), field_texts(field_ids)
    api_pairs: NDArray[np.int32] = api_at.reshape(-1, 2).astype(np.int32)
    field_pairs: NDArray[np.int32] = field_at.reshape(-1, 2).astype(np.int32)
    return EdgeArrays(
        producer=api_pairs[:, 0],
        consumer=api_pairs[:, 1],
        producer_field=field_pairs[:, 0],
        consumer_field=field_pairs[:, 1],
        rank=rank,
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
