"""Packed columns: bodies and contracts deflated against a dictionary of their own rows, read back whole."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

import pytest

from apiatlas.snapshot import Snapshot, write_snapshot
from apiatlas.snapshot.packing import CHUNK, WINDOW, Packer, dictionary, packed_ahead
from test_snapshot_catalog import mini_catalog


def test_a_dictionary_of_the_rows_packs_each_row_smaller_and_gives_it_back() -> None:
    rows = [
        json.dumps({"key": f"API_{n}", "params": [{"name": "ID", "type": "integer"}] * 3}).encode()
        for n in range(500)
    ]
    zdict = dictionary(rows)
    assert 0 < len(zdict) <= WINDOW
    primed, plain = Packer(zdict), Packer(b"")
    for row in rows[::50]:
        text = row.decode()
        assert primed.unpack(primed.pack(text)) == text == plain.unpack(plain.pack(text))
        assert len(primed.pack(text)) < len(plain.pack(text)) < len(row)
    assert dictionary([]) == b""


def test_the_snapshot_stores_bodies_and_contracts_packed(tmp_path: Path) -> None:
    catalog = mini_catalog()
    path = tmp_path / "bank.atlas"
    write_snapshot(catalog, path, options={})
    conn = sqlite3.connect(path)
    try:
        bodies = dict(conn.execute("SELECT key, body FROM apis").fetchall())
        names = {n for (n,) in conn.execute("SELECT name FROM packing")}
    finally:
        conn.close()
    assert names == {"apis.body", "api_contracts"}
    with Snapshot.open(path) as snap:
        for key, api in catalog.apis.items():
            stored = snap.get_api(key)
            assert stored is not None and stored.model_dump() == api.model_dump()
            assert isinstance(bodies[key], bytes) and not bodies[key].startswith(b"{")  # not JSON text
            schema = snap.api_input_schema(key)
            assert schema is not None and schema["type"] == "object"


def test_packed_ahead_packs_every_row_in_order_on_other_threads() -> None:
    rows = [json.dumps({"n": n, "text": "word " * (n % 40)}).encode() for n in range(3 * CHUNK + 7)]
    packer = Packer(dictionary(rows))
    threads: set[int] = set()

    def pack(row: bytes) -> bytes:
        threads.add(threading.get_ident())
        return packer.pack_bytes(row)

    assert list(packed_ahead(rows, pack, threads=2)) == [packer.pack_bytes(r) for r in rows]
    assert threads and threading.get_ident() not in threads
    assert list(packed_ahead([], pack)) == []


def test_packed_ahead_raises_what_a_pack_raised() -> None:
    def pack(n: int) -> int:
        if n == CHUNK + 3:
            raise ValueError("bad row")
        return n

    with pytest.raises(ValueError, match="bad row"):
        list(packed_ahead(range(2 * CHUNK), pack))
