"""Role views over the precomputed lexical index: a hidden object's APIs are absent from every kind of hit."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from apiatlas.errors import ReasonCode
from apiatlas.search.lexical import DROPPED_PREFIX, LexicalIndex, card_fields
from apiatlas.security.config import RoleSettings
from apiatlas.security.roles import RolePolicy, RoleView, RoleViewRefusal
from apiatlas.server.config import ServerConfig
from apiatlas.server.navigation import Navigator
from apiatlas.snapshot import CatalogReader, Snapshot, write_snapshot
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


def test_a_reader_method_the_view_does_not_filter_is_refused(
    indexed: Snapshot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A method added to Snapshot later (here: by the test) is not inherited by a role's view."""

    def all_api_titles(self: Snapshot) -> list[str]:
        return [title for _key, title in self.kept_api_names()]

    monkeypatch.setattr(Snapshot, "all_api_titles", all_api_titles, raising=False)
    assert len(indexed.all_api_titles()) == len(indexed.all_api_keys())  # type: ignore[attr-defined]
    view = RoleView(indexed, RolePolicy("retail", RoleSettings(objects=["Prs", "Acc"])))
    with pytest.raises(RoleViewRefusal) as refused:
        view.all_api_titles  # noqa: B018 - reading the attribute is what is refused
    assert refused.value.code is ReasonCode.TOOL_EXECUTION_ERROR
    assert refused.value.location.anchor == "RoleView.all_api_titles"
    assert not hasattr(view, "_rows") and not hasattr(view, "_conn")  # no raw SQL through a view
    assert not isinstance(view, Snapshot)
    # what it does filter still answers, filtered
    hidden = next(iter(DSEC))
    assert indexed.api_input_schema(hidden) is not None
    assert view.get_api(hidden) is None and view.api_input_schema(hidden) is None
    assert view.writes_enabled(hidden) is False and indexed.writes_enabled(hidden) is False


def test_snapshot_and_role_view_both_satisfy_the_catalog_reader_protocol(indexed: Snapshot) -> None:
    """Every method of CatalogReader is defined on both (so the server serves either unchanged)."""
    view = RoleView(indexed, RolePolicy("retail", RoleSettings(objects=["Prs", "Acc"])))
    members = [n for n in vars(CatalogReader) if not n.startswith("_")] + ["path"]
    for name in members:
        assert callable(getattr(view, name)) or name == "path", name
        assert hasattr(indexed, name), name


def test_a_role_view_names_no_dropped_api_of_an_object_it_is_not_granted(tmp_path: Path) -> None:
    """The search names a dropped API that fits an abstained request; never one of an ungranted object."""
    catalog = server_catalog()
    names = {k: o.name for k, o in catalog.objects.items()}
    dropped = [a for a in catalog.apis.values() if not a.funnel.kept]
    assert [a.object_key for a in dropped] == ["Acc"]
    blobs = LexicalIndex.build(
        (a.key, a.object_key, card_fields(a, names.get(a.object_key, ""))) for a in catalog.kept_apis()
    ).to_blobs()
    unkept = LexicalIndex.build((a.key, a.funnel.dropped_at or "", card_fields(a, "")) for a in dropped)
    blobs.update({DROPPED_PREFIX + k: v for k, v in unkept.to_blobs().items()})
    out = tmp_path / "bank.atlas"
    write_snapshot(catalog, out, options={"source": "tests"}, search_index=blobs)
    with Snapshot.open(out) as snapshot:
        for objects, seen in ((["Prs", "DSec"], set()), (["Acc"], {dropped[0].key})):
            view = RoleView(snapshot, RolePolicy("r", RoleSettings(objects=objects)))
            index = LexicalIndex.from_blobs(view.search_index(), DROPPED_PREFIX)
            assert index is not None and set(index.keys) == seen, objects
            assert LexicalIndex.from_blobs(view.search_index()) is not None  # the kept index is still there
