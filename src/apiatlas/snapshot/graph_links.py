"""Light readings of a snapshot's dependency graph for the planner's walks: names only, no ``Edge`` per
row (building a pydantic ``Edge`` per row cost the planner's first plans most of their time)."""

from __future__ import annotations

from typing import Any, NamedTuple

from apiatlas.catalog.model import EDGE_LEVEL_RANK, EdgeLevel

_MAX_RANK = max(EDGE_LEVEL_RANK.values())
_CHUNK = 500  # keys per query (well under SQLite's bound on parameters)
_LEVEL_OF_RANK = {rank: level for level, rank in EDGE_LEVEL_RANK.items()}


class Link(NamedTuple):
    """An edge into an API as the planner reads it: the ``Edge`` fields it uses, one tuple per row (a
    pydantic ``Edge`` per row was most of what a plan paid on first meeting an API)."""

    producer: str
    producer_table: str | None
    producer_field: str
    consumer_table: str | None
    consumer_field: str
    rank: int  # ``EDGE_LEVEL_RANK`` of the edge's level

    @property
    def level(self) -> EdgeLevel:
        return _LEVEL_OF_RANK[self.rank]


class GraphLinks:
    """Mixed into ``Snapshot``: queries over ``edges`` through its ``_rows``."""

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        raise NotImplementedError

    def list_producers(self) -> list[tuple[str, str]]:
        """``(producer, producer_field)`` of every edge whose producer field lies in a list (``[]``), each
        pair once: what ``edge_links`` gives the planner's list readings, without reading every edge."""
        fields = dict(self._rows("SELECT id, text FROM edge_names WHERE instr(text, '[]') > 0"))
        out: set[tuple[str, str]] = set()
        ids = sorted(fields)
        for start in range(0, len(ids), _CHUNK):  # none: no edge is read (a graph without lists)
            chunk = ids[start : start + _CHUNK]
            rows = self._rows(
                "SELECT DISTINCT p.key, e.producer_field FROM edges e JOIN apis p ON p.id = e.producer"
                f" WHERE e.producer_field IN ({','.join('?' * len(chunk))})",
                tuple(chunk),
            )
            out.update((key, fields[field]) for key, field in rows)
        return sorted(out)

    def links_into(self, api_key: str) -> list[Link]:
        """The edges into ``api_key`` as ``Link``s, in ``edges_into``'s order (strongest level first, then
        as written)."""
        rows = self._rows(
            "SELECT p.key, pt.text, pf.text, ct.text, cf.text, e.rank FROM edges e"
            " JOIN apis p ON p.id = e.producer LEFT JOIN edge_names pt ON pt.id = e.producer_table"
            " JOIN edge_names pf ON pf.id = e.producer_field"
            " LEFT JOIN edge_names ct ON ct.id = e.consumer_table"
            " JOIN edge_names cf ON cf.id = e.consumer_field"
            " WHERE e.consumer = (SELECT id FROM apis WHERE key = ?) AND e.rank <= ? ORDER BY e.rank, e.id",
            (api_key, _MAX_RANK),
        )
        return list(map(Link._make, rows))

    def links_out_of(self, api_key: str) -> list[tuple[str, str, str, str]]:
        """``(consumer, producer_field, consumer_field, domain_type)`` of the edges out of ``api_key``, in
        ``edges_out_of``'s order (strongest level first, then as written)."""
        rows = self._rows(
            "SELECT c.key, pf.text, cf.text, dt.text FROM edges e JOIN apis c ON c.id = e.consumer"
            " JOIN edge_names pf ON pf.id = e.producer_field JOIN edge_names cf ON cf.id = e.consumer_field"
            " LEFT JOIN edge_names dt ON dt.id = e.domain_type"
            " WHERE e.producer = (SELECT id FROM apis WHERE key = ?) AND e.rank <= ? ORDER BY e.rank, e.id",
            (api_key, _MAX_RANK),
        )
        return [(c, pf, cf, dt or "") for c, pf, cf, dt in rows]

    def consumers_of(self, api_keys: list[str]) -> dict[str, list[str]]:
        """The consumer of every edge out of each of ``api_keys``, in ``edges_out_of``'s order (a key
        without edges: an empty list), in one query per few hundred keys."""
        out: dict[str, list[str]] = {key: [] for key in api_keys}
        keys = list(out)
        for start in range(0, len(keys), _CHUNK):
            chunk = keys[start : start + _CHUNK]
            rows = self._rows(
                "SELECT p.key, c.key FROM edges e JOIN apis p ON p.id = e.producer"
                " JOIN apis c ON c.id = e.consumer WHERE e.producer IN"
                f" (SELECT id FROM apis WHERE key IN ({','.join('?' * len(chunk))})) AND e.rank <= ?"
                " ORDER BY e.producer, e.rank, e.id",
                (*chunk, _MAX_RANK),
            )
            for producer, consumer in rows:
                out[producer].append(consumer)
        return out
