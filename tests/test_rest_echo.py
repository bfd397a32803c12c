"""Search texts fed by the name of the thing another API found (``passes/rest_echo``), on an invented spec
compiled for real: an API whose output holds ``spot.name`` answers about the spot its text named, so
another API's ``spot.name`` feeds its text, and so does it feed a search whose description says it takes
a spot; a bare top-level ``name`` (of what?) and an object of another kind feed none."""

from __future__ import annotations

import json
from pathlib import Path

from apiatlas.build import compile_docs
from apiatlas.passes.config import BuildConfig
from apiatlas.passes.rest_echo import search_text
from apiatlas.snapshot import Snapshot

SPEC = [
    {
        "name": "Sky_Now", "description": "Current sky conditions for a query.",
        "method": "GET", "endpoint": "/now", "host": "sky.example.com",
        "query_parameters": {"q": {"type": "string", "description": "Query text", "required": True}},
        "output_parameters": {"spot": {"type": "object", "properties": {"name": {"type": "string"}}},
                              "clouds": {"type": "number"}},
    },
    {
        "name": "Sky_Later", "description": "Sky conditions of the coming days for a query.",
        "method": "GET", "endpoint": "/later", "host": "sky.example.com",
        "query_parameters": {"q": {"type": "string", "description": "Query text", "required": True}},
        "output_parameters": {"spot": {"type": "object", "properties": {"name": {"type": "string"}}},
                              "days": {"type": "array"}},
    },
    {
        "name": "Camp_Find_Site", "description": "Search camp sites.",
        "method": "GET", "endpoint": "/sites", "host": "camp.example.com",
        "query_parameters": {"query": {"type": "string", "description": "Name of the spot to camp near",
                                       "required": True}},
        "output_parameters": {"siteId": {"type": "string"}, "name": {"type": "string"}},
    },
    {
        "name": "Book_Search", "description": "Search books by a phrase.",
        "method": "GET", "endpoint": "/books", "host": "books.example.com",
        "query_parameters": {"query": {"type": "string", "description": "Words of the title",
                                       "required": True}},
        "output_parameters": {"author": {"type": "object", "properties": {"name": {"type": "string"}}}},
    },
]  # fmt: skip


def test_search_texts_take_the_name_of_the_thing_another_api_found(tmp_path: Path) -> None:
    spec, out = tmp_path / "spec.json", tmp_path / "echo.atlas"
    spec.write_text(json.dumps(SPEC), encoding="utf-8")
    compile_docs(spec, overlays_dir=None, config_path=None, out=out, write_report=False, embeddings="none")
    with Snapshot.open(out) as snap:
        edges = {
            (e.producer, e.producer_field, e.consumer, e.consumer_field)
            for key in snap.all_api_keys()
            for e in snap.edges_into(key)
            if e.consumer_field in ("q", "query")
        }
    assert ("Sky_Now", "spot.name", "Sky_Later", "q") in edges  # its own output names a spot
    assert ("Sky_Later", "spot.name", "Sky_Now", "q") in edges
    assert ("Sky_Now", "spot.name", "Camp_Find_Site", "query") in edges  # its description says a spot
    assert not any(p == "Camp_Find_Site" for p, _, _, _ in edges)  # a bare ``name``: of what?
    assert not any(c == "Book_Search" for _, _, c, _ in edges)  # an author is no spot; a spot no title
    assert ("Book_Search", "author.name", "Camp_Find_Site", "query") not in edges


def test_search_text_inputs_are_read_from_their_names() -> None:
    assert all(search_text(n) for n in ("q", "query", "search_query", "searchTerm", "keyword"))
    assert not any(search_text(n) for n in ("name", "queryId", "location"))


def test_a_search_text_is_fed_by_no_more_names_than_the_type_only_cap(tmp_path: Path) -> None:
    """Many searches of one kind (a catalog of weather services): each search text takes at most
    ``max_type_only_edges_per_field`` names, as any type-only input does, those of its own kind first,
    not every other search's — the graph grows with the catalog, not with its square."""
    many = [
        {
            "name": f"Sky_{n}", "description": f"Sky conditions by service {n}.",
            "method": "GET", "endpoint": f"/sky{n}", "host": f"sky{n}.example.com",
            "query_parameters": {"q": {"type": "string", "description": "Query text for a spot or a camp",
                                       "required": True}},
            "output_parameters": {"spot": {"type": "object", "properties": {"name": {"type": "string"}}}},
        }
        for n in range(14)
    ] + [
        {
            "name": "Camp_Now", "description": "Camp site conditions.",
            "method": "GET", "endpoint": "/camp", "host": "camp.example.com",
            "query_parameters": {},
            "output_parameters": {"camp": {"type": "object", "properties": {"name": {"type": "string"}}}},
        }
    ]  # fmt: skip
    spec, out = tmp_path / "many.json", tmp_path / "many.atlas"
    spec.write_text(json.dumps(many), encoding="utf-8")
    compile_docs(spec, overlays_dir=None, config_path=None, out=out, write_report=False, embeddings="none")
    cap = BuildConfig().max_type_only_edges_per_field
    with Snapshot.open(out) as snap:
        fed = {
            key: {e.producer for e in snap.edges_into(key) if e.consumer_field == "q"}
            for key in snap.all_api_keys()
            if key.startswith("Sky_")
        }
    assert all(len(producers) == cap for producers in fed.values()), {k: len(p) for k, p in fed.items()}
    assert not any("Camp_Now" in producers for producers in fed.values())  # a spot of its own kind first
