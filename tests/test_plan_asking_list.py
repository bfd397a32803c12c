"""Things asked together after a need or a question said without a verb ("I need the time zone and the
forecast for Oslo", "What are the opening hours and the prices of …"): each thing with the shared
complement is an action of its own, as after a verb ("Get the time zone and the forecast for Oslo");
planned for real over an invented spec. A complement said first ("For Oslo, get A and B") and a thing
holding a number ("the 7 day weather forecast": three words of a noun phrase) are read alike."""

from __future__ import annotations

import json

import pytest

from apiatlas.build import compile_docs
from apiatlas.planning.coordination import coordinated_things
from apiatlas.planning.planner import Planner, reads_only
from apiatlas.snapshot import Snapshot

SPEC = [
    {
        "name": "Sky_Forecast", "description": "Weather forecast for a city for the next days.",
        "method": "GET", "endpoint": "/forecast", "host": "sky.example.com",
        "query_parameters": {"q": {"type": "string", "description": "City name", "required": True}},
        "output_parameters": {"location": {"type": "object", "properties": {"name": {"type": "string"}}},
                              "forecast": {"type": "object"}},
    },
    {
        "name": "Sky_Time_Zone", "description": "Time zone and local time of a city.",
        "method": "GET", "endpoint": "/timezone", "host": "sky.example.com",
        "query_parameters": {"q": {"type": "string", "description": "City name", "required": True}},
        "output_parameters": {"location": {"type": "object", "properties": {
            "name": {"type": "string"}, "tz_id": {"type": "string"}}}},
    },
]  # fmt: skip


@pytest.fixture(scope="module")
def planner(tmp_path_factory: pytest.TempPathFactory) -> Planner:
    root = tmp_path_factory.mktemp("asking")
    spec, out = root / "spec.json", root / "asking.atlas"
    spec.write_text(json.dumps(SPEC), encoding="utf-8")
    compile_docs(spec, overlays_dir=None, config_path=None, out=out, write_report=False, embeddings="none")
    return Planner(Snapshot.open(out), allow=reads_only)


def test_a_need_or_a_question_opens_a_list_of_things_as_a_verb_does() -> None:
    said = [a.text for a in coordinated_things("I need the time zone and the forecast for Oslo.")]
    assert said == ["I need the time zone for Oslo", "I need the forecast for Oslo"]
    asked = [a.text for a in coordinated_things("What are the opening hours and the prices of the museum?")]
    assert asked == ["What are the opening hours of the museum", "What are the prices of the museum"]
    assert coordinated_things("The time zone and the forecast for Oslo") == []  # nothing opens it


def test_each_thing_needed_is_planned(planner: Planner) -> None:
    chain = planner.plan("I need the time zone and the weather forecast for Oslo.").chains[0]
    assert sorted(chain.api_keys) == ["Sky_Forecast", "Sky_Time_Zone"]


def test_a_complement_said_first_and_a_thing_holding_a_number_are_read_as_a_list() -> None:
    fronted = [a.text for a in coordinated_things("For Oslo, get the time zone, the forecast and the tides.")]
    assert fronted == ["get the time zone for Oslo", "get the forecast for Oslo", "get the tides for Oslo"]
    assert coordinated_things("For Oslo, get the forecast") == []  # one thing: no list
    numbered = "Get the time zone and the 7 day weather forecast for Oslo"
    counted = [a.text for a in coordinated_things(numbered)]
    assert counted == ["Get the time zone for Oslo", "Get the 7 day weather forecast for Oslo"]
    long = "Get the time zone and the very long winding noun phrase for Oslo"
    assert coordinated_things(long) == []  # more words than a noun phrase holds


def test_each_thing_of_a_list_after_its_complement_is_planned(planner: Planner) -> None:
    chain = planner.plan("For Oslo, get the time zone and the weather forecast.").chains[0]
    assert sorted(chain.api_keys) == ["Sky_Forecast", "Sky_Time_Zone"]


def test_the_two_ends_of_between_and_a_bare_number_are_no_list_of_things() -> None:
    """ "between London and Paris" names the two ends of one thing (1abe4ac split "Find flights between
    London and Paris for …" into "flights between London" and "Paris", and d754940 did so after "I need"
    and "What are" too); "the 2023 and 2024 reports" is one noun counted twice, not a thing "the 2023"."""
    assert coordinated_things("I need flights between London and Paris for May 1") == []
    assert coordinated_things("What are the trains between Oslo and Bergen on Friday?") == []
    assert coordinated_things("Find flights between London and Paris for next week") == []
    assert coordinated_things("I need the 2023 and 2024 reports for Acme") == []
    own = [a.text for a in coordinated_things("Find hotels in Rome and flights between London and Paris")]
    assert own == ["Find hotels in Rome", "Find flights between London and Paris"]
