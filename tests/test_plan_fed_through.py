"""A later action pointing back ("… Also find lodging there") through a chain of its own whose inputs left to
the user the steps before feed: the place search fed the place the forecast found, then the lodging of that
place — not another API the forecast feeds alone (an airport search) — on an invented catalog in NESTFUL's
format, compiled for real and planned by the real planner."""

from __future__ import annotations

import json

import pytest

from apiatlas.build import compile_docs
from apiatlas.planning.planner import Planner, reads_only
from apiatlas.snapshot import Snapshot

_DATE = "Format: YYYY-MM-DD"
SPEC = [
    {
        "name": "Skyview_Forecast", "description": "Fetch forecast weather information for a city.",
        "method": "GET", "endpoint": "/forecast", "host": "skyview.example.com",
        "query_parameters": {"q": {"type": "String", "description": "City name", "required": True},
                             "days": {"type": "Number", "description": "Number of days", "required": False}},
        "output_parameters": {"location": {"type": "object", "properties": {
            "name": {"type": "string", "description": "City name"},
            "country": {"type": "string", "description": "Country"}}},
            "forecast": {"type": "object", "description": "The forecast"}},
    },
    {
        "name": "Wings_Search_Airfield", "description": "Search for airfields using a location name.",
        "method": "GET", "endpoint": "/airfields", "host": "wings.example.com",
        "query_parameters": {"query": {"type": "string", "required": True,
                                       "description": "Name of the location where the airfield is."}},
        "output_parameters": {"fieldId": {"type": "string", "description": "The airfield's identifier."}},
    },
    {
        "name": "Nest_Search_Location", "description": "Search for locations using a query string.",
        "method": "GET", "endpoint": "/locations", "host": "nest.example.com",
        "query_parameters": {"query": {"type": "string", "required": True,
                                       "description": "Search query for location (e.g., city name)"}},
        "output_parameters": {"placeId": {"type": "string", "description": "The identifier of the location"},
                              "name": {"type": "string", "description": "The name of the location"}},
    },
    {
        "name": "Nest_Search_Lodging", "description": "Retrieves available lodging in a given location.",
        "method": "GET", "endpoint": "/lodging", "host": "nest.example.com",
        "query_parameters": {
            "placeId": {"type": "string", "description": "Place ID of the location.", "required": True},
            "checkIn": {"type": "string", "description": f"Check-in date. {_DATE}", "required": True},
            "checkOut": {"type": "string", "description": f"Check-out date. {_DATE}", "required": True},
        },
        "output_parameters": {"id": {"type": "string", "description": "Lodging ID"},
                              "title": {"type": "string", "description": "Lodging name"}},
    },
]  # fmt: skip


@pytest.fixture(scope="module")
def planner(tmp_path_factory: pytest.TempPathFactory) -> Planner:
    root = tmp_path_factory.mktemp("fed_through")
    spec, out = root / "spec.json", root / "fed_through.atlas"
    spec.write_text(json.dumps(SPEC), encoding="utf-8")
    compile_docs(spec, overlays_dir=None, config_path=None, out=out, write_report=False, embeddings="none")
    return Planner(Snapshot.open(out), allow=reads_only)


def test_a_chain_of_its_own_fed_by_the_steps_before(planner: Planner) -> None:
    top = planner.plan(
        "What will the weather be in Lyon over the next 3 days? Also find lodging there from July 5, 2025 "
        "to July 8, 2025."
    ).chains[0]
    assert top.api_keys == ["Skyview_Forecast", "Nest_Search_Location", "Nest_Search_Lodging"]
    query = top.steps[1].inputs[0]
    assert (query.name, query.from_step, query.from_field) == ("query", 0, "location.name")
    dates = {s.name: s.value for s in top.steps[2].inputs if s.origin == "request"}
    assert dates == {"checkIn": "2025-07-05", "checkOut": "2025-07-08"}
