"""An input's description naming the operation its value comes from ("Place ID obtained from the Stay
Find Place API") makes that operation's edge into it declared; a look-alike producer of the same field
keeps its level. Compiled for real from a NESTFUL-format spec with names of no dataset."""

from __future__ import annotations

import json
from pathlib import Path

from apiatlas.build import compile_docs
from apiatlas.passes.rest_said import named_producers
from apiatlas.snapshot import Snapshot

SPEC = [
    {
        "name": "Stay_Find_Place", "description": "Find a place by its name.",
        "method": "GET", "endpoint": "/places", "host": "stay.example.com",
        "query_parameters": {"query": {"type": "string", "description": "A name", "required": True}},
        "output_parameters": {"placeId": {"type": "string"}, "name": {"type": "string"}},
    },
    {
        "name": "Trip_Find_Place", "description": "Find a place of a trip by its name.",
        "method": "GET", "endpoint": "/trip-places", "host": "stay.example.com",  # one service: ids link
        "query_parameters": {"query": {"type": "string", "description": "A name", "required": True}},
        "output_parameters": {"placeId": {"type": "string"}, "title": {"type": "string"}},
    },
    {
        "name": "Stay_Rooms", "description": "Rooms to stay in a place.",
        "method": "GET", "endpoint": "/rooms", "host": "stay.example.com",
        "query_parameters": {"placeId": {"type": "string", "required": True,
                                         "description": "Place ID obtained from the Stay Find Place API."}},
        "output_parameters": {"roomId": {"type": "string"}},
    },
]  # fmt: skip


def test_the_producer_a_description_names_is_the_one_with_every_word_and_fewest_others() -> None:
    names = {"Stay_Find_Place": {"stay", "find", "place"}, "Find_Place": {"find", "place"}}
    assert named_producers("Obtained from the Find Place API.", names, "x") == {"Find_Place"}
    assert named_producers("Id retrieved from Stay's Find Place endpoint", names, "x") == {"Stay_Find_Place"}
    assert named_producers("The place id.", names, "x") == set()
    assert named_producers("Obtained from the Search Hotels API.", names, "x") == set()


def test_the_named_producers_edge_is_declared_the_look_alike_keeps_its_level(tmp_path: Path) -> None:
    spec, out = tmp_path / "spec.json", tmp_path / "said.atlas"
    spec.write_text(json.dumps(SPEC), encoding="utf-8")
    compile_docs(spec, overlays_dir=None, config_path=None, out=out, write_report=False, embeddings="none")
    with Snapshot.open(out) as snap:
        levels = {
            e.producer: e.level.value for e in snap.edges_into("Stay_Rooms") if e.consumer_field == "placeId"
        }
    assert levels["Stay_Find_Place"] == "declared"
    assert levels["Trip_Find_Place"] not in ("declared", None)


CODES = [
    {
        "name": "Geo_Country_By_Name", "description": "Retrieve details about a country by its name.",
        "method": "GET", "endpoint": "/country", "host": "geo.example.com",
        "query_parameters": {"name": {"type": "String", "description": "Country Name", "required": True}},
        "output_parameters": {"name": {"type": "String"}, "short_name": {"type": "String"},
                              "dial_code": {"type": "String"}},
    },
    {
        "name": "Flu_Stats", "description": "Retrieve FLU-24 statistics for a specific location.",
        "method": "GET", "endpoint": "/stats", "host": "flu.example.com",
        "path_parameters": {"location": {"type": "String", "required": True,
                                         "description": "ISO 3166-2 location code, e.g. 'FR' for France."}},
        "output_parameters": {"stats": {"type": "object"}},
    },
    {
        "name": "Flu_News", "description": "Retrieve FLU-24 news for a specific location.",
        "method": "GET", "endpoint": "/news", "host": "flu.example.com",
        "path_parameters": {"location": {"type": "String", "required": True,
                                         "description": "ISO 3166-2 location code, e.g. 'FR' for France."}},
        "output_parameters": {"news": {"type": "object"}},
    },
]  # fmt: skip


def test_a_code_nothing_feeds_comes_from_a_short_name_and_a_term_of_the_cards_is_no_name(
    tmp_path: Path,
) -> None:
    from apiatlas.planning.planner import Planner, reads_only

    spec, out = tmp_path / "codes.json", tmp_path / "codes.atlas"
    spec.write_text(json.dumps(CODES), encoding="utf-8")
    compile_docs(spec, overlays_dir=None, config_path=None, out=out, write_report=False, embeddings="none")
    with Snapshot.open(out) as snap:
        into = {(e.producer_field, e.level.value) for e in snap.edges_into("Flu_Stats")}
        assert into == {("short_name", "type_only")}  # not the dial code: a short name only
        said = "Obtain FLU-24 statistics for Norway and get the latest news about FLU-24 in Norway."
        chain = Planner(snap, allow=reads_only).plan(said).chains[0]
    assert chain.api_keys == ["Geo_Country_By_Name", "Flu_Stats", "Flu_News"]
    assert [i.value for i in chain.steps[0].inputs] == ["Norway"]
    for step in chain.steps[1:]:
        assert [(i.origin, i.from_step, i.from_field) for i in step.inputs] == [("step", 0, "short_name")]
