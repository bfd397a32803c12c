"""A request in a script the catalog does not write (Russian over an English spec) is judged by its
meaning: its words are neither known nor unknown to the catalog, so it ranks instead of abstaining,
and a request the catalog does not serve still abstains."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from apiatlas.catalog.model import Catalog
from apiatlas.search import HybridSearch
from apiatlas.search.scripts import CatalogScripts, script_of
from apiatlas.text import stem
from search_catalog import http_catalog, hybrid_search

OPERATIONS = [
    ("POST /chat.postMessage", "chat", "Sends a message to a channel.", ["channel", "text"]),
    ("POST /chat.delete", "chat", "Deletes a message.", ["channel", "ts"]),
    ("GET /conversations.list", "conversations", "Lists all channels in a workspace.", ["limit"]),
    ("POST /conversations.archive", "conversations", "Archives a conversation.", ["channel"]),
    ("POST /conversations.create", "conversations", "Initiates a public or private channel.", ["name"]),
    ("GET /conversations.history", "conversations", "Fetches a conversation's history of messages.", []),
    ("GET /users.list", "users", "Lists all users in a workspace.", ["limit"]),
    ("GET /users.lookupByEmail", "users", "Find a user with an email address.", ["email"]),
    ("POST /files.upload", "files", "Uploads or creates a file.", ["channels", "file"]),
    ("POST /reminders.add", "reminders", "Creates a reminder.", ["text", "time"]),
    ("POST /reactions.add", "reactions", "Adds a reaction to an item.", ["name", "timestamp"]),
    ("POST /pins.add", "pins", "Pins an item to a channel.", ["channel"]),
]


def english_catalog() -> Catalog:
    return http_catalog((key, obj, title, title, params) for key, obj, title, params in OPERATIONS)


@pytest.fixture(scope="module")
def search(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HybridSearch]:
    yield from hybrid_search(english_catalog(), tmp_path_factory.mktemp("cross") / "english.atlas")


def test_the_scripts_of_words_and_of_a_catalog() -> None:
    assert [script_of(w) for w in ("канал", "channel", "42", "κανάλι")] == ["CYRILLIC", "LATIN", "", "GREEK"]
    english = CatalogScripts({"channel": 12, "messag": 30, "42": 3})
    assert english.foreign(["отправ", "сообщен", "general", "42"]) == ["отправ", "сообщен"]
    both = CatalogScripts({"счет": 40, "клиент": 50, "api": 9, "findbyid": 3})  # a Russian catalog's ids
    assert both.foreign(["счет", "find", "id"]) == []


@pytest.mark.parametrize(
    ("request_text", "gold"),
    [
        ("отправь сообщение в канал", "POST /chat.postMessage"),
        ("список всех пользователей", "GET /users.list"),
        ("покажи историю сообщений", "GET /conversations.history"),
    ],
)
def test_a_russian_request_over_an_english_catalog_is_answered(
    search: HybridSearch, request_text: str, gold: str
) -> None:
    found = search.search(request_text)
    assert not found.abstained, found.confidence
    assert gold in [h.api_key for h in found.hits[:3]]
    # none of its words reads as unknown to the catalog: read across, or left out of the word signals
    assert found.signals["unknown"] == 0.0


def test_russian_words_read_as_the_catalogs_words_of_the_same_meaning(search: HybridSearch) -> None:
    bridge = search.across.bridge()
    assert bridge is not None
    read = bridge.translate(["канал", "историю", "пиццу", "такси"])
    assert read == {
        stem("канал"): "channel",
        stem("историю"): "histori",
    }  # no catalog word means a pizza or a taxi
    found = search.search("покажи историю сообщений")
    assert "histori" in found.hits[0].matched and "историю" in found.hits[0].why


def test_the_bridge_reads_into_words_not_identifiers(search: HybridSearch) -> None:
    """An identifier counts as its parts (``postMessage``: post, message), and each stem is embedded as the
    catalog spells it ("history", not its stem "histori")."""
    bridge = search.across.bridge()
    assert bridge is not None
    assert "postmessag" not in bridge.stems and {"post", "messag"} <= set(bridge.stems)
    spelt = dict(zip(bridge.stems, bridge.words, strict=True))
    assert spelt["histori"] == "history" and spelt["messag"] == "message"


def test_read_by_its_words_alone_the_russian_request_abstains(search: HybridSearch) -> None:
    """What the search did before: each Russian word unknown to the catalog, the hybrid model abstains."""
    original = search.across.scripts()
    search.across._scripts = CatalogScripts({})  # a catalog that writes every script: nothing foreign
    try:
        found = search.search("отправь сообщение в канал")
    finally:
        search.across._scripts = original
    assert found.signals["unknown"] > 0.9 and found.judged_as is None
    assert found.abstained


@pytest.mark.parametrize("request_text", ["order a large pepperoni pizza", "закажи пиццу с грибами"])
def test_an_unrelated_request_still_abstains(search: HybridSearch, request_text: str) -> None:
    found = search.search(request_text)
    assert found.abstained and found.hits == [], found.confidence


def test_a_word_borrowed_from_the_catalogs_reads_as_it(search: HybridSearch) -> None:
    """«юзеров», «файлы»: English words written in Cyrillic and declined, read as the catalog's own words
    (``language.transliteration``) whatever the embedding model makes of them."""
    bridge = search.across.bridge()
    assert bridge is not None
    assert bridge.translate(["юзеров", "файлы", "пиццу"]) == {stem("юзеров"): "user", stem("файлы"): "file"}
    found = search.search("список юзеров")
    assert not found.abstained and found.hits[0].api_key == "GET /users.list"
    assert "user" in found.hits[0].matched
