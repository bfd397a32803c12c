"""An input named a bare noun whose own description says it takes that thing's id ("ID of card to
delete", "Specify a card by providing its ID") names a kind of thing of the catalog, and a list of those
things feeds it (``language.catalog.described_id``, the REST edges pass); a write is not done to every
item of a list of a kind the request never says ("remove X from board B" is no change to each card of B)."""

from __future__ import annotations

import pytest

from apiatlas.language.catalog import described_id
from apiatlas.planning.planner import Planner
from apiatlas.snapshot import Snapshot
from test_rest_loose_ids import compiled_spec, fed_into

_CARD = "{type: object, properties: {id: {type: string}, name: {type: string}, user: {type: string}}}"
_USER = "{type: object, properties: {id: {type: string}, name: {type: string}, email: {type: string}}}"
_BOARD = "{type: object, properties: {id: {type: string}, name: {type: string}}}"
_OK = "{type: object, properties: {ok: {type: boolean}}}"


def _of(name: str, schema: str) -> str:
    return "{type: object, properties: {" + name + ": " + schema + "}}"


def _listed(name: str, item: str) -> str:
    return _of(name, "{type: array, items: " + item + "}")


def _op(path: str, method: str, summary: str, params: list[tuple[str, str]], out: str) -> str:
    given = ", ".join(
        f"{{name: {n}, in: query, required: false, description: '{d}', schema: {{type: string}}}}"
        for n, d in params
    )
    return f"""\
  {path}:
    {method}:
      description: {summary}
      parameters: [{given}]
      responses: {{'200': {{description: ok, content: {{application/json: {{schema: {out}}}}}}}}}
"""


SPEC = "openapi: 3.0.0\ninfo: {title: Boards, version: '1'}\npaths:\n" + "".join(
    [
        _op("/cards.list", "get", "List cards of a board or of a user.",
            [("board", "Filter cards posted on this board."),
             ("user", "Filter cards created by a single user.")],
            _listed("cards", _CARD)),
        _op("/cards.info", "get", "Gets information about a card.",
            [("card", "Specify a card by providing its ID.")], _of("card", _CARD)),
        _op("/cards.delete", "post", "Deletes a card.", [("card", "ID of card to delete.")], _OK),
        _op("/users.lookupByEmail", "get", "Find a user with an email address.",
            [("email", "An email address belonging to a user.")], _of("user", _USER)),
        _op("/boards.list", "get", "Lists all boards.", [], _listed("boards", _BOARD)),
        _op("/members.kick", "post", "Removes a user from a board.",
            [("board", "ID of board to remove user from."), ("user", "User ID to be removed.")], _OK),
        _op("/boards.cards.remove", "post", "Remove a card from a board.",
            [("card", "Specify a card by providing its ID.")], _OK),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def boards(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "described_ids", SPEC)


def test_an_input_described_as_an_id_names_a_kind() -> None:
    assert described_id("card", "ID of card to delete.") == "card"
    assert described_id("card", "Specify a card by providing its ID.") == "card"
    assert described_id("cards", "The card IDs to move.") == "card"
    assert described_id("type", "Type of the tax ID, one of `eu_vat` …") == ""  # the id of another thing
    assert described_id("name", "Name of the coupon; by default the `id` is shown.") == ""
    assert described_id("destination", "The ID of an external account.") == ""


def test_a_list_of_those_things_feeds_it(boards: Snapshot) -> None:
    assert "card" in boards.vocabulary().kind_set
    assert ("GET /cards.list", "cards[].id") in fed_into(boards, "POST /cards.delete", "card")


def test_every_thing_of_a_list_deleted(boards: Snapshot) -> None:
    chain = Planner(boards, allow=None).plan("delete every card that ann@example.com created").chains[0]
    assert chain.api_keys == ["GET /users.lookupByEmail", "GET /cards.list", "POST /cards.delete"]


def test_no_change_to_each_item_of_a_list_the_request_never_says(boards: Snapshot) -> None:
    chains = Planner(boards, allow=None).plan("remove ann@example.com from the board B0ARD1234").chains
    assert chains[0].api_keys == ["GET /users.lookupByEmail", "POST /members.kick"]
    fanned = ["GET /users.lookupByEmail", "GET /cards.list", "POST /boards.cards.remove"]  # each card of hers
    assert all(c.api_keys != fanned for c in chains)
    every = "remove every card of ann@example.com from the board B0ARD1234"
    chains = Planner(boards, allow=None).plan(every).chains
    assert chains[0].api_keys == fanned
