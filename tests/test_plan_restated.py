"""A call a later action says again is done once: the later action's read that states nothing the earlier
call was not given (or gives what it lacked) is merged into it; another value, a later lookup, or a write
between keeps both — on an invented spec compiled for real and planned by the real planner, and on
steps built by hand for the write rule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apiatlas.build import compile_docs
from apiatlas.planning.model import InputSource, PlannedStep
from apiatlas.planning.planner import Planner, reads_only
from apiatlas.planning.restated import said_once
from apiatlas.snapshot import Snapshot
from test_plan_lookups import SPEC as LOOKUPS
from test_rest_loose_ids import compiled_spec

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


def test_the_same_read_of_another_item_picked_from_one_list_is_another_call(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    said = "Show the members of the channel releases. Then show the members of the channel backend."
    with compiled_spec(tmp_path_factory, "picked", LOOKUPS) as snap:
        chain = Planner(snap).plan(said).chains[0]
    members = "GET /conversations.members"
    assert chain.api_keys == ["GET /conversations.list", members, members]
    assert [i.pick_value for s in chain.steps[1:] for i in s.inputs] == ["releases", "backend"]


ROOM = [
    {
        "name": "Chat_Room_Info", "description": "Gets information about a room.",
        "method": "GET", "endpoint": "/rooms/info", "host": "chat.example.com",
        "query_parameters": {"room": {"type": "string", "description": "Room id", "required": True}},
        "output_parameters": {"room": {"type": "object", "properties": {"topic": {"type": "string"}}}},
    },
]  # fmt: skip


def test_the_same_read_for_another_name_no_call_was_given_is_another_call(tmp_path: Path) -> None:
    spec, out = tmp_path / "room.json", tmp_path / "room.atlas"
    spec.write_text(json.dumps(ROOM), encoding="utf-8")
    compile_docs(spec, overlays_dir=None, config_path=None, out=out, write_report=False, embeddings="none")
    with Snapshot.open(out) as snap:
        planner = Planner(snap, allow=reads_only)
        chain = planner.plan("Get info about the room Lobby. Also get info about the room Garden.").chains[0]
    assert chain.api_keys == ["Chat_Room_Info", "Chat_Room_Info"]  # each asked of the user: two rooms
    assert chain.missing == ["Chat_Room_Info.room", "Chat_Room_Info.room"]


def test_reads_picking_other_items_or_written_into_other_texts_are_other_calls() -> None:
    reads = {"ListRooms", "RoomInfo", "Convert"}.__contains__

    def fed(api: str, **how: object) -> PlannedStep:
        source = InputSource(name="room", origin="step", from_step=0, from_field="rooms[].id", **how)
        return PlannedStep(api=api, inputs=[source])

    lobby = fed("RoomInfo", pick_field="rooms[].name", pick_value="lobby")
    garden = fed("RoomInfo", pick_field="rooms[].name", pick_value="garden")
    picked = said_once([_step("ListRooms"), lobby, garden], [1, 2], reads)
    assert [[i.pick_value for i in s.inputs] for s in picked] == [[], ["lobby"], ["garden"]]
    newest = said_once([_step("ListRooms"), lobby, fed("RoomInfo", pick_first=True)], [1, 2], reads)
    assert [s.api for s in newest] == ["ListRooms", "RoomInfo", "RoomInfo"]
    five, ten = fed("Convert", template="5 * {}"), fed("Convert", template="10 * {}")
    assert [s.api for s in said_once([_step("ListRooms"), five, ten], [1, 2], reads)] == [
        "ListRooms", "Convert", "Convert",
    ]  # fmt: skip
    again = said_once([_step("ListRooms"), lobby, lobby.model_copy()], [1, 2], reads)
    assert [s.api for s in again] == ["ListRooms", "RoomInfo"]  # the same item again: one call
    named = said_once([_step("ListRooms"), lobby, lobby.model_copy()], [1, 2], reads, [set(), {"garden"}])
    assert [s.api for s in named] == ["ListRooms", "RoomInfo", "RoomInfo"]  # a name no call was given
