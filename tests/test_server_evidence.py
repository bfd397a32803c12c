"""The evidence store (LRU by count and bytes, per session), paging cursors and the server config file."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiatlas.errors import ConfigError, ReasonCode
from apiatlas.server.config import EvidenceCaps, ServerConfig
from apiatlas.server.cursors import BadCursor, decode_cursor, encode_cursor, page_info
from apiatlas.server.evidence import EvidenceRegistry, EvidenceStore, EvidenceTable


def _rows(n: int, width: int = 10) -> list[EvidenceTable]:
    return [EvidenceTable("pAPI_Test_Rows", ["N", "Label"], [[i, "x" * width] for i in range(n)])]


def test_ids_are_sequential_and_distinct_for_the_same_call() -> None:
    store = EvidenceStore(EvidenceCaps(max_entries=10))
    first = store.add("API_Test_Rows", {"Count": 3}, _rows(3))
    second = store.add("API_Test_Rows", {"Count": 3}, _rows(3))
    assert first.evidence_id.startswith("ev-1-") and second.evidence_id.startswith("ev-2-")
    assert first.evidence_id != second.evidence_id
    got = store.get(first.evidence_id)
    assert got is not None and got.tables[0].rows[2] == [2, "xxxxxxxxxx"]
    assert got.table("papi_test_rows") is got.tables[0] and got.table("other") is None


def test_least_recently_used_entries_go_first_by_count() -> None:
    store = EvidenceStore(EvidenceCaps(max_entries=2))
    a = store.add("A", {}, _rows(1))
    b = store.add("B", {}, _rows(1))
    assert store.get(a.evidence_id) is not None  # a is now more recent than b
    c = store.add("C", {}, _rows(1))
    assert store.get(b.evidence_id) is None
    assert store.get(a.evidence_id) is not None and store.get(c.evidence_id) is not None
    assert len(store) == 2


def test_byte_cap_evicts_old_entries_but_keeps_the_newest() -> None:
    store = EvidenceStore(EvidenceCaps(max_entries=100, max_bytes=5_000))
    small = store.add("Small", {}, _rows(5))
    big = store.add("Big", {}, _rows(200, width=50))  # alone above the cap
    assert store.get(small.evidence_id) is None
    assert store.get(big.evidence_id) is not None and len(store) == 1
    assert store.size_bytes == big.size_bytes > 5_000


def test_sessions_have_separate_stores_and_are_bounded() -> None:
    registry = EvidenceRegistry(EvidenceCaps(max_sessions=2))
    one = registry.for_session("s1")
    kept = one.add("A", {}, _rows(1))
    assert registry.for_session("s2").get(kept.evidence_id) is None
    assert registry.for_session("s1") is one
    registry.for_session("s3")  # s2 is the least recently used session now
    assert registry.for_session("s1") is one
    assert registry.for_session("s2").get(kept.evidence_id) is None


def test_cursors_are_bound_to_their_list() -> None:
    cursor = encode_cursor("apis:Acc", 50)
    assert decode_cursor(cursor, "apis:Acc") == 50
    assert decode_cursor(None, "apis:Acc") == 0
    with pytest.raises(BadCursor) as other:
        decode_cursor(cursor, "apis:DSec")
    assert other.value.code is ReasonCode.BAD_CURSOR
    for junk in ("%%%", "bm90IGpzb24", encode_cursor("apis:Acc", -1)):
        with pytest.raises(BadCursor):
            decode_cursor(junk, "apis:Acc")
    last = page_info("objects", cursor, 50, 7, 57, "objects")
    assert last.next_cursor is None and not last.truncated and last.how_to_continue is None
    middle = page_info("objects", None, 0, 50, 57, "objects")
    assert middle.truncated and decode_cursor(middle.next_cursor, "objects") == 50
    assert middle.how_to_continue is not None and "7 more" in middle.how_to_continue


def test_config_loads_from_yaml_and_rejects_bad_files(tmp_path: Path) -> None:
    good = tmp_path / "server.yaml"
    good.write_text(
        "tool_prefix: fa_\npreview_rows: 3\nlimits: {statement_timeout_ms: 500}\n"
        "evidence: {max_entries: 5}\nhttp: {port: 9000, path: /atlas}\n",
        encoding="utf-8",
    )
    config = ServerConfig.load(good)
    assert (config.prefix_for("bank_html"), config.preview_rows, config.http.port) == ("fa_", 3, 9000)
    assert config.limits.statement_timeout_ms == 500 and config.evidence.max_entries == 5
    assert ServerConfig().prefix_for("bank_html") == "bank_"
    empty = tmp_path / "empty.yaml"
    empty.write_text("", encoding="utf-8")
    assert ServerConfig.load(empty) == ServerConfig()
    for text, needle in [
        ("[1, 2]", "mapping"),
        ("page_size: [", "YAML"),
        ("evidence: {max_entries: 0}", "max_entries"),
    ]:
        bad = tmp_path / "bad.yaml"
        bad.write_text(text, encoding="utf-8")
        with pytest.raises(ConfigError) as err:
            ServerConfig.load(bad)
        assert needle in str(err.value) and err.value.location.file == str(bad)
    with pytest.raises(ConfigError):
        ServerConfig.load(tmp_path / "missing.yaml")
