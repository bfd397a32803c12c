"""Russian words over an English catalog that multilingual-e5-small reads only weakly word by word: a change
verb of the language's lexicon read as its English verb («переименуй»: rename), and a word read in the
context of the whole request (its nearest few catalog stems, the one naming the first card the model
ranks for the request: «эмодзи» emoji, «беспокоить» disturb); requests about nothing of the catalog
still abstain."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from apiatlas.search import HybridSearch
from apiatlas.search.bridge import CONTEXT_SHARE
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
    yield from hybrid_search(catalog, tmp_path_factory.mktemp("context") / "chat.atlas")


def _read(search: HybridSearch, request: str, in_context: bool) -> dict[str, str]:
    said, terms = words(request), content_terms(query_terms(request))
    asked = search.actions().requested(said)
    vector = search.embed_query(request)
    context = (lambda: search._named_by_meaning(vector, None)) if in_context else None
    return search.across.read(said, terms, asked, allowed=True, context=context).bridged


def test_a_russian_change_verb_reads_as_the_english_verb_the_catalog_writes(search: HybridSearch) -> None:
    """«переименуй», «заархивируй»: the language's change verbs (``language.actions.CHANGE_VERBS_EN``) read
    as the catalog's "rename", "archive" (the model reads «переименуй» nearer "remove"); a verb whose
    English word the catalog does not write («масштабируй»: scale) reads as nothing."""
    assert _read(search, "переименуй канал dev", in_context=False)[stem("переименуй")] == "renam"
    assert _read(search, "заархивируй канал old", in_context=False)[stem("заархивируй")] == "archiv"
    assert stem("масштабируй") not in _read(search, "масштабируй канал", in_context=False)
    found = search.search("переименуй канал dev")
    assert not found.abstained and found.hits[0].api_key == "POST /conversations.rename"


@pytest.mark.parametrize(
    ("request_text", "read", "gold"),
    [
        ("список наших кастомных эмодзи", {"кастомных": "custom", "эмодзи": "emoji"}, "GET /emoji.list"),
        ("включи режим не беспокоить на час", {"беспокоить": "disturb"}, "POST /dnd.setSnooze"),
    ],
)
def test_a_word_the_model_reads_weakly_is_read_in_the_context_of_the_request(
    search: HybridSearch, request_text: str, read: dict[str, str], gold: str
) -> None:
    """Word by word these words stay under ``BRIDGE_COSINE``; their counterpart is among their nearest
    stems and names the card the model ranks first for the whole request: they read as it, and the
    request is searched with those words."""
    alone = _read(search, request_text, in_context=False)
    assert not {stem(w) for w in read} & set(alone)
    together = _read(search, request_text, in_context=True)
    assert {w: together.get(stem(w)) for w in read} == read
    found = search.search(request_text)
    assert not found.abstained and found.hits[0].api_key == gold
    assert set(read.values()) <= set(found.hits[0].matched)


@pytest.mark.parametrize(
    "request_text", ["закажи пиццу с грибами", "вызови такси до вокзала", "купи билет на поезд до Казани"]
)
def test_a_request_about_nothing_of_the_catalog_reads_nothing_in_context(
    search: HybridSearch, request_text: str
) -> None:
    """The model ranks no card above the catalog's null for these: no context, no word read in it."""
    assert _read(search, request_text, in_context=True) == _read(search, request_text, in_context=False)
    assert search.search(request_text).abstained


def test_a_stem_most_names_say_is_not_read_in_context(search: HybridSearch) -> None:
    """A stem naming more than ``CONTEXT_SHARE`` of the APIs ("list", "user": 5 and 6 of 30) names the
    first card by chance: no word is read as it in context; "emoji" names one."""
    bridge = search.across.bridge()
    assert bridge is not None and CONTEXT_SHARE * len(OPERATIONS) < 5
    assert "list" not in bridge.rare and "user" not in bridge.rare
    assert {"emoji", "disturb", "custom"} <= bridge.rare
