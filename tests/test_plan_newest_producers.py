"""The thing a request asks the newest of ("the permalink of the most recent message in the room lobby")
is picked from a list of those things, which the chain search tries among the first producers of a
target's inputs; the target listing that kind again is then no list asked for (the message's replies are
not the permalink). A real compile of a small spec."""

from __future__ import annotations

import pytest

from apiatlas.planning.planner import Planner
from apiatlas.snapshot import Snapshot
from test_plan_members import _of, _op
from test_rest_loose_ids import compiled_spec

ROOM = "{type: object, properties: {id: {type: string}, name: {type: string}}}"
MESSAGE = "{type: object, properties: {ts: {type: string}, text: {type: string}, user: {type: string}}}"
ITEM = "{type: object, properties: {room: {type: string}, ts: {type: string}, title: {type: string}}}"
LINK = "{type: object, properties: {permalink: {type: string}, room: {type: string}}}"
_LISTS = ["bookmarks", "shortcuts", "drafts", "saved", "highlights", "clips"]
SPEC = "openapi: 3.0.0\ninfo: {title: Rooms, version: '1'}\npaths:\n" + "".join(
    [
        _op("/rooms.list", "get", "List all rooms", [], _of("rooms", "{type: array, items: " + ROOM + "}")),
        _op("/rooms.info", "get", "Get a room", [("room_id", True)], _of("room", ROOM)),
        _op("/rooms.history", "get", "Fetches a room's history of messages", [("room", False)],
            _of("messages", "{type: array, items: " + MESSAGE + "}")),
        _op("/rooms.replies", "get", "Retrieve a thread of messages posted to a room", [("room", True),
            ("ts", True)], _of("messages", "{type: array, items: " + MESSAGE + "}")),
        _op("/talk.getPermalink", "get", "Retrieve a permalink URL for a specific extant message",
            [("room", True), ("ts", True)], LINK),
        *(
            _op(f"/{name}.list", "get", f"Lists recent {name} with their links in a room", [],
                _of(name, "{type: array, items: " + ITEM + "}"))
            for name in _LISTS
        ),
    ]
)  # fmt: skip


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "rooms_newest", SPEC)


def test_the_newest_thing_asked_is_picked_from_its_list_and_the_permalink_outranks_its_replies(
    snap: Snapshot,
) -> None:
    chains = Planner(snap).plan("Get me the permalink of the most recent message in the room lobby").chains
    keys = [c.api_keys for c in chains]
    link = ["GET /rooms.list", "GET /rooms.history", "GET /talk.getPermalink"]
    replies = ["GET /rooms.list", "GET /rooms.history", "GET /rooms.replies"]
    assert link in keys and (replies not in keys or keys.index(link) < keys.index(replies))
    ts = next(i for i in chains[keys.index(link)].steps[2].inputs if i.name == "ts")
    assert (ts.from_step, ts.from_field, ts.pick_first) == (1, "messages[].ts", True)
