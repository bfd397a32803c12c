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

    _keys_by_id: dict[int, str] | None = None
    _has_lists: bool | None = None

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        raise NotImplementedError

    def _key_of(self) -> dict[int, str]:
        """Every API's key by its ``apis.id``, read once (a covering index: ~17 ms for 31,580 APIs). An edge
        row's APIs are named from it: joining ``apis`` per row cost twice the row's own reading."""
        if self._keys_by_id is None:
            self._keys_by_id = dict(self._rows("SELECT id, key FROM apis"))
        return self._keys_by_id

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
            "SELECT e.producer, pt.text, pf.text, ct.text, cf.text, e.rank FROM edges e"
            " LEFT JOIN edge_names pt ON pt.id = e.producer_table"
            " JOIN edge_names pf ON pf.id = e.producer_field"
            " LEFT JOIN edge_names ct ON ct.id = e.consumer_table"
            " JOIN edge_names cf ON cf.id = e.consumer_field"
            " WHERE e.consumer = (SELECT id FROM apis WHERE key = ?) AND e.rank <= ? ORDER BY e.rank, e.id",
            (api_key, _MAX_RANK),
        )
        key_of = self._key_of()
        return [Link(key_of[p], pt, pf, ct, cf, rank) for p, pt, pf, ct, cf, rank in rows]

    def links_out_of(self, api_key: str) -> list[tuple[str, str, str, str]]:
        """``(consumer, producer_field, consumer_field, domain_type)`` of the edges out of ``api_key``, in
        ``edges_out_of``'s order (strongest level first, then as written)."""
        rows = self._rows(
            "SELECT e.consumer, pf.text, cf.text, dt.text FROM edges e"
            " JOIN edge_names pf ON pf.id = e.producer_field JOIN edge_names cf ON cf.id = e.consumer_field"
            " LEFT JOIN edge_names dt ON dt.id = e.domain_type"
            " WHERE e.producer = (SELECT id FROM apis WHERE key = ?) AND e.rank <= ? ORDER BY e.rank, e.id",
            (api_key, _MAX_RANK),
        )
        key_of = self._key_of()
        return [(key_of[c], pf, cf, dt or "") for c, pf, cf, dt in rows]

    def list_links_out_of(self, api_keys: list[str]) -> dict[str, list[tuple[str, str, str]]]:
        """``(consumer, consumer_field, domain_type)`` of each edge out of each of ``api_keys`` whose producer
        field lies in a list (``[]``), in ``edges_out_of``'s order; one query per few hundred keys, none when
        no edge field lies in a list."""
        out: dict[str, list[tuple[str, str, str]]] = {key: [] for key in api_keys}
        if self._has_lists is None:
            self._has_lists = bool(self._rows("SELECT 1 FROM edge_names WHERE instr(text, '[]') > 0 LIMIT 1"))
        keys, key_of = list(out) if self._has_lists else [], self._key_of()
        for start in range(0, len(keys), _CHUNK):
            chunk = keys[start : start + _CHUNK]
            rows = self._rows(
                "SELECT e.producer, e.consumer, cf.text, dt.text FROM edges e"
                " JOIN edge_names pf ON pf.id = e.producer_field"
                " JOIN edge_names cf ON cf.id = e.consumer_field"
                " LEFT JOIN edge_names dt ON dt.id = e.domain_type WHERE e.producer IN"
                f" (SELECT id FROM apis WHERE key IN ({','.join('?' * len(chunk))})) AND e.rank <= ?"
                " AND instr(pf.text, '[]') > 0 ORDER BY e.producer, e.rank, e.id",
                (*chunk, _MAX_RANK),
            )
            for producer, consumer, field, domain_type in rows:
                out[key_of[producer]].append((key_of[consumer], field, domain_type or ""))
        return out

    def consumers_of(self, api_keys: list[str]) -> dict[str, list[str]]:
        """The consumer of every edge out of each of ``api_keys``, in ``edges_out_of``'s order (a key
        without edges: an empty list), in one query per few hundred keys."""
        out: dict[str, list[str]] = {key: [] for key in api_keys}
        keys, key_of = list(out), self._key_of()
        for start in range(0, len(keys), _CHUNK):
            chunk = keys[start : start + _CHUNK]
            rows = self._rows(
                "SELECT e.producer, e.consumer FROM edges e WHERE e.producer IN"
                f" (SELECT id FROM apis WHERE key IN ({','.join('?' * len(chunk))})) AND e.rank <= ?"
                " ORDER BY e.producer, e.rank, e.id",
                (*chunk, _MAX_RANK),
            )
            for producer, consumer in rows:
                out[key_of[producer]].append(key_of[consumer])
        return out
