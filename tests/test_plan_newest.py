"""Asking for "the latest X" (issue 18 point 3): the list of X feeds the input taking one, its first
item picked, on a real compile of a spec declaring its ids loosely (inputs optional, ids plain strings)."""

from __future__ import annotations

import pytest

from apiatlas.planning.lookups import listed_item
from apiatlas.planning.planner import Planner
from apiatlas.planning.said_names import newest_things
from apiatlas.planning.snapshot_reads import SnapshotCache
from apiatlas.security.config import RoleSettings
from apiatlas.security.roles import RolePolicy, RoleView
from apiatlas.snapshot import Snapshot
from test_rest_loose_ids import compiled_spec, fed_into

SPEC = """\
openapi: 3.0.0
info: {title: Boards, version: '1'}
paths:
  /boards.list:
    get:
      summary: Lists all boards
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  boards:
                    type: array
                    items: {type: object, properties: {id: {type: string}, name: {type: string}}}
  /admin.boards.archive:
    post:
      summary: Archive a board
      parameters: [{name: board_id, in: query, required: true, schema: {type: string}}]
      responses: {'200': {description: ok}}
  /notes.history:
    get:
      summary: Fetches a board's history of notes
      parameters: [{name: board, in: query, description: Board ID, schema: {type: string}}]
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  notes:
                    type: array
                    items: {type: object, properties: {ts: {type: string}, text: {type: string}}}
  /notes.delete:
    post:
      summary: Deletes a note
      parameters:
        - {name: board, in: query, description: Board ID, schema: {type: string}}
        - {name: ts, in: query, description: Timestamp of the note to be deleted., schema: {type: number}}
      responses: {'200': {description: ok}}
  /notes.update:
    post:
      summary: Updates a note
      parameters:
        - {name: board, in: query, required: true, schema: {type: string}}
        - name: ts
          in: query
          required: true
          description: Timestamp of the note to be updated.
          schema: {type: number}
        - {name: text, in: query, schema: {type: string}}
      responses: {'200': {description: ok}}
  /notes.pin:
    post:
      summary: Pins a note to a board
      parameters:
        - {name: board, in: query, required: true, schema: {type: string}}
        - {name: timestamp, in: query, description: Timestamp of the note to pin., schema: {type: string}}
      responses: {'200': {description: ok}}
  /notes.link:
    get:
      summary: Retrieve a permalink URL for a specific note
      parameters:
        - {name: board, in: query, required: true, schema: {type: string}}
        - {name: note_ts, in: query, required: true, description: "A note's `ts` value", schema: {}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: object, properties: {permalink: {type: string}}}
"""


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "newest", SPEC)


def test_the_newest_thing_asked_for_and_the_list_holding_it() -> None:
    assert newest_things("Delete the latest note in the board b-1") == {"note"}
    assert newest_things("Show its most recent notes") == {"note"}
    assert newest_things("the last of the notes") == frozenset()  # a plain word after it names nothing
    assert listed_item("notes[].ts") == "note"
    assert listed_item("note.ts") == listed_item("[].id") == ""


def test_the_latest_note_is_the_first_item_of_the_list_of_notes(snap: Snapshot) -> None:
    planner = Planner(snap)
    best = planner.plan("Delete the latest note in the board b-1").chains[0]
    assert [s.api for s in best.steps] == ["GET /boards.list", "GET /notes.history", "POST /notes.delete"]
    ts = next(i for i in best.steps[2].inputs if i.name == "ts")
    assert (ts.from_step, ts.from_field, ts.pick_first) == (1, "notes[].ts", True)
    assert best.steps[2].on_many == "first"  # what ``execute_chain`` runs: one call, the first note
    # without "latest" the note to delete is not looked up in the history
    plain = planner.plan("Delete a note in the board b-1").chains[0]
    assert "GET /notes.history" not in [s.api for s in plain.steps]


def test_an_input_said_to_be_a_thing_s_field_is_fed_by_it_from_a_list(snap: Snapshot) -> None:
    """Said so: "A note's `ts` value", and "Timestamp of the note to pin" as ``ts`` is "Timestamp of the
    note to be deleted": both fed by ``notes[].ts``."""
    assert ("GET /notes.history", "notes[].ts") in fed_into(snap, "GET /notes.link", "note_ts")
    assert ("GET /notes.history", "notes[].ts") in fed_into(snap, "POST /notes.pin", "timestamp")


def test_a_name_said_without_its_kind_is_picked_from_the_list(snap: Snapshot) -> None:
    """Said "in ideas": no kind said; the list of named boards feeding an input named for a kind picks it."""
    best = Planner(snap).plan("Pin the latest note in ideas").chains[0]
    assert [s.api for s in best.steps] == ["GET /boards.list", "GET /notes.history", "POST /notes.pin"]
    board = next(i for i in best.steps[2].inputs if i.name == "board")
    assert (board.from_field, board.pick_field, board.pick_value) == ("boards[].id", "boards[].name", "ideas")
    stamp = next(i for i in best.steps[2].inputs if i.name == "timestamp")
    assert (stamp.from_field, stamp.pick_first) == ("notes[].ts", True)


def test_asking_for_the_things_a_list_is_named_for_ends_at_that_list(snap: Snapshot) -> None:
    """Asked to show notes (no write ordered): the list named ``notes[]`` answers, not a write about a
    note, whatever the search ranks first."""
    best = Planner(snap).plan("Show the notes of the board b-1").chains[0]
    assert [s.api for s in best.steps] == ["GET /boards.list", "GET /notes.history"]


def test_the_graph_s_light_readings_say_what_its_edges_say(snap: Snapshot) -> None:
    """What the planner reads instead of building an ``Edge`` per row (``list_producers``: each producer
    and list field once; ``links_out_of``, ``links_into``; ``consumers_of`` and ``list_links_out_of`` of
    many APIs at once) agrees with ``edge_links``, ``edges_out_of`` and ``edges_into``, on the snapshot and
    on a role's view of it; the lists feeding an input by kind (``SnapshotCache.listed_items``)."""
    keys = snap.all_api_keys()
    objects = sorted({snap.api_object(k) for k in keys})
    view = RoleView(snap, RolePolicy("one", RoleSettings(objects=objects[:1])))
    for reader in (snap, view):
        listed = sorted({(p, f) for p, _, f, _, _ in reader.edge_links() if "[]" in f})
        assert reader.list_producers() == listed
        consumers = {key: [e.consumer for e in reader.edges_out_of(key)] for key in keys}
        assert reader.consumers_of(keys) == consumers
        assert reader.list_links_out_of(keys) == {
            key: [
                (e.consumer, e.consumer_field, e.domain_type)
                for e in reader.edges_out_of(key)
                if "[]" in e.producer_field
            ]
            for key in keys
        }
        for key in keys:
            edges = reader.edges_out_of(key)
            assert reader.links_out_of(key) == [
                (e.consumer, e.producer_field, e.consumer_field, e.domain_type) for e in edges
            ]
            assert [(*link[:5], link.level) for link in reader.links_into(key)] == [
                (e.producer, e.producer_table, e.producer_field, e.consumer_table, e.consumer_field, e.level)
                for e in reader.edges_into(key)
            ]
    assert ("GET /boards.list", "boards[].id") in snap.list_producers()
    assert sum(len(snap.links_out_of(k)) for k in keys) == len(snap.edge_links()) > 0
    lists = SnapshotCache(snap).listed_items()
    assert lists == {"board": {"GET /boards.list"}, "note": {"GET /notes.history"}}
