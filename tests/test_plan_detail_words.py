"""Words asking for everything about one thing (issue 18, chains): a catalog says one of them ("info",
"Retrieve information about …"); a request's word it never says ("details") is read as those it does,
and a catalog that says "details" keeps it as it is. A real compile of a small spec."""

from __future__ import annotations

import pytest

from apiatlas.planning.detail_words import detail_expansions
from apiatlas.planning.planner import Planner
from apiatlas.snapshot import Snapshot
from test_plan_members import _of, _op
from test_rest_loose_ids import compiled_spec

NOTE = "{type: object, properties: {id: {type: string}, name: {type: string}, text: {type: string}}}"
NOTES = _of("notes", "{type: array, items: " + NOTE + "}")
SPEC = "openapi: 3.0.0\ninfo: {title: Notes, version: '1'}\npaths:\n" + "".join(
    [
        _op("/notes.list", "get", "Lists the notes of a board", [], NOTES),
        _op("/notes.info", "get", "Retrieve information about a note", [("note", True)], _of("note", NOTE)),
        _op("/notes.history", "get", "Fetches the past versions of a note", [("note", True)], NOTES),
    ]
)  # fmt: skip


def test_a_detail_word_the_catalog_never_says_reads_as_those_it_says() -> None:
    names = [("GET /notes.info", "Retrieve information about a note")]
    assert detail_expansions(names)["details"] == "info information"
    assert "details" not in detail_expansions([("Get_Note_Details", "")])  # said: kept as it is
    assert "detail" not in detail_expansions([("Get_Note_Details", "")])  # nor a word of its stem
    assert detail_expansions([("GET /notes", "List notes")]) == {}  # the catalog says none of them


@pytest.fixture(scope="module")
def notes(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "detail_words_notes", SPEC)


def test_details_about_a_thing_end_at_its_information_read(notes: Snapshot) -> None:
    result = Planner(notes).plan("Show details about the note standup")
    assert result.chains and result.chains[0].api_keys[-1] == "GET /notes.info"
