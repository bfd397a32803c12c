"""Plan confidence and the request's words: what ``unclear`` says of the words a chain covers is true of
the chain the plan takes (a chain run once per name, "the images of the movie X and the show Y", covers
what its two halves cover), and a request without words (a name or an id alone) is no surer for it: its
chain leaves one unsaid word uncovered, not none."""

from __future__ import annotations

import pytest

from apiatlas.planning.confidence import PlanConfidenceModel
from apiatlas.planning.planner import Planner
from apiatlas.snapshot import Snapshot
from test_plan_members import _of, _op
from test_plan_review_cases import _by_path
from test_rest_loose_ids import compiled_spec

ITEM = "{type: object, properties: {id: {type: string}, name: {type: string}}}"
_FOUND = _of("results", "{type: array, items: " + ITEM + "}")
_IMAGES = _of("posters", "{type: array, items: {type: object, properties: {file_path: {type: string}}}}")
SPEC = "openapi: 3.0.0\ninfo: {title: Films, version: '1'}\npaths:\n" + "".join(
    [
        _op("/search/movie", "get", "Search for movies", [("query", True)], _FOUND),
        _by_path("/movie/{movie_id}/images", "get", "Get the images of a movie", "movie_id", _IMAGES),
        _op("/search/tv", "get", "Search for TV shows", [("query", True)], _FOUND),
        _by_path("/tv/{tv_id}/images", "get", "Get the images of a TV show", "tv_id", _IMAGES),
    ]
)  # fmt: skip
# never confident: ``unclear`` is said of every plan
DOUBTFUL = PlanConfidenceModel(
    signals=["score"], weights=[0.0], center=[0.0], scale=[1.0], bias=0.0, threshold=0.9
)


@pytest.fixture(scope="module")
def films(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "confidence_words", SPEC)


def test_a_chain_run_once_per_name_covers_what_its_halves_cover(films: Snapshot) -> None:
    request = "Give me the images of the movie Titanic and the show Friends"
    result = Planner(films, confidence=DOUBTFUL).plan(request)
    top = result.chains[0]
    assert top.api_keys == [
        "GET /search/movie", "GET /movie/{movie_id}/images", "GET /search/tv", "GET /tv/{tv_id}/images"
    ]  # fmt: skip
    assert any(w.startswith("then the same from") for w in top.why)  # ``entities.joined``
    assert top.covered > 0 and top.uncovered == 0  # the show's half covers both words, "images" and "show"
    assert not any("cover 0%" in line for line in result.unclear)


def test_a_request_without_words_leaves_its_one_unsaid_word_uncovered(films: Snapshot) -> None:
    # the chain is chosen on a name alone, no word of the request matched: as unsure of its words as a
    # one-word request its chain misses (``covered`` 0 of max(1, words), as the share has always read it)
    top = Planner(films, confidence=None).plan('"Titanic"').chains[0]
    assert top.covered == 0 and top.uncovered == 1.0
    said = Planner(films, confidence=None).plan("Get the images of the movie Titanic").chains[0]
    assert said.uncovered < top.uncovered
