"""The text of a thing written, said unquoted after a saying-word or a colon ("Post to board ops saying the
backup finished", «с текстом …»): one stated value filling the write's input of text, its words no request
words the chain must cover (``said_body``)."""

from __future__ import annotations

import pytest

from apiatlas.planning.binding import slots
from apiatlas.planning.planner import Planner
from apiatlas.planning.said_body import body_quoted, body_span, head_apis, takes_text
from apiatlas.snapshot import Snapshot
from test_plan_members import OK, _of, _op
from test_rest_loose_ids import compiled_spec

BOARD = "{type: object, properties: {id: {type: string}, name: {type: string}}}"
BOARDS = _of("boards", "{type: array, items: " + BOARD + "}")
SPEC = "openapi: 3.0.0\ninfo: {title: Boards, version: '1'}\npaths:\n" + "".join(
    [
        _op("/boards.list", "get", "List all boards", [], BOARDS),
        _op("/notes.post", "post", "Posts a note to a board", [("board", True), ("text", False)], OK),
        _op("/notes.search", "get", "Search notes", [("text", True)], OK),
        _op("/boards.create", "post", "Creates a board", [("name", True)], OK),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def boards(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "said_body", SPEC)


def _text_of(snap: Snapshot, request: str) -> tuple[object, float]:
    top = Planner(snap, confidence=None).plan(request).chains[0]
    post = next(s for s in top.steps if s.api == "POST /notes.post")
    return next((i.value for i in post.inputs if i.name == "text"), None), top.uncovered


@pytest.mark.parametrize(
    "said",
    [
        "Post a note to board ops saying the backup of the files finished at noon",
        "Post a note to board ops with the text the backup of the files finished at noon",
        "Post a note to board ops: the backup of the files finished at noon",
    ],
)
def test_an_unquoted_body_fills_the_text_and_leaves_no_word_uncovered(boards: Snapshot, said: str) -> None:
    body = "the backup of the files finished at noon"
    text, uncovered = _text_of(boards, said)
    assert text == body
    assert _text_of(boards, said.replace(body, f'"{body}"')) == (text, uncovered)  # as if quoted


def test_where_a_body_ends_and_what_takes_one(boards: Snapshot) -> None:
    request = "Post to board ops saying the backup is done, then archive it"
    span = body_span(request)
    assert span is not None and request[span[0] : span[1]] == "the backup is done"
    assert body_span("Post to board ops saying hi") is None  # one word: no text of a thing written
    assert body_span('Post to board ops saying "the backup is done"') is None  # quoted: read as such
    assert body_span("Напиши в канал general с текстом сборка прошла") is not None
    assert body_span("Meet at 12:30 today") is None  # a time's colon is no mark
    post, search = boards.get_api("POST /notes.post"), boards.get_api("GET /notes.search")
    assert post is not None and takes_text(post)
    assert search is not None and not takes_text(search)  # a read writes no text


def test_a_body_the_planned_write_takes_no_input_for_stays_request_words(boards: Snapshot) -> None:
    # the head's search finds ``notes.post`` (it takes a text), but the plan creates a board, which takes none
    planner = Planner(boards, confidence=None)
    request = "Create a board named ops with message hello world today"
    heads = lambda head: head_apis(head, planner.search, planner.cache)  # noqa: E731
    assert body_quoted(request, heads) != request  # read as a body at first
    result = planner.plan(request)
    assert result.chains[0].api_keys == ["POST /boards.create"]
    assert not any(value.kind == "body" for value in result.values)


def _described(path: str, summary: str, params: list[tuple[str, str]]) -> str:
    one = "{{name: {}, in: query, required: false, description: '{}', schema: {{type: string}}}}"
    given = ", ".join(one.format(n, d) for n, d in params)
    return f"  {path}:\n    post:\n      summary: {summary}\n      parameters: [{given}]\n" + (
        "      responses: {'200': {description: ok, content: {application/json: {schema: " + OK + "}}}}\n"
    )


STARS = "openapi: 3.0.0\ninfo: {title: Stars, version: '1'}\npaths:\n" + "".join(
    [
        _described("/stars.add", "Adds a star to an item", [("note", "Note to add star to."),
                   ("note_comment", "Note comment to add star to.")]),
        _described("/comments.delete", "Deletes a comment", [("comment_id", "The comment to delete.")]),
        _described("/notes.post", "Posts a note", [("text", "Text of the note."),
                   ("description", "An optional description of what the note is used for.")]),
    ]
)  # fmt: skip


def test_an_input_naming_a_comment_to_act_on_takes_no_body(tmp_path_factory: pytest.TempPathFactory) -> None:
    snap = compiled_spec(tmp_path_factory, "said_body_ids", STARS)
    keys = ("POST /stars.add", "POST /comments.delete", "POST /notes.post")
    star, delete, post = (snap.get_api(k) for k in keys)
    assert star is not None and delete is not None and post is not None
    assert not takes_text(star) and not takes_text(delete)  # a comment to star, a comment's id: things named
    assert {s.name for s in slots(post) if s.texted} == {"text", "description"}  # a text; what a thing is for
    request = "Add a star to the note comment with the text the backup of the files finished"
    for chain in Planner(snap, confidence=None).plan(request).chains:
        said = [i.name for s in chain.steps for i in s.inputs if i.origin == "request"]
        assert "note_comment" not in said


def test_a_quoted_text_said_after_a_mark_still_fills_a_search(boards: Snapshot) -> None:
    # "with the text" marks the quote a body, but a read searches by it as by any quoted text
    top = Planner(boards, confidence=None).plan('Search notes with the text "backup failed"').chains[0]
    assert top.api_keys == ["GET /notes.search"]
    said = [(i.name, i.value) for i in top.steps[0].inputs if i.origin == "request"]
    assert said == [("text", "backup failed")]


def test_an_unquoted_text_a_read_would_search_by_stays_request_words(boards: Snapshot) -> None:
    # the head finds ``notes.post`` (a text written), but the plan searches notes: no body written
    request = "Search notes with the text the backup of the files failed"
    result = Planner(boards, confidence=None).plan(request)
    assert result.chains[0].api_keys == ["GET /notes.search"]
    assert not any(value.kind == "body" for value in result.values)


def test_a_plan_of_a_said_body_speaks_of_the_request_as_said(boards: Snapshot) -> None:
    request = "Post a note to board qa saying the backup of the files finished and notes search"
    result = Planner(boards).plan(request)
    assert any(v.kind == "body" for v in result.values) and result.request == request
    assert result.unclear and all('"' not in note for note in result.unclear)  # no quotes it never said
