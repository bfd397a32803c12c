"""Dates written in English, the two ends of a route ("from Boston to Paris": one lookup per end, each
feeding the inputs named for its end), and a trip's dates holding for each of its actions — on a spec
compiled for real (NESTFUL's format, names of no dataset) and planned by the real planner."""

from __future__ import annotations

import json

import pytest

from apiatlas.build import compile_docs
from apiatlas.language.routes import END, START, input_role, route_parts, said_role
from apiatlas.planning import values as v
from apiatlas.planning.actions import split_actions
from apiatlas.planning.planner import Planner, reads_only
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
        },
        "output_parameters": {"trainId": {"type": "string"}, "price": {"type": "number"}},
    },
    {
        "name": "Stay_Find_Place",
        "description": "Search for places to stay near using a query string.",
        "method": "GET", "endpoint": "/places", "host": "stay.example.com",
        "query_parameters": {"query": {"type": "string", "description": "A city name", "required": True}},
        "output_parameters": {"placeId": {"type": "string"}, "name": {"type": "string"}},
    },
    {
        "name": "Stay_Rooms",
        "description": "Retrieves available hotel rooms in a given place.",
        "method": "GET", "endpoint": "/rooms", "host": "stay.example.com",
        "query_parameters": {
            "placeId": {"type": "string", "description": "Place id from the place search.", "required": True},
            "arrival": {"type": "string", "description": "Arrival date. Format: YYYY-MM-DD",
                        "required": True},
        },
        "output_parameters": {"roomId": {"type": "string"}, "title": {"type": "string"}},
    },
    {
        "name": "Sky_Forecast",
        "description": "Weather forecast for a city for the next days.",
        "method": "GET", "endpoint": "/forecast", "host": "sky.example.com",
        "query_parameters": {
            "q": {"type": "string", "description": "City name", "required": True},
            "days": {"type": "number", "description": "Number of days of forecast", "required": False},
        },
        "output_parameters": {"location": {"type": "object", "properties": {
            "name": {"type": "string"}, "country": {"type": "string"}}}, "forecast": {"type": "object"}},
    },
    {
        "name": "Sky_Time_Zone",
        "description": "Time zone and local time of a city.",
        "method": "GET", "endpoint": "/timezone", "host": "sky.example.com",
        "query_parameters": {"q": {"type": "string", "description": "City name", "required": True}},
        "output_parameters": {"location": {"type": "object", "properties": {
            "name": {"type": "string"}, "tz_id": {"type": "string"}}}},
    },
    {
        "name": "Money_Rate",
        "description": "Return the real time exchange rate for a pair of currencies.",
        "method": "GET", "endpoint": "/rate", "host": "money.example.com",
        "query_parameters": {
            "from_currency": {"type": "string", "description": "The currency to convert from",
                              "required": True},
            "to_currency": {"type": "string", "description": "The currency (e.g. NOK) to convert to",
                            "required": True},
        },
        "output_parameters": {"rate": {"type": "string"}},
    },
]  # fmt: skip


@pytest.fixture(scope="module")
def planner(tmp_path_factory: pytest.TempPathFactory) -> Planner:
    root = tmp_path_factory.mktemp("routes")
    spec, out = root / "spec.json", root / "routes.atlas"
    spec.write_text(json.dumps(SPEC), encoding="utf-8")
    compile_docs(spec, overlays_dir=None, config_path=None, out=out, write_report=False, embeddings="none")
    return Planner(Snapshot.open(out), allow=reads_only)


def test_english_dates_are_stated_values_in_iso_form() -> None:
    found = v.extract_values("Depart on August 15, 2024, and return on August 18, 2024 from Oslo.")
    assert [(f.kind, f.value) for f in found if f.kind == v.DATE] == [
        (v.DATE, "2024-08-15"),
        (v.DATE, "2024-08-18"),
    ]
    assert not any(f.kind == v.ENTITY and "August" in str(f.value) for f in found)
    later = v.extract_values("departs on December 1, 2024 and returns December 15th")
    assert [f.value for f in later if f.kind == v.DATE] == ["2024-12-01", "2024-12-15"]
    assert [f.value for f in v.extract_values("from August 10th to the 12th")] == ["--08-10"]
    assert not [f for f in v.extract_values("you may 5 times ask") if f.kind == v.DATE]


def test_a_route_said_as_one_name_is_two_places_each_with_its_end() -> None:
    text = "Find trains from Los Angeles to San Francisco"
    assert route_parts(text, "Los Angeles to San Francisco") == ["Los Angeles", "San Francisco"]
    assert route_parts("The film Back to the Future", "Back to the Future") == ["Back to the Future"]
    assert [f.value for f in v.extract_values(text)] == ["Los Angeles", "San Francisco"]
    assert said_role(text, "Los Angeles") == START and said_role(text, "San Francisco") == END
    assert said_role("trains to Oslo departing from Bergen", "Bergen") == START
    roles = (input_role("originStationId"), input_role("destination_id"), input_role("origin"))
    assert roles == (START, END, "")


