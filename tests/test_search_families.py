"""One resource's operations (``search.families``): within a family, the members doing what the request
orders, or reading when it says it reads, take the family's best places; no family gains a place."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiatlas.catalog.model import Api, ExecutorBinding, Param
from apiatlas.passes.index import SearchIndexing, index_and_write
from apiatlas.search.families import Families, family_of
from apiatlas.search.hybrid import HybridSearch
from apiatlas.search.outcome import SearchMode
from apiatlas.search.tuning import FusionSettings
from apiatlas.snapshot.reader import Snapshot
from apiatlas.text import words


@pytest.mark.parametrize(
    ("key", "family"),
    [
        ("GET /v1/boards", "/v1/boards"),
        ("DELETE /v1/boards/{name}", "/v1/boards"),
        ("GET /v1/teams/{team}/boards/{name}", "/v1/teams/{team}/boards"),
        ("GET /v1/boards/{name}/status", "/v1/boards/{name}/status"),  # a part: a family of its own
        ("GET /notes.history", "/notes"),  # an RPC method: its namespace
        ("POST /admin.notes.archive", "/admin.notes"),
        ("GET /{name}", ""),  # nothing but a parameter
        ("boards.list", ""),  # no HTTP operation
    ],
)
def test_a_family_is_the_collection_path(key: str, family: str) -> None:
    assert family_of(key) == family


def test_the_wanted_kind_takes_the_family_best_places_and_no_family_gains() -> None:
    fused = {
        "POST /v1/boards": 0.9,
        "DELETE /v1/boards/{name}": 0.8,
        "GET /v1/cards": 0.7,
        "GET /v1/boards": 0.6,
        "GET /v1/boards/{name}": 0.5,
    }
    kinds = {"POST /v1/boards": "create", "DELETE /v1/boards/{name}": "delete", "GET /v1/cards": "read"}
    kinds |= {"GET /v1/boards": "read", "GET /v1/boards/{name}": "read"}
    Families().order(fused, kinds, {"read"})
    assert sorted(fused, key=lambda k: -fused[k]) == [
        "GET /v1/boards",  # the reads first, in their own order, in the family's places
        "GET /v1/boards/{name}",
        "GET /v1/cards",  # another family keeps its score and its place
        "POST /v1/boards",
        "DELETE /v1/boards/{name}",
    ]
    assert sorted(fused.values()) == [0.5, 0.6, 0.7, 0.8, 0.9]
    unasked = {"POST /v1/boards": 0.9, "GET /v1/boards": 0.6}
    Families().order(unasked, kinds, set())  # nothing asked: nothing moves
    assert unasked == {"POST /v1/boards": 0.9, "GET /v1/boards": 0.6}


PAGING = " ".join(  # a list's long description of its paging parameters weighs its words down in bm25
    f"The {w} option tells the server how to page, filter and continue the results it returns."
    for w in ("limit", "continue", "selector", "watch", "timeout", "version")
)


def op(key: str, title: str, body: str = "") -> Api:
    return Api(
        key=key,
        object_key="boards",
        title=title,
        description=body,
        params=[Param(name="name", description="name of the object")],
        executor=ExecutorBinding(kind="http", target=key),
    )


BOARDS = [
    op("GET /v1/boards", "list or watch objects of kind Board", PAGING),
    op("POST /v1/boards", "create a Board", "Create a board."),
    op("DELETE /v1/boards/{name}", "delete a Board", "Delete a board."),
    op("GET /v1/cards", "list cards", "List the cards."),
]


def test_a_request_that_says_it_reads_finds_the_read_of_the_family(tmp_path: Path) -> None:
    from plan_catalogs import catalog_of

    path = tmp_path / "boards.atlas"
    index_and_write(
        catalog_of(BOARDS), path, options={"source": "test"}, index=SearchIndexing(None, cache=None)
    )
    with Snapshot.open(path) as snapshot:
        search = HybridSearch(snapshot, None, FusionSettings())
        shown = search.search("show me each board", mode=SearchMode.LEXICAL)
        made = search.search("create a board", mode=SearchMode.LEXICAL)
    assert shown.ranked[0].api_key == "GET /v1/boards", [(h.api_key, h.score) for h in shown.ranked]
    assert made.ranked[0].api_key == "POST /v1/boards", [(h.api_key, h.score) for h in made.ranked]


NOTES = [  # RPC methods of one namespace: the read's card says its words fewer times than the write's
    Api(
        key="GET /notes.history",
        object_key="notes",
        title="Fetches the history of notes",
        description=PAGING,
        executor=ExecutorBinding(kind="http", target="GET /notes.history"),
    ),
    Api(
        key="POST /notes.stamp",
        object_key="notes",
        title="Stamps the latest note of a board",
        description="Stamps the latest note.",
        executor=ExecutorBinding(kind="http", target="POST /notes.stamp"),
    ),
]


def test_a_get_of_an_rpc_namespace_is_its_read(tmp_path: Path) -> None:
    from plan_catalogs import catalog_of

    path = tmp_path / "notes.atlas"
    index_and_write(
        catalog_of(NOTES), path, options={"source": "test"}, index=SearchIndexing(None, cache=None)
    )
    with Snapshot.open(path) as snapshot:
        search = HybridSearch(snapshot, None, FusionSettings())
        shown = search.search("show the latest notes of board b1", mode=SearchMode.LEXICAL)
    assert shown.ranked[0].api_key == "GET /notes.history", [(h.api_key, h.score) for h in shown.ranked]


def test_a_get_named_by_a_change_verb_is_no_read(tmp_path: Path) -> None:
    """``GET /notes.share`` (an RPC method whose name opens with a change verb, as ``demote_unasked``
    reads it) is no read: a request that reads does not lift it over its namespace's other writes."""
    from plan_catalogs import catalog_of

    share = Api(
        key="GET /notes.share",
        object_key="notes",
        title="Shares a note",
        description="Shares a note.",
        executor=ExecutorBinding(kind="http", target="GET /notes.share"),
    )
    path = tmp_path / "notes.atlas"
    index_and_write(
        catalog_of([*NOTES, share]), path, options={"source": "test"}, index=SearchIndexing(None, cache=None)
    )
    with Snapshot.open(path) as snapshot:
        actions = HybridSearch(snapshot, None, FusionSettings()).actions()
        kinds = actions.kinds_of(["GET /notes.history", "GET /notes.share", "POST /notes.stamp"])
    assert kinds == {"GET /notes.history": "read"}


@pytest.mark.parametrize(
    ("request_words", "reads"),
    [
        ("which boards are archived", True),
        ("какие доски есть", True),
        ("how many boards are there", True),
        ("show the boards", True),
        ("how do I freeze board b1", False),  # the way to act, with a verb the lexicon lacks: no read
        ("how to freeze board b1", False),
        ("как заморозить доску b1", False),
        ("freeze board b1", False),
    ],
)
def test_a_question_of_the_way_to_act_says_no_read(tmp_path: Path, request_words: str, reads: bool) -> None:
    from plan_catalogs import catalog_of

    path = tmp_path / "boards.atlas"
    index_and_write(
        catalog_of(BOARDS), path, options={"source": "test"}, index=SearchIndexing(None, cache=None)
    )
    with Snapshot.open(path) as snapshot:
        actions = HybridSearch(snapshot, None, FusionSettings()).actions()
        assert actions.orders_read(words(request_words.lower())) is reads
