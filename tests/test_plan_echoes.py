"""Where an input's value comes from when a step hands back what it was given, and names said with the
catalog's own words around them — on an invented catalog in NESTFUL's format, compiled for real and planned
by the real planner, and on chains built by hand for the echo rule."""

from __future__ import annotations

import json

import pytest

from apiatlas.build import compile_docs
from apiatlas.planning.echoes import sourced
from apiatlas.planning.model import CandidateChain, InputSource, PlannedStep
from apiatlas.planning.planner import Planner, reads_only
from apiatlas.snapshot import Snapshot


def _step(api: str, *inputs: InputSource) -> PlannedStep:
    return PlannedStep(api=api, inputs=list(inputs))


def _fed(name: str, step: int, field: str) -> InputSource:
    return InputSource(name=name, origin="step", from_step=step, from_field=field, level="name_type")


def _chain(*steps: PlannedStep) -> CandidateChain:
    return CandidateChain(steps=list(steps), score=1.0, entry_point=steps[0].api, target=steps[-1].api,
                          confidence=1.0)  # fmt: skip


def test_an_echoed_field_is_read_where_it_was_found() -> None:
    search = _step("Shop_Search", InputSource(name="q", origin="request", value="Zorblax 9"))
    offers = _step("Shop_Offers", _fed("item_id", 0, "item_id"))
    reviews = _step("Shop_Reviews", _fed("item_id", 1, "item_id"))
    chain = sourced(_chain(search, offers, reviews))
    taken = chain.steps[2].inputs[0]
    assert (taken.from_step, taken.from_field) == (0, "item_id")
    assert chain.steps[1].inputs[0].from_step == 0  # the offers still read the search


def test_a_field_of_another_name_is_another_thing() -> None:
    """``id`` of a list of related artists is another artist than the ``artistId`` the list was read for."""
    find = _step("Music_Artist_By_Name", InputSource(name="name", origin="request", value="Zed"))
    related = _step("Music_Related", _fed("artistId", 0, "artist_id"))
    overview = _step("Music_Overview", _fed("artistId", 1, "items[].id"))
    chain = sourced(_chain(find, related, overview))
    assert (chain.steps[2].inputs[0].from_step, chain.steps[2].inputs[0].from_field) == (1, "items[].id")


def test_the_own_id_of_nested_rows_is_another_thing_of_the_same_name() -> None:
    """``items[].id`` of the related artists is each related artist's own ``id``, not the ``id`` the list
    was read for, though the names match."""
    find = _step("Music_Artist_By_Name", InputSource(name="name", origin="request", value="Zed"))
    related = _step("Music_Related", _fed("id", 0, "id"))
    overview = _step("Music_Overview", _fed("id", 1, "items[].id"))
    chain = sourced(_chain(find, related, overview))
    assert (chain.steps[2].inputs[0].from_step, chain.steps[2].inputs[0].from_field) == (1, "items[].id")
    echo = _step("Music_Echo", _fed("id", 1, "id"))  # a top-level id handed back is the one given
    assert sourced(_chain(find, related, echo)).steps[2].inputs[0].from_step == 0


def test_an_input_the_step_took_from_the_request_stays_with_the_step() -> None:
    offers = _step("Shop_Offers", InputSource(name="item_id", origin="request", value="B0123"))
    reviews = _step("Shop_Reviews", _fed("item_id", 0, "item_id"))
    chain = sourced(_chain(offers, reviews))
    assert chain.steps[1].inputs[0].from_step == 0


SPEC = [
    {
        "name": "Picto_Search_User",
        "description": "Retrieve the list of accounts with the user name on Picto.",
        "method": "GET", "endpoint": "/search", "host": "picto.example.com",
        "query_parameters": {"search_query": {"type": "string", "required": True,
                                              "description": "The name of a Picto user."}},
        "output_parameters": {"username": {"type": "string"}, "full_name": {"type": "string"}},
    },
    {
        "name": "Picto_Posts",
        "description": "Retrieve the list of posts for a Picto user.",
        "method": "GET", "endpoint": "/posts", "host": "picto.example.com",
        "query_parameters": {"username": {"type": "string", "required": True,
                                          "description": "A username of the account."}},
        "output_parameters": {"caption": {"type": "string"}, "like_count": {"type": "number"}},
    },
]  # fmt: skip


@pytest.fixture(scope="module")
def planner(tmp_path_factory: pytest.TempPathFactory) -> Planner:
    root = tmp_path_factory.mktemp("echoes")
    spec, out = root / "spec.json", root / "echoes.atlas"
    spec.write_text(json.dumps(SPEC), encoding="utf-8")
    compile_docs(spec, overlays_dir=None, config_path=None, out=out, write_report=False, embeddings="none")
    return Planner(Snapshot.open(out), allow=reads_only)


@pytest.mark.parametrize(
    "request_text",
    ["Show the posts of Jane Roe on Picto.", "Find Jane Roe on Picto and show her posts."],
)
def test_the_catalog_words_around_a_name_are_no_part_of_it(planner: Planner, request_text: str) -> None:
    top = planner.plan(request_text).chains[0]
    assert top.api_keys == ["Picto_Search_User", "Picto_Posts"]
    assert [(s.name, s.value) for s in top.steps[0].inputs] == [("search_query", "Jane Roe")]


@pytest.mark.parametrize(
    "request_text",
    ["Show the posts of Jane Roe on the Picto.", "Show the posts of Users of the Jane Roe."],
)
def test_a_name_stripped_of_catalog_words_keeps_no_link_word(planner: Planner, request_text: str) -> None:
    """The links between the name and the catalog's words go with the catalog's words ("on the")."""
    top = planner.plan(request_text).chains[0]
    assert [(s.name, s.value) for s in top.steps[0].inputs] == [("search_query", "Jane Roe")]
