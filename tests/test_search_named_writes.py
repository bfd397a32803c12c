"""An operation whose method and path say no action (an RPC method, a ``POST`` to a literal) but whose
name opens with a verb ordering a change is a write: a request that orders no change does not want it."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiatlas.catalog.model import Api, ExecutorBinding, Param
from apiatlas.language.actions import WRITE_WORDS, orders_write
from apiatlas.passes.index import SearchIndexing, index_and_write
from apiatlas.search.api_actions import ApiActions, name_verb
from apiatlas.search.hybrid import HybridSearch
from apiatlas.search.outcome import SearchMode
from apiatlas.search.tuning import FusionSettings
from apiatlas.snapshot.reader import Snapshot
from apiatlas.text import words


@pytest.mark.parametrize(
    ("key", "write"),
    [
        ("POST /chat.postMessage", True),  # post
        ("POST /boards.setTopic", True),  # set
        ("POST /admin.groups.addBoards", True),  # add
        ("POST /v1/orders/{id}/send", True),  # a POST to a literal that is a change verb
        ("GET /files.remote.share", True),  # the method says nothing of an RPC method: its name does
        ("GET /boards.info", False),  # no verb
        ("GET /users.getPresence", False),  # a read verb
        ("GET /users.boards", False),  # a noun
        ("POST /v1/orders/{id}/finalize", False),  # no verb of the lexicon
        ("GET /v1/orders", False),  # the method and path say it (a list): not read off the name
        ("usp_Order_Close", False),  # a procedure: its own action (``procedure_action``)
        ("GET /tags.tagList", False),  # a change verb opening a name that ends with a read verb: a read
        ("GET /pulls.open_list", False),
        ("POST /files.listAdd", False),  # (a read verb opening it: no change verb opens it)
    ],
)
def test_a_name_opening_with_a_change_verb_is_a_write(key: str, write: bool) -> None:
    assert (name_verb(key) in WRITE_WORDS) is write


def rpc(key: str, title: str, params: list[str]) -> Api:
    return Api(
        key=key,
        object_key=key.split("/")[1].split(".")[0],
        title=title,
        description=title,
        params=[Param(name=p, description=f"The board's {p}.") for p in params],
        executor=ExecutorBinding(kind="http", target=key),
    )


BOARDS = [
    rpc("POST /boards.setTopic", "Sets the topic of a board", ["board", "topic"]),
    rpc("POST /boards.setPurpose", "Sets the purpose of a board", ["board", "purpose"]),
    rpc("GET /boards.info", "Information about a board", ["board", "topic", "purpose", "include_locale"]),
    rpc("GET /boards.list", "Lists all boards", ["cursor", "limit"]),
    rpc("POST /boards.reset", "Resets a board", ["board"]),
]


def scores(path: Path, query: str, word_forms: bool = False) -> dict[str, float]:
    with Snapshot.open(path) as snapshot:
        search = HybridSearch(snapshot, None, FusionSettings())
        outcome = search.search(query, mode=SearchMode.LEXICAL, word_forms=word_forms)
    return {hit.api_key: hit.score for hit in outcome.ranked}


def demoted(path: Path, query: str, factor: float) -> dict[str, float]:
    """What the demotions alone leave of a score of 1.0 for each of the catalog's operations (the search
    then orders one resource's operations, ``search.families``, which hands the scores out again)."""
    with Snapshot.open(path) as snapshot:
        actions = HybridSearch(snapshot, None, FusionSettings()).actions()
        said = words(query)
        fused = {api.key: 1.0 for api in BOARDS}
        actions.demote_unasked(fused, said, actions.requested(said), factor)
    return fused


