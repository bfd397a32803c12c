"""Which path the planner takes between a stated name and the answer (the hops it prefers)."""

from __future__ import annotations

import pytest

from apiatlas.catalog.model import Api, Edge, EdgeLevel
from apiatlas.planning.draft import nested_list
from apiatlas.planning.planner import Planner, Weights
from apiatlas.snapshot import Snapshot, write_snapshot
from plan_catalogs import catalog_of, http_get


def _get(key: str, param: str, table: str, *columns: str) -> Api:
    return http_get(key, param, table, *columns)


def _edges(links: list[tuple[str, str, str, str, str]]) -> list[Edge]:
    return [
        Edge(producer=p, producer_table=t, producer_field=f, consumer=c, consumer_field=n,
             domain_type="integer", level=EdgeLevel.ALIAS, reason="test")
        for p, t, f, c, n in links
    ]  # fmt: skip


@pytest.fixture(scope="module")
def filmography(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    """A person search whose matches carry the movies each is known for, a person's movies, a movie's
    credits and release dates."""
    apis = [
        _get("GET /search/person", "query", "results", "results[].id", "results[].name",
             "results[].known_for[].id", "results[].known_for[].title"),
        _get("GET /person/{person_id}/movie_credits", "person_id", "credits",
             "cast[].id", "cast[].title", "cast[].release_date"),
        _get("GET /movie/{movie_id}/credits", "movie_id", "credits", "cast[].id", "cast[].name",
             "crew[].id", "crew[].job"),
        _get("GET /movie/{movie_id}/release_dates", "movie_id", "dates", "results[].release_date"),
    ]  # fmt: skip
    catalog = catalog_of(apis)
    catalog.edges = _edges(
        [
            ("GET /search/person", "results", "results[].id", "GET /person/{person_id}/movie_credits",
             "person_id"),
            *[("GET /search/person", "results", "results[].known_for[].id", key, "movie_id")
              for key in ("GET /movie/{movie_id}/credits", "GET /movie/{movie_id}/release_dates")],
            *[("GET /person/{person_id}/movie_credits", "credits", "cast[].id", key, "movie_id")
              for key in ("GET /movie/{movie_id}/credits", "GET /movie/{movie_id}/release_dates")],
        ]
    )  # fmt: skip
    path = tmp_path_factory.mktemp("filmography") / "filmography.apiatlas"
    write_snapshot(catalog, path, options={"source": "test"})
    return Snapshot.open(path)


def test_a_list_inside_each_match_is_not_the_persons_movies(filmography: Snapshot) -> None:
    assert nested_list("results[].known_for[].id") and not nested_list("cast[].id")
    request = "Who is the director of Jeremy Clarkson's latest movie?"
    through = ["GET /search/person", "GET /person/{person_id}/movie_credits", "GET /movie/{movie_id}/credits"]
    assert Planner(filmography).plan(request).chains[0].api_keys == through
    # without the cost the known_for shortcut wins: the fixture tells the two apart
    shortcut = Planner(filmography, weights=Weights(nested=0.0)).plan(request).chains[0]
    assert shortcut.api_keys == ["GET /search/person", "GET /movie/{movie_id}/credits"]
