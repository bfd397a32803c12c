"""REST edges: exact names, resource + id aliases, path hierarchy, $ref identity, shapes; TMDB gold."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from apiatlas.build import compile_docs
from apiatlas.catalog.model import Catalog, Edge, EdgeLevel
from apiatlas.passes.rest_names import container_of, id_resource, name_singular, nesting
from shared_data import needs_shared, shared

TMDB_SPEC = shared("restbench", "tmdb_oas.json")
TMDB_QUERIES = shared("restbench", "tmdb_queries.json")
GOLD_TARGET = 0.9


def ok(schema: dict[str, Any]) -> dict[str, Any]:
    return {"200": {"description": "", "content": {"application/json": {"schema": schema}}}}


def obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


def arr(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


INT = {"type": "integer"}
STR = {"type": "string"}
PERSON_FIELDS = {"id": INT, "name": STR, "profile_path": STR, "gender": INT, "popularity": {"type": "number"}}


def path_param(name: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": schema or INT}


SPEC: dict[str, Any] = {
    "openapi": "3.0.0",
    "info": {"title": "movies", "version": "1"},
    "paths": {
        "/search/person": {
            "get": {
                "parameters": [{"name": "query", "in": "query", "required": True, "schema": STR}],
                "responses": ok(obj(page=INT, results=arr(obj(id=INT, name=STR)))),
            }
        },
        "/person/{person_id}": {
            "get": {
                "parameters": [path_param("person_id")],
                "responses": ok(obj(**PERSON_FIELDS, birthday=STR)),
            }
        },
        "/movie/{movie_id}/credits": {
            "get": {
                "parameters": [path_param("movie_id")],
                "responses": ok(obj(id=INT, cast=arr(obj(**PERSON_FIELDS, character=STR)))),
            }
        },
        "/movie/{movie_id}": {
            "get": {
                "parameters": [path_param("movie_id")],
                "responses": ok(obj(id=INT, title=STR, production_companies=arr(obj(id=INT, name=STR)))),
            }
        },
        "/company/{company_id}": {
            "get": {"parameters": [path_param("company_id")], "responses": ok(obj(id=INT, name=STR))}
        },
        "/tv/{tv_id}": {
            "get": {
                "parameters": [path_param("tv_id")],
                "responses": ok(obj(id=INT, seasons=arr(obj(season_number=INT, air_date=STR)))),
            }
        },
        "/tv/{tv_id}/season/{season_number}": {
            "get": {
                "parameters": [path_param("tv_id"), path_param("season_number")],
                "responses": ok(obj(id=INT, episodes=arr(obj(id=INT)))),
            }
        },
        "/tv/{tv_id}/season/{season_number}/images": {
            "get": {
                "parameters": [path_param("tv_id"), path_param("season_number")],
                "responses": ok(obj(id=INT, posters=arr(obj(file_path=STR)))),
            }
        },
        "/pets": {"get": {"responses": ok(arr(obj(id=STR, kind=STR)))}},
        "/pets/{petId}/toys": {
            "get": {
                "parameters": [path_param("petId", STR), {"name": "page", "in": "query", "required": True}],
                "responses": ok(arr(obj(toy=STR))),
            }
        },
        "/customers/{customer}": {
            "get": {
                "parameters": [path_param("customer", STR)],
                "responses": ok({"anyOf": [{"$ref": "#/components/schemas/customer"}]}),
            }
        },
        "/charges": {
            "get": {
                "responses": ok(
                    obj(
                        data=arr(
                            obj(
                                id=STR,
                                paid_by={"anyOf": [STR, {"$ref": "#/components/schemas/customer"}]},
                            )
                        )
                    )
                )
            }
        },
    },
    "components": {"schemas": {"customer": obj(id=STR, email=STR)}},
}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    folder = tmp_path_factory.mktemp("rest")
    spec = folder / "movies.json"
    spec.write_text(json.dumps(SPEC), encoding="utf-8")
    return compile_docs(
        spec, overlays_dir=None, config_path=None, out=folder / "m.atlas", write_report=False
    ).catalog


def edges_between(catalog: Catalog, producer: str, consumer: str, field: str) -> list[Edge]:
    return [
        e
        for e in catalog.edges
        if e.producer == producer and e.consumer == consumer and e.consumer_field == field
    ]


def test_resource_name_and_id_alias(catalog: Catalog) -> None:
    found = edges_between(catalog, "GET /search/person", "GET /person/{person_id}", "person_id")
    assert [(e.producer_table, e.producer_field, e.level) for e in found] == [
        ("response", "results[].id", EdgeLevel.ALIAS)
    ]
    assert "person" in found[0].reason
    companies = edges_between(catalog, "GET /movie/{movie_id}", "GET /company/{company_id}", "company_id")
    assert [(e.producer_field, e.level) for e in companies] == [
        ("production_companies[].id", EdgeLevel.ALIAS)
    ]


def test_ids_of_other_lists_do_not_feed_a_resource(catalog: Catalog) -> None:
    # seasons[] and episodes[] are not people, and the credits' own movie id is not a person id
    into_person = {e.producer_field for e in catalog.edges if e.consumer_field == "person_id"}
    assert "episodes[].id" not in into_person and "id" not in into_person


def test_a_number_key_is_not_fed_ids_and_pages_are_not_linked(catalog: Catalog) -> None:
    into_season = {
        (e.producer, e.producer_field) for e in catalog.edges if e.consumer_field == "season_number"
    }
    assert into_season == {("GET /tv/{tv_id}", "seasons[].season_number")}
    assert not [e for e in catalog.edges if e.consumer_field == "page"]  # GET /search/person has a page too


def test_exact_names(catalog: Catalog) -> None:
    found = edges_between(
        catalog, "GET /tv/{tv_id}", "GET /tv/{tv_id}/season/{season_number}", "season_number"
    )
    assert [(e.producer_field, e.level) for e in found] == [("seasons[].season_number", EdgeLevel.NAME_TYPE)]


def test_path_hierarchy(catalog: Catalog) -> None:
    found = edges_between(catalog, "GET /pets", "GET /pets/{petId}/toys", "petId")
    assert [(e.producer_field, e.level) for e in found] == [("[].id", EdgeLevel.ALIAS)]
    assert found[0].reason.split("(", 1)[1].startswith("path hierarchy")


def test_schema_ref_identity(catalog: Catalog) -> None:
    found = edges_between(catalog, "GET /charges", "GET /customers/{customer}", "customer")
    assert [(e.producer_field, e.level) for e in found] == [("data[].paid_by", EdgeLevel.ALIAS)]
    assert "$ref identity" in found[0].reason and found[0].domain_type == "customer"


def test_shape_of_list_items(catalog: Catalog) -> None:
    found = edges_between(catalog, "GET /movie/{movie_id}/credits", "GET /person/{person_id}", "person_id")
    assert [(e.producer_field, e.level) for e in found] == [("cast[].id", EdgeLevel.TYPE_ONLY)]
    assert "person" in found[0].reason


def test_graph_stats_count_the_rest_edges(catalog: Catalog) -> None:
    graph = catalog.stats["graph"]
    assert graph["edges"] == len(catalog.edges)
    assert sum(graph["by_level"].values()) == len(catalog.edges)


def test_naming_helpers() -> None:
    assert [name_singular(w) for w in ("companies", "people", "addresses", "tv", "status")] == [
        "company",
        "person",
        "address",
        "tv",
        "status",
    ]
    assert [id_resource(n) for n in ("person_id", "customerId", "id", "name")] == [
        "person",
        "customer",
        None,
        None,
    ]
    assert container_of("results[].id") == ("results[]", "id")
    assert container_of("id") == ("", "id")
    assert container_of("genre_ids[]") == ("", "genre_ids")
    fields = ["spec.containers[].name", "name", "items[].spec.containers[].name", "items[].metadata.name"]
    assert sorted(fields, key=nesting) == [
        "spec.containers[].name",
        "items[].metadata.name",
        "name",
        "items[].spec.containers[].name",
    ]


@needs_shared(TMDB_SPEC, TMDB_QUERIES)
def test_tmdb_graph_holds_the_edge_behind_the_two_step_gold_chains(tmp_path: Path) -> None:
    result = compile_docs(
        TMDB_SPEC, overlays_dir=None, config_path=None, out=tmp_path / "t.atlas", write_report=False
    )
    linked = {(e.producer, e.consumer) for e in result.catalog.edges}
    queries = json.loads(TMDB_QUERIES.read_text(encoding="utf-8"))
    chains = [[step.strip() for step in q["solution"]] for q in queries if len(q["solution"]) == 2]
    found = [chain for chain in chains if (chain[0], chain[1]) in linked]
    share = len(found) / len(chains)
    print(f"TMDB two-step gold chains with their edge: {len(found)} of {len(chains)} ({share:.0%})")
    assert len(chains) > 50
    assert share >= GOLD_TARGET
