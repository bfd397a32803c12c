"""Write a catalog to a snapshot file: fixed layout, deterministic bytes, atomic rename."""

from __future__ import annotations

import glob
import json
import os
import sqlite3
import tempfile
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from apiatlas.catalog.actions import api_action
from apiatlas.catalog.model import EDGE_LEVEL_RANK, Api, Catalog, Edge, Playbook
from apiatlas.errors import Diagnostic, Location, ReasonCode, SnapshotError
from apiatlas.forked_parts import ForkedParts
from apiatlas.snapshot.api_rows import ApiRow, ContractRow, RowFiles, rows_built_beside, spilled_rows
from apiatlas.snapshot.api_rows import ordered_json as ordered_json
from apiatlas.snapshot.api_rows import ordered_json_bytes as ordered_json_bytes
from apiatlas.snapshot.manifest import Manifest, build_manifest, kept_edges
from apiatlas.snapshot.schema import APIS_DICT, CONTRACTS_DICT, DDL, PAGE_SIZE
from apiatlas.text import index_text, words

if TYPE_CHECKING:
    from apiatlas.snapshot.edge_arrays import EdgeColumns  # numpy: not loaded with the writer

_SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


@dataclass(frozen=True)
class SearchTables:
    """What the index pass gives the search tables: its arrays (name -> blob) and, when it stemmed the kept
    cards already, their full-text rows (``(apis.id, name, title, body)`` stems; None: the writer stems)."""

    arrays: Mapping[str, bytes]
    fts_rows: Sequence[tuple[int, str, str, str]] | None = None