def test_a_request_that_orders_no_change_demotes_the_methods_named_by_a_change_verb(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import apiatlas.search.hybrid as hybrid
    from plan_catalogs import catalog_of

    path = tmp_path / "boards.atlas"
    index_and_write(
        catalog_of(BOARDS), path, options={"source": "test"}, index=SearchIndexing(None, cache=None)
    )
    read, write = "what is the topic of board b1?", "set the topic of board b1"
    # a verb the language's lexicon lacks, but a candidate's name opens with: ordered
    named = "reset the topic of board b1"
    found = {q: demoted(path, q, 0.5) for q in (read, write, named)}
    # the read: both setters halved, the reads kept; the order of a change: nothing demoted
    for key in ("POST /boards.setTopic", "POST /boards.setPurpose"):
        assert found[read][key] == 0.5
    for key in ("GET /boards.info", "GET /boards.list", "POST /boards.reset"):  # "reset": no verb known
        assert found[read][key] == 1.0
    assert set(found[write].values()) == {1.0}
    assert set(found[named].values()) == {1.0}
    # the searches: the read first for the read, the setter first for its order
    assert next(iter(scores(path, read))) == "GET /boards.info"
    assert next(iter(scores(path, write))) == "POST /boards.setTopic"
    # the planner's reading (``word_forms``) weighs a request's orders itself: nothing demoted by a name
    monkeypatch.setattr(hybrid, "ACTION_MISMATCH", 1.0)
    plain = scores(path, read, word_forms=True)["POST /boards.setTopic"]
    monkeypatch.setattr(hybrid, "ACTION_MISMATCH", 0.5)
    assert scores(path, read, word_forms=True)["POST /boards.setTopic"] == pytest.approx(plain, abs=1e-3)


def test_a_read_verb_opening_a_read_name_does_not_stop_the_demotion(
    tmp_path: Path,
) -> None:
    """"list …" opens ``/boards.list``'s name: the request reads, the setters stay demoted."""
    from plan_catalogs import catalog_of

    path = tmp_path / "boards.atlas"
    index_and_write(
        catalog_of(BOARDS), path, options={"source": "test"}, index=SearchIndexing(None, cache=None)
    )
    found = demoted(path, "list the boards with their topic", 0.5)
    assert found["POST /boards.setTopic"] == 0.5
    assert found["GET /boards.list"] == 1.0


@pytest.mark.parametrize(
    ("word", "write"),
    [("удалите", True), ("создайте", True), ("пригласите", True), ("удали", True), ("почте", False)],
)
def test_a_russian_polite_imperative_orders_the_change_its_verb_does(word: str, write: bool) -> None:
    """«Удалите сообщение …» orders a delete as «удали» does: a request so worded demotes no write."""
    assert orders_write(word) is write


def test_a_polite_russian_order_demotes_no_operation_named_by_a_change_verb(tmp_path: Path) -> None:
    from plan_catalogs import catalog_of

    path = tmp_path / "boards.atlas"
    index_and_write(
        catalog_of(BOARDS), path, options={"source": "test"}, index=SearchIndexing(None, cache=None)
    )
    with Snapshot.open(path) as snapshot:
        fused = {api.key: 1.0 for api in BOARDS}
        said = ["установите", "topic", "board", "b1"]
        ApiActions(snapshot, None, None).demote_unasked(fused, said, {}, 0.5)
    assert fused["POST /boards.setTopic"] == 1.0


def test_a_verb_asking_with_its_object_orders_no_change_for_the_demotion(tmp_path: Path) -> None:
    """«выдай список …» asks for a list (``language.actions.ASKING_WITH``): the setters drop under it."""
    from plan_catalogs import catalog_of

    path = tmp_path / "boards.atlas"
    index_and_write(
        catalog_of(BOARDS), path, options={"source": "test"}, index=SearchIndexing(None, cache=None)
    )
    with Snapshot.open(path) as snapshot:
        asked, ordered = {api.key: 1.0 for api in BOARDS}, {api.key: 1.0 for api in BOARDS}
        actions = ApiActions(snapshot, None, None)
        actions.demote_unasked(asked, ["выдай", "список", "topic", "boards"], {}, 0.5)
        actions.demote_unasked(ordered, ["выдай", "доступ", "к", "boards"], {}, 0.5)
    assert asked["POST /boards.setTopic"] == 0.5
    assert ordered["POST /boards.setTopic"] == 1.0  # «выдай доступ»: a grant
