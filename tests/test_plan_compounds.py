"""A noun of the request as the head of a closed compound an API's title says ("a link" and "Retrieve a
permalink URL"): covered like a word of its name, only when said as a noun (after an article) and only
with at least three letters before it. A real compile of a small spec."""

from __future__ import annotations

import pytest

from apiatlas.language.catalog import CatalogVocabulary
from apiatlas.planning.planner import Planner
from apiatlas.planning.relevance import compound_head, request_words
from apiatlas.snapshot import Snapshot
from test_rest_loose_ids import compiled_spec

SPEC = """\
openapi: 3.0.0
info: {title: Documents, version: '1'}
paths:
  /docs.list:
    get:
      summary: Lists the documents of a workspace
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  documents:
                    type: array
                    items: {type: object, properties: {id: {type: string}, name: {type: string}}}
  /docs.getHyperlink:
    get:
      summary: Retrieve a hyperlink URL for a specific document
      parameters: [{name: document_id, in: query, required: true, schema: {type: string}}]
      responses:
        '200':
          description: ok
          content: {application/json: {schema: {type: object, properties: {hyperlink: {type: string}}}}}
  /docs.bookmark:
    post:
      summary: Add a bookmark to a document
      parameters: [{name: document_id, in: query, required: true, schema: {type: string}}]
      responses: {'200': {description: ok}}
"""


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "compounds", SPEC)


def test_a_compound_s_head_is_its_end_after_three_letters_or_more() -> None:
    assert compound_head(frozenset({"link"}), ["hyperlink", "url"])
    assert not compound_head(frozenset({"link"}), ["link", "url"])  # the word itself: no compound
    assert not compound_head(frozenset({"link"}), ["unlink"])  # two letters before it: a prefix
    assert not compound_head(frozenset({"ink"}), ["hyperink"])  # a head of three letters is too short


def test_a_word_after_an_article_is_said_as_a_noun() -> None:
    words = {w.word: w.heads for w in request_words("Get me a link to my budget", [], CatalogVocabulary())}
    assert words["link"] == frozenset({"link"}) and words["budget"] == frozenset({"budget"})
    said = {w.word: w.heads for w in request_words("Mark the budget as read", [], CatalogVocabulary())}
    assert said["mark"] == frozenset()  # a verb here, not a kind of mark


def _strength(snap: Snapshot, request: str, key: str) -> dict[str, float]:
    ctx = Planner(snap)._read(request, None, dict)
    api = snap.get_api(key)
    assert api is not None
    found = ctx.relevance.strength(api)
    return {ctx.relevance.words[i].word: s for i, s in found.items()}


def test_the_link_asked_is_covered_by_the_api_whose_title_says_a_hyperlink(snap: Snapshot) -> None:
    assert (
        _strength(snap, "Get me a link to the document budget", "GET /docs.getHyperlink").get("link") == 1.0
    )
    assert "link" not in _strength(snap, "Get me a link to the document budget", "GET /docs.list")
    assert "mark" not in _strength(snap, "Mark the document budget as read", "POST /docs.bookmark")
