"""Russian change verbs over an English catalog: multilingual-e5-small reads «переименуй» nearer "remove"
than "rename" and «заархивируй» under the bridge's cosine; the language's lexicon of change verbs
(``language.actions.CHANGE_VERBS_EN``, which the planner reads too) reads them as the English verb when the
catalog's names say it. Requests about nothing of the catalog still abstain."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from apiatlas.search import HybridSearch
from apiatlas.text import content_terms, query_terms, stem, words
from search_catalog import http_catalog, hybrid_search

OPERATIONS = [
    ("POST /chat.postMessage", "chat", "Sends a message to a channel.", ["channel", "text"]),
    ("POST /chat.delete", "chat", "Deletes a message.", ["channel", "ts"]),
    ("POST /chat.update", "chat", "Updates a message.", ["channel", "ts", "text"]),
    ("GET /conversations.list", "conversations", "Lists all channels in a workspace.", ["limit"]),
    ("POST /conversations.archive", "conversations", "Archives a conversation.", ["channel"]),
    ("POST /conversations.rename", "conversations", "Renames a conversation.", ["channel", "name"]),
    ("POST /conversations.kick", "conversations", "Removes a user from a conversation.", ["channel", "user"]),
    ("POST /conversations.create", "conversations", "Initiates a public or private channel.", ["name"]),
    ("GET /conversations.history", "conversations", "Fetches a conversation's history of messages.", []),
    ("GET /conversations.members", "conversations", "Retrieve members of a conversation.", ["channel"]),
    ("GET /users.list", "users", "Lists all users in a workspace.", ["limit"]),
    ("GET /users.info", "users", "Gets information about a user.", ["user"]),
    ("GET /users.lookupByEmail", "users", "Find a user with an email address.", ["email"]),
    ("GET /users.getPresence", "users", "Gets user presence information.", ["user"]),
    ("POST /files.upload", "files", "Uploads or creates a file.", ["channels", "file"]),
    ("GET /files.list", "files", "List for a team, in a channel, or from a user with filters.", ["channel"]),
    ("POST /files.delete", "files", "Deletes a file.", ["file"]),
    ("POST /reminders.add", "reminders", "Creates a reminder.", ["text", "time"]),
    ("GET /reminders.list", "reminders", "Lists all reminders created by or for a given user.", []),
    ("POST /reactions.add", "reactions", "Adds a reaction to an item.", ["name", "timestamp"]),
    ("POST /pins.add", "pins", "Pins an item to a channel.", ["channel"]),
    ("GET /emoji.list", "emoji", "Lists custom emoji for a team.", []),
    ("POST /dnd.setSnooze", "dnd", "Turns on Do Not Disturb mode for the current user.", ["num_minutes"]),
    ("GET /team.info", "team", "Gets information about the current team.", []),
    ("GET /team.accessLogs", "team", "Gets the access logs for the current team.", []),
    ("POST /admin.users.invite", "admin", "Invite a user to a workspace.", ["email"]),
    ("POST /admin.users.remove", "admin", "Remove a user from a workspace.", ["user"]),
    ("GET /admin.users.list", "admin", "List users on a workspace.", []),
    ("POST /usergroups.create", "usergroups", "Create a User Group.", ["name"]),
    ("GET /bots.info", "bots", "Gets information about a bot user.", ["bot"]),
]


@pytest.fixture(scope="module")
def search(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HybridSearch]:
    catalog = http_catalog((key, obj, title, title, params) for key, obj, title, params in OPERATIONS)
    yield from hybrid_search(catalog, tmp_path_factory.mktemp("verbs") / "chat.atlas")


def _read(search: HybridSearch, request: str) -> dict[str, str]:
    said, terms = words(request), content_terms(query_terms(request))
    return search.across.read(said, terms, search.actions().requested(said), allowed=True).bridged


def test_a_russian_change_verb_reads_as_the_english_verb_the_catalog_writes(search: HybridSearch) -> None:
    """«переименуй», «заархивируй» read as the catalog's "rename", "archive"; a verb whose English word the
    catalog's names do not say («масштабируй»: scale) reads as nothing."""
    assert _read(search, "переименуй канал dev")[stem("переименуй")] == "renam"
    assert _read(search, "заархивируй канал old")[stem("заархивируй")] == "archiv"
    assert stem("масштабируй") not in _read(search, "масштабируй канал")


@pytest.mark.parametrize(
    ("request_text", "gold"),
    [
        ("переименуй канал dev-chat в engineering", "POST /conversations.rename"),
        ("заархивируй канал old-news", "POST /conversations.archive"),
    ],
)
def test_a_request_with_a_change_verb_finds_the_write_it_names(
    search: HybridSearch, request_text: str, gold: str
) -> None:
    found = search.search(request_text)
    assert not found.abstained and found.hits[0].api_key == gold
    verb = request_text.split()[0]
    assert verb in found.hits[0].why


@pytest.mark.parametrize(
    "request_text", ["закажи пиццу с грибами", "вызови такси до вокзала", "купи билет на поезд до Казани"]
)
def test_a_request_about_nothing_of_the_catalog_still_abstains(
    search: HybridSearch, request_text: str
) -> None:
    assert search.search(request_text).abstained
