"""HTTP responses as rows: list envelopes vs records, bodies cut at the cap, Retry-After, status codes."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from apiatlas.catalog.model import Api, Column, Direction, ExecutorBinding, SessionTable
from apiatlas.errors import ReasonCode
from apiatlas.executors.base import ExecutionLimits
from apiatlas.executors.http_response import (
    Body,
    error_text,
    parse_body,
    reason_for_status,
    retry_after_s,
    row_sets,
    salvage_json,
    tables_of,
)

MOVIE = {
    "id": 550,
    "title": "Fight Club",
    "runtime": 139,
    "budget": 63000000,
    "status": "Released",
    "tagline": "Mischief. Mayhem. Soap.",
    "vote_average": 8.4,
    "genres": [{"id": 18, "name": "Drama"}],
}


def test_a_list_envelope_gives_one_row_per_item_and_a_record_one_row() -> None:
    page = {"page": 2, "results": [{"id": 1, "tags": ["a"]}, {"id": 2, "tags": []}], "total_pages": 9}
    [(key, rows)] = row_sets(page)
    assert key == "results"
    assert rows == [
        {"page": 2, "total_pages": 9, "results[].id": 1, "results[].tags[]": ["a"]},
        {"page": 2, "total_pages": 9, "results[].id": 2, "results[].tags[]": []},
    ]
    [(key, [movie])] = row_sets(MOVIE, ["genres"])  # many fields of its own: a record, genres as lists
    assert key == "" and movie["title"] == "Fight Club" and movie["genres[].name"] == ["Drama"]
    assert row_sets([{"id": 1}, {"id": 2}]) == [("", [{"[].id": 1}, {"[].id": 2}])]
    assert row_sets({"value": 3}) == [("", [{"value": 3}])]


def test_documented_columns_pick_the_row_array_and_name_the_table() -> None:
    api = Api(
        key="GET /person/{id}/credits",
        object_key="person",
        executor=ExecutorBinding(kind="http", target="GET /person/{id}/credits"),
        output_tables=[
            SessionTable(
                name="response",
                direction=Direction.OUT,
                columns=[Column(name="id"), Column(name="crew[].job"), Column(name="cast[].Title")],
            )
        ],
    )
    data = {"id": 7, "cast": [{"title": "A"}, {"title": "B"}], "crew": [{"job": "Director"}]}
    main, crew = tables_of(api, data, ExecutionLimits(max_rows=1), cut=False)
    # crew is named first among the documented arrays, so it holds the main rows
    assert (main.name, main.columns) == ("response", ["id", "crew[].job"])
    assert main.rows == [{"id": 7, "crew[].job": "Director"}] and not main.truncated
    assert crew.name == "response.cast" and crew.columns == ["cast[].Title"]  # the documented spelling
    assert crew.row_count == 1 and crew.truncated  # max_rows=1 of 2


def test_a_body_cut_at_the_cap_keeps_its_complete_items() -> None:
    text = json.dumps({"page": 1, "results": [{"id": i, "name": f"n{i}"} for i in range(50)], "total": 50})
    cut = text[: len(text) // 2]
    salvaged = salvage_json(cut)
    assert salvaged["page"] == 1 and "total" not in salvaged
    ids = [r["id"] for r in salvaged["results"]]
    assert ids == list(range(len(ids))) and 0 < len(ids) < 50
    listed = salvage_json(json.dumps(list(range(100)))[:50])
    assert listed == list(range(len(listed))) and len(listed) > 5
    assert salvage_json('{"a": "unterminated') is None
    data, whole = parse_body(Body(cut.encode(), cut=True, content_type="application/json"))
    assert not whole and data == salvaged
    data, whole = parse_body(Body(b"plain words", cut=False, content_type="text/plain"))
    assert (data, whole) == ({"text": "plain words"}, True)
    assert parse_body(Body(b"", cut=False, content_type="application/json")) == (None, True)


def test_retry_after_and_the_upstreams_own_error_message() -> None:
    assert retry_after_s("120") == 120.0
    later = format_datetime(datetime.now(UTC) + timedelta(seconds=90), usegmt=True)
    assert 60 < (retry_after_s(later) or 0) <= 90
    assert retry_after_s("soon") is None and retry_after_s(None) is None
    body = Body(b'{"error": {"message": "No such customer", "type": "invalid_request_error"}}', False, "json")
    assert error_text(body) == "No such customer"
    assert error_text(Body(b"<html>Bad Gateway</html>", False, "text/html")) == "<html>Bad Gateway</html>"


@pytest.mark.parametrize(
    ("status", "path_params", "reason"),
    [
        (404, True, ReasonCode.ENTITY_NOT_RESOLVED),
        (404, False, ReasonCode.NO_MATCH),
        (401, False, ReasonCode.UPSTREAM_AUTH_FAILED),
        (403, True, ReasonCode.UPSTREAM_AUTH_FAILED),
        (429, False, ReasonCode.UPSTREAM_UNAVAILABLE),
        (503, False, ReasonCode.UPSTREAM_UNAVAILABLE),
        (422, False, ReasonCode.INVALID_ARGUMENT),
        (504, False, ReasonCode.TIMEOUT),
        (500, False, ReasonCode.TOOL_EXECUTION_ERROR),
        (502, True, ReasonCode.TOOL_EXECUTION_ERROR),
    ],
)
def test_statuses_map_to_reason_codes(status: int, path_params: bool, reason: ReasonCode) -> None:
    assert reason_for_status(status, path_params) is reason
