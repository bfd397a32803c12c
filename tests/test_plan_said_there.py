"""An action pointing back at a place ("Join the room lobby and say hi there") ends at the write saying its
verb that takes the thing the action before acts on (the post to the room joined), a verb of saying read as
the writes say it (post, send, write), what is said no name. A real compile of a small spec."""

from __future__ import annotations

import pytest

from apiatlas.language.catalog import CatalogVocabulary
from apiatlas.planning.planner import Planner
from apiatlas.planning.said_names import bare_names
from apiatlas.snapshot import Snapshot
from test_plan_members import OK, _of, _op
from test_rest_loose_ids import compiled_spec

ROOM = "{type: object, properties: {id: {type: string}, name: {type: string}}}"
SPEC = "openapi: 3.0.0\ninfo: {title: Rooms, version: '1'}\npaths:\n" + "".join(
    [
        _op("/rooms.list", "get", "List all rooms", [], _of("rooms", "{type: array, items: " + ROOM + "}")),
        _op("/rooms.info", "get", "Get a room", [("room_id", True)], _of("room", ROOM)),
        _op("/rooms.join", "post", "Joins an existing room", [("room", True)], _of("room", ROOM)),
        _op("/rooms.leave", "post", "Leaves a room", [("room", True)], OK),
        _op("/talk.postMessage", "post", "Sends a message to a room", [("room", True), ("text", False)], OK),
        _op("/talk.deleteMessage", "post", "Deletes a message", [("room", True), ("ts", True)], OK),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "rooms_there", SPEC)


def test_saying_something_there_posts_to_the_room_the_action_before_joined(snap: Snapshot) -> None:
    chain = Planner(snap).plan("Join the room lobby and say hi there").chains[0]
    assert chain.api_keys == ["GET /rooms.list", "POST /rooms.join", "POST /talk.postMessage"]
    room = next(i for i in chain.steps[2].inputs if i.name == "room")
    assert (room.origin, room.from_step) == ("step", 1)


def test_what_is_said_is_no_name() -> None:
    words = CatalogVocabulary(kinds=["room"], named_inputs=["room"])
    assert bare_names("say hi there", words, [], frozenset()) == []
    assert [f.value for f in bare_names("Mark lobby as read", words, [], frozenset())] == ["lobby"]
