"""How the planner reads a request's words: expansions by stem, verbs of asking."""

from __future__ import annotations

import pytest

from apiatlas.catalog.model import Api, Edge, EdgeLevel
from apiatlas.planning.planner import Planner
from apiatlas.planning.relevance import api_terms, plain_verbs
from apiatlas.snapshot import Snapshot, write_snapshot
from apiatlas.text import query_terms
from plan_catalogs import catalog_of, http_get, media_vocabulary

MEDIA = media_vocabulary()  # the movie database's words (examples/restbench/apiatlas.yaml)
expansion = MEDIA.expansion


def test_a_word_is_expanded_like_the_words_of_its_stem() -> None:
    assert expansion("pictures") == expansion("picture") == "images"
    assert expansion("photos") == "images"
    assert set(expansion("working").split()) == {"cast", "credits"}  # "worked" and "works" together
    assert expansion("trailer") == ""


def test_show_me_is_a_verb_of_asking_not_a_tv_show() -> None:
    assert plain_verbs("Show me photos of Emma Stone", MEDIA) == "give me photos of Emma Stone"
    assert plain_verbs("Please show us the cast", MEDIA) == "Please give us the cast"
    assert plain_verbs("the show Me and You", MEDIA) == "the show Me and You"
    assert plain_verbs("a TV show me too", MEDIA) == "a TV show me too"


def _get(key: str, title: str, param: str, *columns: str) -> Api:
    return http_get(key, param, "out", *columns, title=title)


@pytest.fixture(scope="module")
def pictures(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    """People and TV shows, each found by a search and shown by their images ("show" means tv here)."""
    apis = [
        _get("GET /search/tv", "Search TV Shows", "query", "results[].id", "results[].name"),
        _get("GET /tv/{tv_id}/images", "Get TV Show Images", "tv_id", "posters[].file_path"),
        _get("GET /search/person", "Search People", "query", "results[].id", "results[].name"),
        _get("GET /person/{person_id}/images", "Get Person Images", "person_id", "profiles[].file_path"),
    ]  # fmt: skip
    catalog = catalog_of(apis)
    catalog.edges = [
        Edge(producer=f"GET /search/{kind}", producer_table="out", producer_field="results[].id",
             consumer=f"GET /{kind}/{{{kind}_id}}/images", consumer_field=f"{kind}_id",
             domain_type="integer", level=EdgeLevel.ALIAS, reason="test")
        for kind in ("tv", "person")
    ]  # fmt: skip
    path = tmp_path_factory.mktemp("pictures") / "pictures.apiatlas"
    write_snapshot(catalog, path, options={"source": "test"})
    return Snapshot.open(path)


def test_pictures_of_a_person_asked_with_show_me(pictures: Snapshot) -> None:
    planner = Planner(pictures)
    assert planner.cache.vocabulary.title_aliases.get("show") == "tv"
    chain = planner.plan("Show me some pictures of the actor Keanu Reeves").chains[0]
    assert chain.api_keys == ["GET /search/person", "GET /person/{person_id}/images"]
    tv = planner.plan("pictures of the TV show Fargo").chains[0]
    assert tv.api_keys == ["GET /search/tv", "GET /tv/{tv_id}/images"]


def test_an_api_s_terms_are_the_stems_of_its_name_and_of_its_fields() -> None:
    """``api_terms``: the stems of the key without its path parameters and of the title; of each output
    field's name split at its separators and of each short field description (a long one is prose)."""
    api = http_get(
        "GET /person/{person_id}/movie_credits", "person_id", "cast", "cast[].id", "cast[].releaseDate"
    )
    api.output_tables[0].columns[0].description = "Идентификатор фильма"
    api.output_tables[0].columns[1].description = "The date the movie was first released in theatres, " * 2
    terms = api_terms(api)
    assert terms.names == set(
        query_terms("GET /person/ /movie_credits GET /person/{person_id}/movie_credits")
    )
    assert terms.fields == set(query_terms("cast id cast releaseDate Идентификатор фильма"))
    assert terms.in_fields("фильм") and not terms.in_fields("theatr")
