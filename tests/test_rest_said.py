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
        "method": "GET", "endpoint": "/trip-places", "host": "trip.example.com",
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
