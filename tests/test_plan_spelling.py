"""Misspelt request words are read as the catalog word one edit away (the search's typo fallback);
stated values and the words the planner knows are left alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from apiatlas.catalog.model import Api, BusinessObject, Catalog
from apiatlas.planning.relevance import known_words
from apiatlas.planning.retrieval import PlanSearch
from apiatlas.search.typos import one_edit
from apiatlas.snapshot import Snapshot, write_snapshot
from plan_catalogs import media_vocabulary


def test_one_edit_covers_a_swap_a_change_an_insertion_and_a_deletion() -> None:
    assert one_edit("bitrhday", "birthday")
    assert one_edit("episod", "episode") and one_edit("reveiw", "review")
    assert not one_edit("revue", "review") and not one_edit("weiver", "review")
    assert one_edit("reviev", "review") and one_edit("revieew", "review")
    assert not one_edit("birthday", "birthday") and not one_edit("movie", "people")


@pytest.fixture(scope="module")
def people(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    catalog = Catalog(source_kind="test")
    api = Api(key="GET /person/{person_id}/images", object_key="person", title="Get person images")
    catalog.apis[api.key] = api
    catalog.objects["person"] = BusinessObject(key="person", title="Person", api_keys=[api.key])
    catalog.stats["vocabulary"] = media_vocabulary().model_dump()  # "birthday" is one of its words
    out: Path = tmp_path_factory.mktemp("spelling") / "people.atlas"
    write_snapshot(catalog, out, options={"source": "test"})
    return Snapshot.open(out)


def test_misspelt_words_are_corrected_but_not_stated_values(people: Snapshot) -> None:
    search, known = PlanSearch(people), frozenset(known_words(media_vocabulary()))
    text = "When is the bitrhday of the lead actor of Imagess?"
    assert search.corrected(text, ["Imagess"], known) == "When is the birthday of the lead actor of Imagess?"
    assert search.corrected("show me the imgaes", [], known) == "show me the images"
    assert search.corrected("when did it start", [], known) == "when did it start"  # not "star"
