"""A call a later action says again is done once: the later action's read that states nothing the earlier
call was not given (or gives what it lacked) is merged into it; another value, a later lookup, or a write
between keeps both — on an invented spec compiled for real and planned by the real planner, and on
steps built by hand for the write rule."""

from __future__ import annotations

import json

import pytest

from apiatlas.build import compile_docs
from apiatlas.planning.model import InputSource, PlannedStep
from apiatlas.planning.planner import Planner, reads_only
from apiatlas.planning.restated import said_once
from apiatlas.snapshot import Snapshot

SPEC = [
    {
        "name": "Rail_Find_Station",
        "description": "Search for train stations using a city name.",
        "method": "GET", "endpoint": "/stations", "host": "rail.example.com",
        "query_parameters": {"query": {"type": "string", "description": "City name", "required": True}},
        "output_parameters": {"stationId": {"type": "string"}, "title": {"type": "string"}},
    },
    {
        "name": "Rail_Trains",
        "description": "Retrieves available trains for a given route.",
        "method": "GET", "endpoint": "/trains", "host": "rail.example.com",
        "query_parameters": {
            "originStationId": {"type": "string", "description": "Origin station id.", "required": True},
            "destinationStationId": {"type": "string", "description": "Destination station id.",
                                     "required": True},
            "date": {"type": "string", "description": "Travel date. Format: YYYY-MM-DD", "required": True},
            "returnDate": {"type": "string", "description": "Return date. Format: YYYY-MM-DD",
                           "required": False},
        },
        "output_parameters": {"trainId": {"type": "string"}, "price": {"type": "number"}},
    },
    {
        "name": "Sky_Forecast",
        "description": "Weather forecast for a city for the next days.",
        "method": "GET", "endpoint": "/forecast", "host": "sky.example.com",
        "query_parameters": {"q": {"type": "string", "description": "City name", "required": True}},
        "output_parameters": {"location": {"type": "object", "properties": {
            "name": {"type": "string"}, "country": {"type": "string"}}}, "forecast": {"type": "object"}},
    },
]  # fmt: skip


@pytest.fixture(scope="module")
def planner(tmp_path_factory: pytest.TempPathFactory) -> Planner:
    root = tmp_path_factory.mktemp("restated")
    spec, out = root / "spec.json", root / "restated.atlas"
    spec.write_text(json.dumps(SPEC), encoding="utf-8")
    compile_docs(spec, overlays_dir=None, config_path=None, out=out, write_report=False, embeddings="none")
    return Planner(Snapshot.open(out), allow=reads_only)


def test_a_later_sentence_saying_more_about_the_same_call_is_that_call(planner: Planner) -> None:
    said = (
        "Find trains from Bergen to Oslo. "
        "I need a train that departs on August 15, 2024 and returns August 18, 2024."
    )
    chain = planner.plan(said).chains[0]
    assert chain.api_keys == ["Rail_Find_Station", "Rail_Find_Station", "Rail_Trains"]
    trains = {i.name: (i.origin, i.from_step, i.value) for i in chain.steps[2].inputs}
    assert trains["originStationId"][:2] == ("step", 0) and trains["destinationStationId"][:2] == ("step", 1)
    assert trains["date"] == ("request", None, "2024-08-15")
    assert trains["returnDate"] == ("request", None, "2024-08-18")


def test_the_same_read_for_another_value_is_another_call(planner: Planner) -> None:
    said = "Get the weather forecast for Bergen. Then get the weather forecast for Oslo."
    chain = planner.plan(said).chains[0]
    assert chain.api_keys == ["Sky_Forecast", "Sky_Forecast"]
    assert [i.value for s in chain.steps for i in s.inputs if i.name == "q"] == ["Bergen", "Oslo"]


def _step(api: str, **given: str) -> PlannedStep:
    inputs = [InputSource(name=k, origin="request", value=v) for k, v in given.items()]
    return PlannedStep(api=api, inputs=inputs)


def test_a_write_between_or_a_write_said_twice_keeps_both_calls() -> None:
    reads = {"GetNote", "ListNotes"}.__contains__
    read, write = _step("GetNote", id="n-1"), _step("EditNote", id="n-1", text="hi")
    assert [s.api for s in said_once([read, read.model_copy()], [0, 1], reads)] == ["GetNote"]
    again = [read, write, read.model_copy()]
    assert [s.api for s in said_once(again, [0, 1, 2], reads)] == ["GetNote", "EditNote", "GetNote"]
    twice = [write, write.model_copy()]
    assert [s.api for s in said_once(twice, [0, 1], reads)] == ["EditNote", "EditNote"]
    fed = InputSource(name="id", origin="step", from_step=0, from_field="id")
    listed = PlannedStep(api="GetNote", inputs=[fed])
    kept = said_once([_step("ListNotes"), read, listed], [1, 2], reads)  # read from a step: another note
    assert [s.api for s in kept] == ["ListNotes", "GetNote", "GetNote"]
