"""Words a catalog writes with a hyphen after a reversing prefix (issue 18, chains): "Unstar the note
standup" against a write titled "Un-stars a note" ends at that write; a name after "of" and the newest
thing asked is where that thing is. A real compile of a small spec."""

from __future__ import annotations

import pytest

from apiatlas.language.catalog import CatalogVocabulary
from apiatlas.planning.actions import action_verb
from apiatlas.planning.planner import Planner
from apiatlas.planning.prefixed import prefixed_verbs, prefixed_words, with_prefixed
from apiatlas.planning.said_names import bare_names
from apiatlas.snapshot import Snapshot
from test_plan_members import OK, _of, _op
from test_rest_loose_ids import compiled_spec

NOTE = "{type: object, properties: {id: {type: string}, name: {type: string}}}"
SPEC = "openapi: 3.0.0\ninfo: {title: Notes, version: '1'}\npaths:\n" + "".join(
    [
        _op("/notes.list", "get", "Lists the notes", [], _of("notes", "{type: array, items: " + NOTE + "}")),
        _op("/stars.add", "post", "Stars a note.", [("note", True)], OK),
        _op("/stars.remove", "post", "Un-stars a note.", [("note", True)], OK),
        _op("/stars.list", "get", "Lists stars", [], _of("notes", "{type: array, items: " + NOTE + "}")),
    ]
)  # fmt: skip


def test_a_prefixed_word_is_read_as_its_parts_and_a_write_title_says_its_verb() -> None:
    assert prefixed_words(["Un-stars a note.", "Re-sends a mail", "Stars a note"]) == {
        "unstars": "un stars", "unstar": "un stars"
    }  # fmt: skip
    names = [("POST /stars.remove", "Un-stars a note."), ("GET /x", "Un-stars shown"), ("POST /a", "Stars")]
    assert prefixed_verbs(names) == {"unstar"}  # a read's title says no write verb
    vocabulary = with_prefixed(CatalogVocabulary(kinds=["note"]), ["Un-stars a note."])
    assert vocabulary.expansion("unstar") == "un stars"
    assert action_verb("Unstar the note standup", lambda: frozenset({"unstar"})) == "unstar"


@pytest.fixture(scope="module")
def notes(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "prefixed_notes", SPEC)


def test_a_request_unsaying_a_catalog_verb_ends_at_the_write_titled_with_it(notes: Snapshot) -> None:
    result = Planner(notes, allow=None).plan("Unstar the note standup")
    assert result.chains and result.chains[0].api_keys[-1] == "POST /stars.remove"
    assert result.targets == ["POST /stars.remove"]  # not the star's add, nor a read


def test_a_name_after_of_the_newest_thing_asked_is_where_it_is() -> None:
    vocabulary = CatalogVocabulary(kinds=["channel"], named_inputs=["channel"])
    found = bare_names("Pin the most recent message of announcements", vocabulary, [], frozenset())
    assert [(f.value, f.hint) for f in found] == [("announcements", "")]
    assert bare_names("Pin the text of announcements", vocabulary, [], frozenset()) == []  # no newest thing
