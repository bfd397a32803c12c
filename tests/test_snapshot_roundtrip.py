"""Write a catalog to a snapshot, open it and check every reader method; determinism and atomicity."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from apiatlas.catalog.model import EdgeLevel, Playbook
from apiatlas.errors import ReasonCode, Severity
from apiatlas.snapshot import FORMAT_VERSION, Snapshot, write_snapshot
from apiatlas.snapshot import writer as writer_module
from apiatlas.snapshot.manifest import Manifest
from test_snapshot_catalog import mini_catalog

OPTIONS = {"source": "examples/bank/docs", "overlays": "examples/bank/overlays", "config": None}


@pytest.fixture()
def snap(tmp_path: Path) -> Iterator[Snapshot]:
    path = tmp_path / "bank.atlas"
    write_snapshot(mini_catalog(), path, options=OPTIONS)
    s = Snapshot.open(path)
    yield s
    s.close()


def test_manifest_round_trips(snap: Snapshot) -> None:
    m = snap.manifest()
    assert m["format_version"] == FORMAT_VERSION
    assert m["source_root"] == "examples/bank/docs"
    assert m["options"] == OPTIONS
    assert m["source_files"]["count"] == 1
    assert snap.source_files() == {"BObjects/BO_Person.htm": "ab" * 32}
    assert m["graph"]["by_level"]["alias"] == 1
    assert [s["count"] for s in m["funnel"]["stages"]] == [7, 6, 5]
    assert snap.counts()["kept_apis"] == 5
    assert snap.counts()["edges"] == 5


def test_objects_are_paged_and_only_those_with_kept_apis(snap: Snapshot) -> None:
    page, total = snap.list_objects(offset=0, limit=2)
    assert total == 3  # "Old" has no kept API
    assert [o.key for o in page] == ["Acc", "DSec"]
    rest, _ = snap.list_objects(offset=2, limit=2)
    assert [o.key for o in rest] == ["Prs"]
    assert snap.object_api_count("Acc") == 2
    obj = snap.get_object("dsec")
    assert obj is not None and obj.name == "DealSecurity"
    assert snap.get_object("Nope") is None


def test_apis_of_an_object_with_and_without_dropped(snap: Snapshot) -> None:
    kept, total = snap.list_apis("Acc")
    assert total == 2
    assert [a.key for a in kept] == ["API_Acc_FindListByListOwnerID", "API_Acc_GetRest"]
    everything, total_all = snap.list_apis("Acc", include_dropped=True)
    assert total_all == 3
    assert "API_Acc_Close" in [a.key for a in everything]


def test_get_api_exact_then_case_insensitive(snap: Snapshot) -> None:
    api = snap.get_api("API_Acc_GetRest")
    assert api is not None
    assert api.overlay is not None and api.overlay.when_to_use == ["Получение баланса"]
    assert api.params[0].name == "AccountID"
    again = snap.get_api("api_acc_getrest")
    assert again == api
    assert snap.get_api("API_Missing") is None


def test_types_entry_points_and_diagnostics(snap: Snapshot) -> None:
    t = snap.get_type("dsidentifier")
    assert t is not None and t.json_schema == {"type": "integer"}
    assert snap.get_type("DSNOPE") is None
    every = snap.all_types()
    assert every and all(snap.get_type(name) == dt for name, dt in every.items())
    assert every["DSIDENTIFIER"] == t
    assert snap.entry_points() == ["API_Prs_FindListByFIO"]
    diags = snap.diagnostics()
    assert [d.severity for d in diags] == [Severity.ERROR, Severity.WARNING]  # errors first
    warnings = snap.diagnostics(Severity.WARNING)
    assert len(warnings) == 1 and warnings[0].code is ReasonCode.UNKNOWN_DOMAIN_TYPE
    assert warnings[0].location.anchor == "API_Acc_GetRest"
    assert snap.diagnostics("error")[0].location.line == 3


def test_edges_in_and_out_with_rank_filter(snap: Snapshot) -> None:
    into = snap.edges_into("API_Acc_GetRest")
    assert [e.level for e in into] == [EdgeLevel.DECLARED, EdgeLevel.TYPE_ONLY]
    assert [e.level for e in snap.edges_into("API_Acc_GetRest", min_rank=3)] == [EdgeLevel.DECLARED]
    out = snap.edges_out_of("API_Acc_FindListByListOwnerID")
    assert {e.consumer for e in out} == {
        "API_Acc_GetRest",
        "API_DSec_FindListIDByAccID",
    }  # not the dropped one
    alias = snap.edges_into("API_Acc_FindListByListOwnerID")
    assert len(alias) == 1
    e = alias[0]
    assert (e.producer, e.producer_table, e.producer_field) == (
        "API_Prs_FindListByFIO",
        "pAPI_Person_FindList",
        "PersonID",
    )
    assert (e.consumer_table, e.consumer_field, e.level) == (
        "pAPI_Account_OwnerID",
        "OwnerID",
        EdgeLevel.ALIAS,
    )


def test_contracts_are_stored_as_the_compiler_built_them(snap: Snapshot) -> None:
    from apiatlas.passes.types import input_schema, output_schema

    catalog = mini_catalog()
    for key, api in catalog.apis.items():
        assert snap.api_input_schema(key) == input_schema(api)
        assert snap.api_output_schema(key) == output_schema(api)
    assert snap.api_input_schema("NO_SUCH_API") is None


def test_the_server_reads_contracts_without_loading_compiler_code() -> None:
    import subprocess
    import sys

    probe = (
        "import sys, apiatlas.server.app, apiatlas.security.gateway;"
        "print(sorted(m for m in sys.modules if m.startswith(('apiatlas.passes', 'apiatlas.sources', "
        "'apiatlas.build'))))"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]", loaded.stdout


def test_every_table_family_holds_what_the_catalog_says(tmp_path: Path) -> None:
    catalog = mini_catalog()
    catalog.playbooks = [
        Playbook(name="b", trigger="second"),
        Playbook(name="a", trigger="first"),
        Playbook(name="a", trigger="same name, later"),
    ]
    vectors = {"API_Acc_GetRest": b"\x01\x02", "API_Not_In_Catalog": b"\x03"}
    path = tmp_path / "bank.atlas"
    write_snapshot(catalog, path, options=OPTIONS, vectors=vectors, search_index={"z": b"1", "a": b"2"})
    conn = sqlite3.connect(path)
    try:
        rows = {t: conn.execute(sql).fetchall() for t, sql in _TABLE_READS.items()}
    finally:
        conn.close()
    assert {k for (k,) in rows["manifest"]} == set(Manifest.model_fields)
    assert rows["objects"] == [("Acc", 2), ("DSec", 2), ("Old", 0), ("Prs", 1)]
    assert rows["apis"] == [(k, int(a.funnel.kept)) for k, a in sorted(catalog.apis.items())]
    assert [k for (k,) in rows["api_contracts"]] == sorted(catalog.apis)
    assert rows["source_files"] == [("BObjects/BO_Person.htm", "ab" * 32)]
    assert [n for (n,) in rows["types"]] == ["DSIDENTIFIER", "DSVARFULLNAME"]
    assert len(rows["edges"]) == 5 and ("API_Acc_FindListByListOwnerID", "API_Acc_Close") not in rows["edges"]
    assert rows["playbooks"] == [("a", "first"), ("b", "second")]  # one per name, the first kept
    assert [r[0] for r in rows["diagnostics"]] == ["error", "warning"]
    kept = sorted(k for k, a in catalog.apis.items() if a.funnel.kept)
    assert [r[0] for r in rows["api_fts"]] == kept
    conn = sqlite3.connect(path)
    try:
        fts = {
            (word, column): [k for (k,) in conn.execute(_FTS_MATCH, (f"{column}: {word}",))]
            for word, column in (("acc", "name_text"), ("account", "name_text"), ("баланс", "body_text"))
        }
    finally:
        conn.close()
    assert "API_Acc_GetRest" in fts[("acc", "name_text")]  # the object's key and name
    assert "API_Acc_GetRest" in fts[("account", "name_text")]
    assert "API_Acc_GetRest" in fts[("баланс", "body_text")]  # the overlay's words
    assert rows["api_vectors"] == [("API_Acc_GetRest", "Acc", b"\x01\x02")]  # only APIs of the catalog
    assert [n for n, _ in rows["search_index"]] == ["a", "z"]
    with Snapshot.open(path) as snap:
        assert snap.search_index() == {"a": b"2", "z": b"1"}  # stored deflated, read back whole


_TABLE_READS = {
    "manifest": "SELECT key FROM manifest",
    "objects": "SELECT key, api_count FROM objects ORDER BY key",
    "apis": "SELECT key, kept FROM apis ORDER BY key",
    "api_contracts": "SELECT key FROM api_contracts ORDER BY key",
    "source_files": "SELECT path, lower(hex(sha256)) FROM source_files",
    "types": "SELECT name FROM types ORDER BY name",
    "edges": "SELECT p.key, c.key FROM edges JOIN apis p ON p.id = producer JOIN apis c ON c.id = consumer",
    "playbooks": "SELECT name, trigger FROM playbooks ORDER BY name",
    "diagnostics": "SELECT severity FROM diagnostics ORDER BY id",
    "api_fts": "SELECT a.key FROM api_fts JOIN apis a ON a.id = api_fts.rowid ORDER BY a.key",
    "api_vectors": "SELECT key, object_key, vector FROM api_vectors",
    "search_index": "SELECT name, data FROM search_index",
}


_FTS_MATCH = "SELECT a.key FROM api_fts JOIN apis a ON a.id = api_fts.rowid WHERE api_fts MATCH ?"


def test_snapshot_is_opened_read_only(snap: Snapshot) -> None:
    with pytest.raises(sqlite3.OperationalError):
        snap._conn.execute("DELETE FROM apis")


def test_same_catalog_gives_byte_identical_files(tmp_path: Path) -> None:
    a, b = tmp_path / "a" / "bank.atlas", tmp_path / "b" / "bank.atlas"
    a.parent.mkdir()
    b.parent.mkdir()
    write_snapshot(mini_catalog(), a, options=OPTIONS)
    write_snapshot(mini_catalog(), b, options=OPTIONS)
    assert a.read_bytes() == b.read_bytes()
    c = tmp_path / "c.atlas"
    write_snapshot(mini_catalog(), c, options={**OPTIONS, "config": "other.yaml"})
    assert c.read_bytes() != a.read_bytes()  # the options are part of the content


def test_failure_mid_write_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "bank.atlas"

    def boom(*args: object) -> object:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(writer_module, "_fts_rows", boom)
    with pytest.raises(RuntimeError, match="disk on fire"):
        write_snapshot(mini_catalog(), target, options=OPTIONS)
    assert list(tmp_path.iterdir()) == []


def test_failure_mid_write_keeps_the_previous_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "bank.atlas"
    write_snapshot(mini_catalog(), target, options=OPTIONS)
    before = target.read_bytes()

    def boom(*args: object) -> object:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(writer_module, "_fts_rows", boom)
    with pytest.raises(RuntimeError):
        write_snapshot(mini_catalog(), target, options={"source": "changed"})
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["bank.atlas"]