def test_one_lookup_per_end_of_the_route_origin_first(planner: Planner) -> None:
    for text in (
        "Find trains from Bergen to Oslo on August 15, 2024",
        "Find trains to Oslo departing from Bergen on August 15, 2024",
    ):
        chain = planner.plan(text).chains[0]
        assert chain.api_keys == ["Rail_Find_Station", "Rail_Find_Station", "Rail_Trains"], text
        lookups = [next(i.value for i in s.inputs if i.name == "query") for s in chain.steps[:2]]
        assert lookups == ["Bergen", "Oslo"], text
        fed = {i.name: (i.origin, i.from_step, i.value) for i in chain.steps[2].inputs}
        assert fed["originStationId"][:2] == ("step", 0) and fed["destinationStationId"][:2] == ("step", 1)
        assert fed["date"] == ("request", None, "2024-08-15")


def test_a_question_or_a_need_opens_an_action_and_the_trips_dates_hold_for_each(planner: Planner) -> None:
    said = "Find trains from Bergen to Oslo on August 15, 2024. I need hotel rooms in Oslo for that date."
    actions = split_actions(said, v.extract_values(said))
    assert [a.text for a in actions] == [
        "Find trains from Bergen to Oslo on August 15, 2024",
        "I need hotel rooms in Oslo for that date.",
    ]
    kept = "Find trains to Oslo. I want to arrive on August 15, 2024."
    assert len(split_actions(kept, v.extract_values(kept))) == 1
    chain = planner.plan(said).chains[0]
    assert chain.api_keys[-2:] == ["Stay_Find_Place", "Stay_Rooms"]
    arrival = next(i for i in chain.steps[-1].inputs if i.name == "arrival")
    assert (arrival.origin, arrival.value) == ("request", "2024-08-15")


def test_things_asked_together_share_the_first_phrase_and_a_name_said_again_is_the_first_calls(
    planner: Planner,
) -> None:
    for text in (
        "Fetch the forecast and time zone for Oslo for the next 3 days.",
        "Fetch the forecast for Oslo for the next 3 days and time zone.",
    ):
        chain = planner.plan(text).chains[0]
        assert chain.api_keys == ["Sky_Forecast", "Sky_Time_Zone"], text
        assert [(i.origin, i.value) for i in chain.steps[0].inputs if i.name == "q"] == [("request", "Oslo")]
        q = next(i for i in chain.steps[1].inputs if i.name == "q")
        assert (q.origin, q.from_step, q.from_field) == ("step", 0, "location.name"), text


def test_a_thing_said_last_is_apart_only_in_lower_case_words_that_name_no_action() -> None:
    from apiatlas.planning.coordination import coordinated_things

    text = "Fetch the forecast for Oslo for the next 3 days and time zone"
    said = [a.text for a in coordinated_things(text)]
    assert said == ["Fetch the forecast for Oslo for the next 3 days", "Fetch time zone for Oslo"]
    assert coordinated_things("Find the books of Tolkien and Lewis") == []
    assert coordinated_things("Show the members of the team alpha and its notes") == []
    assert coordinated_things("Show the notes of the team alpha and delete them") == []


def test_inputs_named_for_an_end_take_the_names_said_for_it_an_amount_none(planner: Planner) -> None:
    chain = planner.plan("What is the exchange rate from Euro to NOK?").chains[0]
    assert chain.api_keys == ["Money_Rate"]
    assert {i.name: i.value for i in chain.steps[0].inputs} == {"from_currency": "Euro", "to_currency": "NOK"}
    assert [f.value for f in v.extract_values("and calculate the value of 2 BTC in GBP")] == ["2 BTC in GBP"]
    found = v.extract_values("calculate the value of 5 ETH in USD")
    assert [(f.kind, f.value) for f in found] == [(v.AMOUNT, "5 ETH in USD")]


def test_a_later_action_searching_no_stated_place_searches_the_place_an_earlier_call_found(
    planner: Planner,
) -> None:
    said = "What is the weather forecast for Oslo? I need hotel rooms to check in on August 15, 2024."
    chain = planner.plan(said).chains[0]
    assert chain.api_keys == ["Sky_Forecast", "Stay_Find_Place", "Stay_Rooms"]
    query = next(i for i in chain.steps[1].inputs if i.name == "query")
    assert (query.origin, query.from_step, query.from_field) == ("step", 0, "location.name")
    arrival = next(i for i in chain.steps[2].inputs if i.name == "arrival")
    assert arrival.value == "2024-08-15"


def test_an_action_of_several_asking_two_things_each_with_its_complement_plans_both(planner: Planner) -> None:
    said = (
        "Find hotel rooms in Oslo and available trains from Bergen to Oslo. "
        "I need a train that leaves on August 15, 2024."
    )
    chain = planner.plan(said).chains[0]
    assert chain.api_keys[:2] == ["Stay_Find_Place", "Stay_Rooms"]
    assert chain.api_keys[2:5] == ["Rail_Find_Station", "Rail_Find_Station", "Rail_Trains"]
    place = next(i for i in chain.steps[1].inputs if i.name == "placeId")
    assert (place.origin, place.from_step) == ("step", 0)
