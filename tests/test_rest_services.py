"""Identifiers stay within the service that mints them (``passes/rest_services``), on an invented spec of
three hosts compiled for real: a review site's ``author_id`` and a forum's ``authorId`` link to a book
site's ``authorID`` by name alone, yet only the book site's own search feeds it; a name crosses hosts
(the city a weather API answers about feeds another host's search), and within one host an id still
links. A catalog without hosts keeps every edge."""

from __future__ import annotations

import json
from pathlib import Path

from apiatlas.build import compile_docs
from apiatlas.catalog.model import Api, Catalog, Edge, EdgeLevel
from apiatlas.passes.rest_services import ids_within_services
from apiatlas.snapshot import Snapshot

SPEC = [
    {
        "name": "Books_Search", "description": "Search books by a phrase.",
        "method": "GET", "endpoint": "/books", "host": "books.example.com",
        "query_parameters": {"keyword": {"type": "string", "description": "Words of the title",
                                         "required": True}},
        "output_parameters": {"author": {"type": "object", "properties": {
            "id": {"type": "string", "description": "Id of the author."},
            "name": {"type": "string"}}}},
    },
    {
        "name": "Books_By_Author", "description": "Books written by an author.",
        "method": "GET", "endpoint": "/author-books", "host": "books.example.com",
        "query_parameters": {"authorID": {"type": "string", "description": "Id of the author.",
                                          "required": True}},
        "output_parameters": {"title": {"type": "string"}},
    },
    {
        "name": "Places_Reviews", "description": "Reviews of a place.",
        "method": "GET", "endpoint": "/reviews", "host": "places.example.com",
        "query_parameters": {"place": {"type": "string", "description": "Place name", "required": True}},
        "output_parameters": {"author_id": {"type": "string", "description": "Id of the review's author."},
                              "rating": {"type": "number"}},
    },
    {
        "name": "Sky_Now", "description": "Current sky conditions for a city.",
        "method": "GET", "endpoint": "/now", "host": "sky.example.com",
        "query_parameters": {"q": {"type": "string", "description": "City name", "required": True}},
        "output_parameters": {"spot": {"type": "object", "properties": {"name": {"type": "string"}}},
                              "clouds": {"type": "number"}},
    },
    {
        "name": "Places_Find", "description": "Search places of a city.",
        "method": "GET", "endpoint": "/places", "host": "places.example.com",
        "query_parameters": {"query": {"type": "string", "description": "Name of the spot to search near",
                                       "required": True}},
        "output_parameters": {"placeId": {"type": "string"}, "name": {"type": "string"}},
    },
]  # fmt: skip


def _edges(tmp_path: Path) -> set[tuple[str, str, str, str]]:
    spec, out = tmp_path / "spec.json", tmp_path / "services.atlas"
    spec.write_text(json.dumps(SPEC), encoding="utf-8")
    compile_docs(spec, overlays_dir=None, config_path=None, out=out, write_report=False, embeddings="none")
    with Snapshot.open(out) as snap:
        return {
            (e.producer, e.producer_field, e.consumer, e.consumer_field)
            for key in snap.all_api_keys()
            for e in snap.edges_into(key)
        }


def test_an_id_links_within_its_host_only(tmp_path: Path) -> None:
    edges = _edges(tmp_path)
    into_author = {(p, f) for p, f, c, i in edges if (c, i) == ("Books_By_Author", "authorID")}
    assert into_author == {("Books_Search", "author.id")}  # not the review site's author_id


def test_a_name_still_crosses_hosts(tmp_path: Path) -> None:
    assert ("Sky_Now", "spot.name", "Places_Find", "query") in _edges(tmp_path)


def test_a_catalog_without_hosts_keeps_its_id_edges() -> None:
    catalog = Catalog(source_kind="test")
    for key in ("a", "b"):
        catalog.apis[key] = Api(key=key, object_key=key, title=key)
    catalog.edges = [
        Edge(producer="a", producer_field="user_id", consumer="b", consumer_field="user_id",
             domain_type="string:id", level=EdgeLevel.NAME_TYPE, reason="same name")
    ]  # fmt: skip
    ids_within_services(catalog)
    assert len(catalog.edges) == 1
    catalog.apis["a"].extra = {"host": "one.example.com"}
    catalog.apis["b"].extra = {"host": "two.example.com"}
    ids_within_services(catalog)
    assert not catalog.edges


def test_one_host_written_differently_is_one_service() -> None:
    """A host's name is case-blind, and a scheme, a default port, a trailing slash or dot name no other
    host: the id edge between two spellings of one host stays; another port is another service."""
    catalog = Catalog(source_kind="test")
    for key in ("a", "b"):
        catalog.apis[key] = Api(key=key, object_key=key, title=key)
    edge = Edge(producer="a", producer_field="user_id", consumer="b", consumer_field="user_id",
                domain_type="string:id", level=EdgeLevel.NAME_TYPE, reason="same name")  # fmt: skip
    for one, other in [
        ("api.example.com", "API.Example.com"),
        ("api.example.com", "https://api.example.com/"),
        ("http://api.example.com:80", "api.example.com."),
        ("https://api.example.com:443/v1", "api.example.com"),
    ]:
        catalog.apis["a"].extra, catalog.apis["b"].extra = {"host": one}, {"host": other}
        catalog.edges = [edge]
        ids_within_services(catalog)
        assert catalog.edges == [edge], (one, other)
    catalog.apis["a"].extra = {"host": "api.example.com:8080"}
    catalog.apis["b"].extra = {"host": "api.example.com:9090"}
    catalog.edges = [edge]
    ids_within_services(catalog)
    assert not catalog.edges
