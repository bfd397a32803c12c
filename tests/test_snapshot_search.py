"""Search over a snapshot: stemmed FTS5 (Russian and English), identifier splitting, exact key first."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from apiatlas.catalog.model import Api
from apiatlas.snapshot import Snapshot, write_snapshot
from apiatlas.text import distinct_stems, query_terms, stems, words
from test_snapshot_catalog import mini_catalog


@pytest.fixture()
def snap(tmp_path: Path) -> Iterator[Snapshot]:
    cat = mini_catalog()
    for key, title in [
        ("API_Card_FindListByAccID", "Карты по счёту"),
        ("API_Rep_Turnover", "Обороты счетов"),
    ]:
        cat.apis[key] = Api(key=key, object_key="Acc", title=title)
    path = tmp_path / "bank.atlas"
    write_snapshot(cat, path, options={})
    s = Snapshot.open(path)
    yield s
    s.close()


def test_words_split_identifiers_and_fold_yo() -> None:
    assert words("API_Prs_FindListByFIO") == ["api", "prs", "findlistbyfio", "find", "list", "by", "fio"]
    assert words("Счёт") == ["счет"]
    assert words("DSec pAPI_Account_OwnerID a") == [
        "dsec",
        "sec",
        "papi",
        "api",
        "account",
        "ownerid",
        "owner",
        "id",
        "a",
    ]
    assert stems("счета") == stems("счёт") == stems("счетов")


def test_russian_stemming_finds_all_forms(snap: Snapshot) -> None:
    keys = [h.api_key for h in snap.search("счета", limit=20)]
    # "Счёт" (GetRest), "счетов" (Card/Rep titles), "счета" in descriptions
    for key in [
        "API_Acc_GetRest",
        "API_Card_FindListByAccID",
        "API_Rep_Turnover",
        "API_Acc_FindListByListOwnerID",
    ]:
        assert key in keys
    assert "API_Acc_Close" not in keys  # dropped by the funnel
    assert "API_Old_Find" not in keys


def test_hits_say_which_terms_matched(snap: Snapshot) -> None:
    hits = snap.search("сделки по счетам")
    top = {h.api_key: h for h in hits}
    assert "API_DSec_FindListIDByAccID" in top
    assert set(top["API_DSec_FindListIDByAccID"].matched) >= set(query_terms("счетам"))
    assert hits[0].score >= hits[-1].score


def test_exact_key_comes_first_even_lower_case(snap: Snapshot) -> None:
    hits = snap.search("api_acc_getrest")
    assert hits[0].api_key == "API_Acc_GetRest"
    assert hits[0].exact
    assert hits[0].title == "Остаток по счёту"


def test_camel_case_parts_are_searchable(snap: Snapshot) -> None:
    keys = [h.api_key for h in snap.search("FindListByFIO")]
    assert keys[0] == "API_Prs_FindListByFIO"
    assert "API_DealSecurity_FindListByID" in [h.api_key for h in snap.search("deal security")]


def test_object_filter_and_limit(snap: Snapshot) -> None:
    hits = snap.search("счета", object_key="DSec")
    assert hits and all(h.object_key == "DSec" for h in hits)
    assert len(snap.search("счета", limit=2)) == 2


def test_no_match_and_empty_query(snap: Snapshot) -> None:
    assert snap.search("квазар") == []
    assert snap.search("  ,  ") == []
    assert snap.search('"') == []


def test_british_and_american_spellings_share_a_stem(tmp_path: Path) -> None:
    pairs = [
        ("theatres", "theaters"), ("colour", "color"), ("favourites", "favorites"), ("catalogue", "catalog"),
        ("analyse", "analyze"), ("licence", "license"), ("cancelled", "canceled"), ("centre", "center"),
        ("organisation", "organization"), ("fibre", "fiber"),
    ]  # fmt: skip
    for british, american in pairs:
        assert stems(british) == stems(american), british
    # words that only look British keep their own stems
    for word, other in [("timbre", "timber"), ("hour", "hor"), ("promise", "promize"), ("vogue", "vog")]:
        assert stems(word) != stems(other), word
    cat = mini_catalog()
    cat.apis["GET /movie/now_playing"] = Api(
        key="GET /movie/now_playing",
        object_key="Acc",
        title="Get Now Playing",
        description="Movies in theatres now.",
    )
    path = tmp_path / "films.atlas"
    write_snapshot(cat, path, options={})
    with Snapshot.open(path) as films:
        assert films.search("movies showing in theaters")[0].api_key == "GET /movie/now_playing"


def test_distinct_stems_are_the_stems_of_every_text() -> None:
    keys = ["GET /accounts/{account_id}/Operations", "API_Prs_FindListByFIO", "Счёт_Клиента", "GET /accounts"]
    assert distinct_stems(keys) == {s for key in keys for s in stems(key)}
    assert distinct_stems([]) == set()