def to_json(value: Any) -> str:
    """Deterministic compact JSON (sorted keys, UTF-8 kept as is)."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def write_snapshot(
    catalog: Catalog,
    path: Path,
    *,
    options: dict[str, Any],
    vectors: Mapping[str, bytes] | None = None,
    search_index: Mapping[str, bytes] | None = None,
    search: Callable[[], SearchTables] | None = None,
    edge_columns: EdgeColumns | None = None,
) -> Manifest:
    """Write ``catalog`` to ``path`` and return its manifest.

    The file is built next to ``path`` under a temporary name and renamed over it only when
    complete, so a failure never leaves a half-written snapshot. Same catalog + same options
    give a byte-identical file. ``vectors`` (API key -> int8 blob) and ``search_index`` (name ->
    blob), both from the index pass, fill ``api_vectors`` and ``search_index``. ``search``, when
    given, stands for ``search_index``: it is called once the other tables are written (the index pass
    may still be building its arrays on another core until then), and the manifest is built after it
    (the index pass's stats are complete then; the table order of the file does not change its bytes:
    ``VACUUM`` rewrites every table in schema order). ``edge_columns``, when given, is filled with the
    edges as written (what ``Snapshot.edge_arrays`` would read back: the compile's report reads them there).
    """
    path = Path(path)
    if not path.parent.is_dir():
        raise SnapshotError(
            f"output folder does not exist: {path.parent}",
            code=ReasonCode.INVALID_ARGUMENT,
            location=Location(file=str(path)),
        )
    tables = search or (lambda: SearchTables(search_index or {}))
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        manifest = _write(catalog, options, tmp, vectors or {}, tables, edge_columns)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        Path(f"{tmp}-journal").unlink(missing_ok=True)
        raise
    return manifest


def _write(
    catalog: Catalog,
    options: dict[str, Any],
    tmp: Path,
    vectors: Mapping[str, bytes],
    search: Callable[[], SearchTables],
    edge_columns: EdgeColumns | None,
) -> Manifest:
    conn = sqlite3.connect(tmp, isolation_level=None)
    try:
        conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("BEGIN")
        for ddl in DDL:
            conn.execute(ddl)
        manifest = _insert_all(conn, catalog, options, vectors, search, tmp, edge_columns)
        conn.execute("COMMIT")
        conn.execute("INSERT INTO api_fts(api_fts) VALUES ('optimize')")
        conn.execute("VACUUM")
    finally:
        conn.close()
    return manifest


def _insert_all(
    conn: sqlite3.Connection,
    catalog: Catalog,
    options: dict[str, Any],
    vectors: Mapping[str, bytes],
    search: Callable[[], SearchTables],
    tmp: Path,
    edge_columns: EdgeColumns | None = None,
) -> Manifest:
    """Every table's rows, one table family after the other, and the manifest, while the APIs' rows are built
    (on another core for a large catalog); those last."""
    apis = [a for _, a in sorted(catalog.apis.items())]
    spill = tmp.with_name(tmp.name + "-rows")
    rows = rows_built_beside(apis, spill)  # built on another core while the other tables are inserted
    try:
        edges = kept_edges(catalog)
        _insert_objects(conn, catalog)
        _insert_sources_and_types(conn, catalog)
        _insert_edges(conn, catalog, edges, edge_columns)
        _insert_playbooks(conn, catalog)
        _insert_diagnostics(conn, catalog)
        _insert_search(conn, catalog, apis, vectors, search())
        manifest = build_manifest(catalog, options, edges)
        _insert_manifest(conn, manifest)
        _insert_apis(conn, rows)
    finally:
        rows.close()
        for part in spill.parent.glob(f"{glob.escape(spill.name)}.*"):  # the parts' files (this write's name)
            part.unlink(missing_ok=True)
    return manifest


def _insert_manifest(conn: sqlite3.Connection, manifest: Manifest) -> None:
    conn.executemany(
        "INSERT INTO manifest(key, value) VALUES (?, ?)",
        sorted((k, to_json(v)) for k, v in manifest.model_dump(mode="json").items()),
    )


def _insert_objects(conn: sqlite3.Connection, catalog: Catalog) -> None:
    """The business objects, each with the number of its kept APIs."""
    kept_count = _kept_api_count(catalog)
    conn.executemany(
        "INSERT INTO objects(key, name, title, api_count, body) VALUES (?, ?, ?, ?, ?)",
        (
            (o.key, o.name, o.title, kept_count.get(o.key, 0), to_json(o.model_dump(mode="json")))
            for _, o in sorted(catalog.objects.items())
        ),
    )


def _kept_api_count(catalog: Catalog) -> dict[str, int]:
    kept_count: dict[str, int] = {}
    for api in catalog.apis.values():
        if api.funnel.kept:
            kept_count[api.object_key] = kept_count.get(api.object_key, 0) + 1
    return kept_count


def _insert_apis(conn: sqlite3.Connection, rows: ForkedParts[RowFiles, RowFiles]) -> None:
    """Every API (kept or dropped, ``id`` in key order) and its contract, as ``spill_api_rows`` built them
    (maybe in a child meanwhile: waits for it), and the two columns' deflate dictionaries."""
    (body_zdict, contract_zdict), files = rows.result()
    contracts: list[ContractRow] = []

    def api_rows() -> Iterator[ApiRow]:
        for spill in files:
            for row, contract in spilled_rows(spill):
                contracts.append(contract)
                yield row

    conn.executemany(
        "INSERT INTO apis(id, key, object_key, title, kept, side_effect, entry_point, body)"
        " VALUES (?,?,?,?,?,?,?,?)",
        api_rows(),
    )
    conn.executemany(
        "INSERT INTO api_contracts(key, input_schema, output_schema) VALUES (?, ?, ?)", contracts
    )
    conn.executemany(
        "INSERT INTO packing(name, zdict) VALUES (?, ?)",
        [(APIS_DICT, body_zdict), (CONTRACTS_DICT, contract_zdict)],
    )


def _insert_sources_and_types(conn: sqlite3.Connection, catalog: Catalog) -> None:
    """The source files' hashes and the domain-type map."""
    conn.executemany(
        "INSERT INTO source_files(path, sha256) VALUES (?, ?)",
        ((path, bytes.fromhex(digest)) for path, digest in sorted(catalog.source_files.items())),
    )
    conn.executemany(
        "INSERT INTO types(name, body) VALUES (?, ?)",
        ((n, to_json(t.model_dump(mode="json"))) for n, t in sorted(catalog.types.items())),
    )


def _insert_edges(
    conn: sqlite3.Connection, catalog: Catalog, edges: list[Edge], columns: EdgeColumns | None = None
) -> None:
    """The dependency graph's edges between kept APIs (``edges``: ``kept_edges``), each with its level's
    rank, as integers: APIs by ``apis.id``, every other text by its ``edge_names`` id (``id`` keeps the
    edges' order); kept in ``columns`` too when given."""
    keys = sorted(catalog.apis)
    ids = {key: n for n, key in enumerate(keys, start=1)}
    texts = sorted({t for e in edges for t in _edge_texts(e) if t is not None})
    name_id = {t: n for n, t in enumerate(texts, start=1)}
    conn.executemany("INSERT INTO edge_names(id, text) VALUES (?, ?)", ((n, t) for t, n in name_id.items()))

    def named(text: str | None) -> int | None:
        return None if text is None else name_id[text]

    rows: Iterator[EdgeRow] = (
        (
            ids[e.consumer],
            EDGE_LEVEL_RANK[e.level],
            n,
            ids[e.producer],
            named(e.producer_table),
            name_id[e.producer_field],
            named(e.consumer_table),
            name_id[e.consumer_field],
            named(e.domain_type),
            named(e.reason),
        )
        for n, e in enumerate(edges, start=1)
    )
    if columns is not None:
        columns.apis, columns.fields = keys, texts
        rows = _kept_in(columns, rows)
    conn.executemany(
        "INSERT INTO edges(consumer, rank, id, producer, producer_table, producer_field, consumer_table,"
        " consumer_field, domain_type, reason) VALUES (?,?,?,?,?,?,?,?,?,?)",
        rows,
    )


EdgeRow = tuple[int, int, int, int, int | None, int, int | None, int, int | None, int | None]


def _kept_in(columns: EdgeColumns, rows: Iterator[EdgeRow]) -> Iterator[EdgeRow]:
    """``rows`` as they go, each one's APIs, fields and rank appended to ``columns`` (row ``id - 1``)."""
    consumer, rank, producer = columns.consumer.append, columns.rank.append, columns.producer.append
    producer_field, consumer_field = columns.producer_field.append, columns.consumer_field.append
    for row in rows:
        consumer(row[0])
        rank(row[1])
        producer(row[3])
        producer_field(row[5])
        consumer_field(row[7])
        yield row


def _edge_texts(e: Edge) -> tuple[str | None, ...]:
    return (e.producer_table, e.producer_field, e.consumer_table, e.consumer_field, e.domain_type, e.reason)


def _insert_playbooks(conn: sqlite3.Connection, catalog: Catalog) -> None:
    """The playbooks by name (the first of two with one name is kept)."""
    conn.executemany(
        "INSERT OR IGNORE INTO playbooks(name, trigger, body) VALUES (?, ?, ?)",
        (
            (p.name, p.trigger, to_json(p.model_dump(mode="json")))
            for p in sorted(catalog.playbooks, key=_playbook_name)
        ),
    )


def _insert_diagnostics(conn: sqlite3.Connection, catalog: Catalog) -> None:
    """The build's diagnostics, errors first."""
    conn.executemany(
        "INSERT INTO diagnostics(severity, code, message, file, line, anchor) VALUES (?,?,?,?,?,?)",
        (
            (d.severity.value, d.code.value, d.message, d.location.file, d.location.line, d.location.anchor)
            for d in sorted(catalog.diagnostics, key=_diagnostic_order)
        ),
    )


def _insert_search(
    conn: sqlite3.Connection,
    catalog: Catalog,
    apis: list[Api],
    vectors: Mapping[str, bytes],
    search: SearchTables,
) -> None:
    """What search reads: the full-text rows of the kept APIs, their card vectors and the index pass's
    arrays."""
    names = {o.key: o.name for o in catalog.objects.values()}
    fts_rows: Iterable[tuple[int, str, str, str]] = (
        search.fts_rows if search.fts_rows is not None else _fts_rows(apis, names)
    )
    arrays = sorted(search.arrays.items())
    with ThreadPoolExecutor(min(4, os.cpu_count() or 1), thread_name_prefix="apiatlas-arrays") as pool:
        # deflated on other threads while SQLite indexes the full-text rows (both outside the GIL)
        packed = pool.map(zlib.compress, [data for _, data in arrays], [6] * len(arrays))
        conn.executemany(
            "INSERT INTO api_fts(rowid, name_text, title, body_text) VALUES (?, ?, ?, ?)", fts_rows
        )
        conn.executemany(
            "INSERT INTO api_vectors(key, object_key, vector) VALUES (?, ?, ?)",
            ((k, catalog.apis[k].object_key, vectors[k]) for k in sorted(vectors) if k in catalog.apis),
        )
        conn.executemany(
            "INSERT INTO search_index(name, data) VALUES (?, ?)",
            zip([name for name, _ in arrays], packed, strict=True),
        )


def _playbook_name(p: Playbook) -> str:
    return p.name


def _diagnostic_order(d: Diagnostic) -> tuple[int, str, str, int, str, str]:
    loc = d.location
    return (
        _SEVERITY_ORDER.get(d.severity.value, 9),
        d.code.value,
        loc.file or "",
        loc.line or 0,
        loc.anchor or "",
        d.message,
    )


def _fts_rows(apis: list[Api], object_names: dict[str, str]) -> Iterator[tuple[int, str, str, str]]:
    """The kept APIs' full-text rows, each under its ``apis.id`` (its place in key order, from 1)."""
    for n, a in enumerate(apis, start=1):
        if a.funnel.kept:
            name_text = index_text(api_name_parts(a, object_names.get(a.object_key, "")))
            yield n, name_text, index_text([a.title]), index_text(api_body_parts(a))


def api_name_parts(api: Api, object_name: str) -> list[str]:
    """The texts of an API's name column: its key, its object's key and name, and what it does when its
    key does not say it in that word (``catalog.actions.api_action``: an HTTP operation's list, create,
    ...; ``usp_Payment_Add``'s create; ``usp_Order_Close`` says close itself)."""
    action = api_action(api)
    if api.executor.kind != "http" and action in words(api.key):
        action = ""
    # a source's own readable name stands for the key and its object (a .NET member's path and kind,
    # without the parameter types of its documentation ID): the object's words count once
    own = api.extra.get("card_name")
    return [str(own), action] if own else [api.key, api.object_key, object_name, action]


def api_body_parts(api: Api) -> list[str]:
    """The texts of an API that search looks into besides its key and title."""
    parts = [api.description]
    for p in api.params:
        parts += [p.name, p.description]
    references = set(api.extra.get("reference_fields", ()))  # below a response's depth: for the graph
    for t in [*api.input_tables, *api.output_tables]:
        parts += [t.name, t.description]
        for c in t.columns:
            if c.name not in references:
                parts += [c.name, c.description]
    if api.overlay is not None:
        parts += api.overlay.when_to_use + api.overlay.important
    parts += api.written_texts()
    return [p for p in parts if p]
