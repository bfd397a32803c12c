"""One HTTP operation under two paths (``search.twins``): a variant under an extra path segment ranks
under its plain twin unless the request says that segment,
a request asking for every item of a path's scope finds the unscoped twin, and an operation on a part
of an item (``…/boards/{name}/status``) is on the resource the request names in the singular."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiatlas.catalog.model import Api, ExecutorBinding, Param
from apiatlas.passes.index import SearchIndexing, index_and_write
from apiatlas.search.hybrid import HybridSearch
from apiatlas.search.outcome import SearchMode
from apiatlas.search.tuning import FusionSettings
from apiatlas.search.twins import Twins, insertions, scopes, version_twin
from apiatlas.snapshot.reader import Snapshot


def op(key: str, title: str, body: str = "") -> Api:
    path = key.split(" ", 1)[1]
    return Api(
        key=key,
        object_key=path.strip("/").split("/")[0],
        title=title,
        description=body,
        params=[Param(name="name", description="name of the object")],
        executor=ExecutorBinding(kind="http", target=key),
    )


@pytest.mark.parametrize(
    ("key", "twin"),
    [
        ("GET /apis/garden/v1/teams/{team}/boards", "GET teams/{team}/boards"),
        ("GET /v2beta1/boards/{name}", "GET boards/{name}"),
        ("GET /apis/garden/v1/", ""),  # nothing but the version: every group's root, no twins
        ("GET /boards", ""),  # no version segment
        ("boards.list", ""),  # no HTTP operation
    ],
)
def test_a_version_twin_is_the_path_after_its_last_version(key: str, twin: str) -> None:
    assert version_twin(key) == twin


def test_version_twins_of_a_named_resource_follow_the_best_scored_one() -> None:
    keys = ["GET /a/v1/boards", "GET /b/v2/boards", "GET /a/v1/cards", "GET /b/v2/cards", "POST /b/v2/boards"]
    twins = Twins(keys)
    fused = {"GET /b/v2/boards": 1.0, "GET /a/v1/cards": 0.9, "GET /a/v1/boards": 0.5}
    twins.lift(fused, ["list", "boards"], 0.9, on_named={"GET /b/v2/boards", "GET /a/v1/boards"})
    order = sorted(fused, key=lambda k: -fused[k])
    assert order == ["GET /b/v2/boards", "GET /a/v1/boards", "GET /a/v1/cards"]  # cards: not named
    assert "POST /b/v2/boards" not in fused  # another method: no twin


def test_a_scope_is_a_literal_and_its_parameter_with_more_path_after_them() -> None:
    assert scopes("GET /v1/teams/{team}/boards") == [("teams", "GET /v1/boards")]
    assert scopes("GET /v1/teams/{team}") == []  # the item itself, not a scope
    assert insertions("GET /v1/archive/boards") == [
        ("v1", "GET /archive/boards"),
        ("archive", "GET /v1/boards"),
    ]


def test_a_variant_under_an_extra_segment_ranks_under_its_plain_twin_unless_named() -> None:
    twins = Twins(["GET /v1/boards", "GET /v1/archive/boards"])
    fused = {"GET /v1/archive/boards": 1.0, "GET /v1/boards": 0.8}
    twins.lift(fused, ["list", "boards"], 0.9)
    assert fused["GET /v1/archive/boards"] < fused["GET /v1/boards"]
    named = {"GET /v1/archive/boards": 1.0, "GET /v1/boards": 0.8}
    twins.lift(named, ["list", "archive", "boards"], 0.9)
    assert named["GET /v1/archive/boards"] == 1.0
    joined = Twins(["GET /v1/boards", "GET /v1/test_helpers/boards"])
    said = {"GET /v1/test_helpers/boards": 1.0, "GET /v1/boards": 0.8}
    joined.lift(said, ["the", "test", "helpers", "boards"], 0.9)  # its segment said in two words
    assert said["GET /v1/test_helpers/boards"] == 1.0


@pytest.mark.parametrize(
    ("said", "first"),
    [
        (["boards", "of", "every", "team"], "GET /v1/boards"),
        (["boards", "across", "all", "the", "teams"], "GET /v1/boards"),
        (["boards", "of", "team", "red"], "GET /v1/teams/{team}/boards"),  # one team: the scoped one
        (["all", "boards", "of", "team", "red"], "GET /v1/teams/{team}/boards"),  # "all" of the boards
        (["all", "team", "boards", "of", "team", "red"], "GET /v1/teams/{team}/boards"),  # "team boards"
        (["every", "team", "board", "list"], "GET /v1/teams/{team}/boards"),  # "team" names the boards
        (["all", "teams", "boards"], "GET /v1/boards"),  # the teams' boards: every team
    ],
)
def test_every_item_of_a_scope_wants_the_unscoped_twin(said: list[str], first: str) -> None:
    twins = Twins(["GET /v1/teams/{team}/boards", "GET /v1/boards"])
    fused = {"GET /v1/teams/{team}/boards": 1.0, "GET /v1/boards": 0.6}
    twins.lift(fused, said, 0.9)
    assert max(fused, key=lambda k: fused[k]) == first


SCOPED = [  # the scoped list says "team" and "boards"; the list of every team's boards says less
    op("GET /v1/teams/{team}/boards", "list boards of a team", "List the boards of one team."),
    op("GET /v1/boards", "list boards", "List objects of kind Board."),
    op("GET /v1/teams/{team}/boards/{name}/log", "read log of a team board", "Read the board's log."),
]


def test_a_request_for_every_item_of_the_scope_finds_the_unscoped_operation(tmp_path: Path) -> None:
    from plan_catalogs import catalog_of

    path = tmp_path / "scoped.atlas"
    index_and_write(
        catalog_of(SCOPED), path, options={"source": "test"}, index=SearchIndexing(None, cache=None)
    )
    with Snapshot.open(path) as snapshot:
        search = HybridSearch(snapshot, None, FusionSettings())
        every = search.search("show the boards of every team", mode=SearchMode.LEXICAL)
        one = search.search("show the boards of team red", mode=SearchMode.LEXICAL)
    assert every.ranked[0].api_key == "GET /v1/boards", [(h.api_key, h.score) for h in every.ranked]
    assert one.ranked[0].api_key == "GET /v1/teams/{team}/boards", [(h.api_key, h.score) for h in one.ranked]


PARTS = [  # a board's status is a part of the board; another resource's read says "board" more often
    op("GET /v1/boards/{name}", "read the specified Board", "Read one board."),
    op(
        "GET /v1/boards/{name}/status",
        "read status of the specified Board",
        "Read the current status, conditions and phase of a board.",
    ),
    op("GET /v1/board_cards/{name}", "read the specified BoardCard", "Read a card as the board shows it."),
]


def test_a_part_of_an_item_is_on_the_resource_named_in_the_singular(tmp_path: Path) -> None:
    from plan_catalogs import catalog_of

    path = tmp_path / "parts.atlas"
    index_and_write(
        catalog_of(PARTS), path, options={"source": "test"}, index=SearchIndexing(None, cache=None)
    )
    with Snapshot.open(path) as snapshot:
        found = HybridSearch(snapshot, None, FusionSettings()).search(
            "what does board main say now", mode=SearchMode.LEXICAL
        )
    order = [h.api_key for h in found.ranked]
    assert order.index("GET /v1/boards/{name}/status") < order.index("GET /v1/board_cards/{name}"), order


def test_the_version_twin_of_a_part_of_a_named_item_follows_it(tmp_path: Path) -> None:
    from plan_catalogs import catalog_of

    path = tmp_path / "versions.atlas"
    terse = op("GET /v2/boards/{name}/status", "Status", "")  # says next to nothing: found as a twin
    index_and_write(
        catalog_of([*PARTS, terse]), path, options={"source": "test"}, index=SearchIndexing(None, cache=None)
    )
    with Snapshot.open(path) as snapshot:
        found = HybridSearch(snapshot, None, FusionSettings()).search(
            "what does board main say now", mode=SearchMode.LEXICAL
        )
    order = [h.api_key for h in found.ranked]
    assert order[:3] == ["GET /v1/boards/{name}", "GET /v1/boards/{name}/status", terse.key], order


SINGULAR_PATHS = [  # a catalog writing its collections in the singular (``/board/{name}``)
    op(k.replace("/boards/", "/board/").replace("/board_cards/", "/board_card/"), a.title, a.description)
    for a in PARTS
    for k in [a.key]
]


def test_a_part_of_an_item_is_on_a_resource_the_path_writes_in_the_singular(tmp_path: Path) -> None:
    from plan_catalogs import catalog_of

    path = tmp_path / "singular.atlas"
    index_and_write(
        catalog_of(SINGULAR_PATHS), path, options={"source": "test"}, index=SearchIndexing(None, cache=None)
    )
    with Snapshot.open(path) as snapshot:
        found = HybridSearch(snapshot, None, FusionSettings()).search(
            "what does board main say now", mode=SearchMode.LEXICAL
        )
    order = [h.api_key for h in found.ranked]
    assert order.index("GET /v1/board/{name}/status") < order.index("GET /v1/board_card/{name}"), order


def test_every_item_of_a_scope_read_across_scripts() -> None:
    """«события всех неймспейсов»: the request's words as the bridge reads them name the scope."""
    twins = Twins(["GET /v1/namespaces/{namespace}/events", "GET /v1/events"])
    said = ["покажи", "события", "всех", "неймспейсов"]
    fused = {"GET /v1/namespaces/{namespace}/events": 1.0, "GET /v1/events": 0.6}
    unread = dict(fused)
    twins.lift(unread, said, 0.9)  # the Russian words alone name no collection of the catalog's
    assert max(unread, key=lambda k: unread[k]) == "GET /v1/namespaces/{namespace}/events"
    read = dict(fused)
    twins.lift(read, said, 0.9, read=["покажи", "events", "всех", "namespace"])
    assert max(read, key=lambda k: read[k]) == "GET /v1/events"
