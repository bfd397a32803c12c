"""Role views over the precomputed lexical index: a hidden object's APIs are absent from every kind of hit."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from apiatlas.search.lexical import LexicalIndex, card_fields
from apiatlas.security.config import RoleSettings
from apiatlas.security.roles import RolePolicy, RoleView
from apiatlas.server.config import ServerConfig
from apiatlas.server.navigation import Navigator
from apiatlas.snapshot import Snapshot, write_snapshot
from test_server_catalog import server_catalog

DSEC = {"API_DSec_FindListIDByAccID", "API_DealSecurity_FindListByID"}


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Snapshot]:
    """The server test catalog written with the BM25F arrays the index pass stores."""
    catalog = server_catalog()
    names = {k: o.name for k, o in catalog.objects.items()}
    cards = [(a.key, a.object_key, card_fields(a, names.get(a.object_key, ""))) for a in catalog.kept_apis()]
    out = tmp_path_factory.mktemp("roles") / "bank.atlas"
    write_snapshot(
        catalog, out, options={"source": "tests"}, search_index=LexicalIndex.build(cards).to_blobs()
    )
    with Snapshot.open(out) as snapshot:
        yield snapshot


def hits(snapshot: Snapshot, query: str, object_key: str | None = None) -> list[str]:
    result = Navigator(snapshot, ServerConfig(), "bank_").search(query, object_key, 20)
    return [h.api_key for h in result.hits]


def test_search_of_a_role_view_never_returns_a_hidden_api(indexed: Snapshot) -> None:
    assert indexed.search_index(), "the snapshot carries the precomputed lexical index"
    view = RoleView(indexed, RolePolicy("retail", RoleSettings(objects=["Prs", "Acc"])))
    queries = [
        "сделки с ценными бумагами по счетам",
        "сделок ценых бумаг",
        "API_DSec_FindListIDByAccID",
        "счёт",
    ]
    full = {q: set(hits(indexed, q)) for q in queries}
    assert full[queries[0]] & DSEC and "API_DSec_FindListIDByAccID" in full[queries[2]]  # found when granted
    for query in queries:
        assert not set(hits(view, query)) & DSEC, query
    assert set(hits(view, "счёт")) and set(hits(view, "счёт")) <= set(view.all_api_keys())
    assert hits(view, "сделки", "DSec") == []
    index = LexicalIndex.from_blobs(view.search_index())
    assert index is not None and not set(index.keys) & DSEC and set(index.keys) == set(view.all_api_keys())
    assert all(index.indptr[i] < index.indptr[i + 1] for i in range(len(index.vocab)))  # no empty term
    assert [k for k, _ in view.kept_api_names()] == view.all_api_keys()
