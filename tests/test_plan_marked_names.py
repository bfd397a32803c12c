"""Names said without their kind: ``#`` written right before a word marks it as a name wherever it stands
("in #ops and pin it"), the mark not part of it; and such a name fills an input named for a kind of the
catalog whose description says it takes names ("an ID, or a name"), with no lookup before it — an input
taking ids only still has the name picked from a list of named items."""

from __future__ import annotations

import pytest

from apiatlas.catalog.model import Api, Param
from apiatlas.language.catalog import CatalogVocabulary
from apiatlas.planning.lookups import names_fill
from apiatlas.planning.planner import Planner
from apiatlas.planning.said_names import bare_names
from apiatlas.planning.values import extract_values
from apiatlas.snapshot import Snapshot
from test_plan_newest import SPEC as BOARDS
from test_rest_loose_ids import compiled_spec

POST = """\
  /notes.post:
    post:
      summary: Posts a note to a board
      parameters:
        - name: board
          in: query
          required: true
          description: "Board to post to. An ID, or a name."
          schema: {type: string}
        - {name: text, in: query, required: true, description: The note's text, schema: {type: string}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: object, properties: {board: {type: string}, ts: {type: string}}}
"""


@pytest.fixture(scope="module")
def boards(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "marked_names", BOARDS + POST)


def test_a_word_marked_as_a_name() -> None:
    vocabulary = CatalogVocabulary(kinds=["board"], named_inputs=["board"])
    found = bare_names("Post 'hi' in #q3-ops and pin it", vocabulary, [], frozenset())
    assert [(f.value, f.hint) for f in found] == [("q3-ops", "")]
    found = bare_names("share the link with #ops too", vocabulary, [], frozenset())  # marked: no place needed
    assert [f.value for f in found] == ["ops"]
    assert bare_names("Post 'hi' in the room and pin it", vocabulary, [], frozenset()) == []


def test_a_bare_name_fills_an_input_taking_names(boards: Snapshot) -> None:
    planner = Planner(boards, allow=None)
    result = planner.plan("Post 'deploy done' in #ops")
    assert result.chains and result.chains[0].api_keys == ["POST /notes.post"]
    board = next(i for i in result.chains[0].steps[0].inputs if i.name == "board")
    assert (board.origin, board.value) == ("request", "ops")
    pinned = planner.plan("Pin the latest note in #ops")  # the pin takes ids: picked from the list
    assert pinned.chains and pinned.chains[0].api_keys == [
        "GET /boards.list", "GET /notes.history", "POST /notes.pin"
    ]  # fmt: skip


def test_a_marked_word_in_a_quoted_message_is_no_name(boards: Snapshot) -> None:
    """A hashtag ending a message in single quotes is part of the message, not the board posted to (the
    quote closing right after it once kept the word from the words of the message)."""
    vocabulary = CatalogVocabulary(kinds=["board"], named_inputs=["board"])
    text = "Post 'we shipped #launch' in ops"
    quoted = [f for f in extract_values(text, vocabulary) if f.text.startswith("'")]
    assert [f.value for f in bare_names(text, vocabulary, quoted, frozenset())] == ["ops"]
    result = Planner(boards, allow=None).plan(text)
    assert result.chains and result.chains[0].api_keys == ["POST /notes.post"]
    board = next(i for i in result.chains[0].steps[0].inputs if i.name == "board")
    assert (board.origin, board.value) == ("request", "ops")


def test_the_place_named_comes_before_what_is_posted(boards: Snapshot) -> None:
    """The object of the verb opening the request is what is posted when a place is named after it in the
    same part ("Post hello to #ops"): the place fills the board taking names, not the message's word."""
    vocabulary = CatalogVocabulary(kinds=["board"], named_inputs=["board"])
    hello = bare_names("Post hello to #ops", vocabulary, [], frozenset())
    assert [f.value for f in hello] == ["ops", "hello"]
    assert [f.value for f in bare_names("Post deploy done to ops", vocabulary, [], frozenset())] == [
        "ops", "deploy"
    ]  # fmt: skip
    archived = bare_names("Archive general and post hi in ops", vocabulary, [], frozenset())
    assert [f.value for f in archived] == ["general", "ops"]  # another part: the archive's object first
    for text in ("Post hello to #ops", "Post deploy done to ops"):
        chain = Planner(boards, allow=None).plan(text).chains[0]
        post = chain.steps[chain.api_keys.index("POST /notes.post")]
        board = next(i for i in post.inputs if i.name == "board")
        assert (board.origin, board.value) == ("request", "ops"), text


def _board_input(description: str) -> Api:
    board = Param(name="board", location="query", required=True, description=description)
    return Api(key="POST /notes.flag", object_key="", params=[board])


def test_an_input_saying_it_takes_no_names_takes_no_bare_name() -> None:
    """A name said without its kind fills an input whose description says it takes names, not one whose
    description names names only to say it takes none."""
    kinds = frozenset({"board"})
    assert names_fill(_board_input("Board to flag in. An ID, or a name."), "board", "", lambda: True, kinds)
    for said in ("The board's ID, not its name.", "A board ID (never a name)."):
        assert not names_fill(_board_input(said), "board", "", lambda: True, kinds), said
