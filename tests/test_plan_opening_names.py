"""A sentence's first word before a kind of the catalog is its verb only when an id-like name follows
the kind ("Cordon node worker-5"); a bare number after the kind is a year or a count, and the first word
the name of a thing ("Titanic movie 1997 cast": the movie Titanic, looked up by its title)."""

from __future__ import annotations

import pytest

from apiatlas.planning.planner import Planner
from apiatlas.planning.values import ENTITY, extract_values
from apiatlas.snapshot import Snapshot
from test_plan_members import _of, _op
from test_plan_review_cases import _by_path
from test_rest_loose_ids import compiled_spec

MOVIE = "{type: object, properties: {id: {type: integer}, title: {type: string}, released: {type: string}}}"
FILMS = "openapi: 3.0.0\ninfo: {title: Films, version: '1'}\npaths:\n" + "".join(
    [
        _op("/search/movie", "get", "Search for movies by their title", [("query", True), ("year", False)],
            _of("results", "{type: array, items: " + MOVIE + "}")),
        _by_path("/movie/{movie_id}", "get", "Get the primary information about a movie", "movie_id", MOVIE),
        _by_path("/movie/{movie_id}/credits", "get", "Get the cast and crew for a movie", "movie_id", MOVIE),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def films(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "opening_names_films", FILMS)


def test_a_title_before_a_kind_and_a_year_is_a_name(films: Snapshot) -> None:
    found = extract_values("Titanic movie 1997 cast", films.vocabulary())
    named = [f.text for f in found if f.kind == ENTITY]
    assert named and named[0].startswith("Titanic")
    result = Planner(films).plan("Titanic movie 1997 cast")
    assert result.chains
    first = result.chains[0].steps[0]
    assert first.api == "GET /search/movie"
    assert [(i.name, i.value) for i in first.inputs if i.name == "query"] == [("query", "Titanic")]


def test_an_unknown_verb_before_a_kind_and_an_id_like_name_stays_a_verb(films: Snapshot) -> None:
    assert [f for f in extract_values("Rewatch movie m-42", films.vocabulary()) if f.kind == ENTITY] == []
