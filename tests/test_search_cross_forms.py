"""Request words across scripts that the request's stems alone lose: a borrowed noun stemmed as a
preposition («подов», «пода»: a pod's forms, stemmed «под»), a preposition that governs no word of its
script («удали под web-1»), two read words the catalog writes as one («конфиг мапы»: configmap); and
the bridge's catalog words embedded as the request's words are (e5 "query: ")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from apiatlas.catalog.model import Catalog
from apiatlas.search import HybridSearch
from apiatlas.search.bridge import AsQueries, declined_function_stems
from apiatlas.text import stem, words
from search_catalog import http_catalog, hybrid_search

OPERATIONS = [
    ("GET /pods", "pods", "List pods", "Lists all pods of a namespace."),
    ("DELETE /pods/{name}", "pods", "Delete pod", "Deletes a pod."),
    ("GET /pods/{name}/log", "pods", "Read pod log", "Reads the log of a pod's container."),
    ("GET /serviceaccounts", "serviceaccounts", "List ServiceAccount", "Lists the serviceaccounts."),
    ("POST /serviceaccounts", "serviceaccounts", "Create ServiceAccount", "Creates a serviceaccount."),
    ("GET /services", "services", "List Service", "Lists the services of a namespace."),
    ("GET /configmaps", "configmaps", "List ConfigMap", "Lists the configmaps of a namespace."),
    ("GET /secrets", "secrets", "List Secret", "Lists the secrets of a namespace."),
    ("GET /events", "events", "List Event", "Lists the events of a namespace."),
    ("POST /namespaces", "namespaces", "Create Namespace", "Creates a namespace."),
    ("GET /persistentvolumes", "persistentvolumes", "List persistentvolumes", "Lists the persistentvolumes."),
    ("GET /persistentvolumeclaims", "persistentvolumeclaims", "List persistentvolumeclaims", "Lists them."),
]


def pods_catalog() -> Catalog:
    return http_catalog((key, obj, title, text, ["name"]) for key, obj, title, text in OPERATIONS)


@pytest.fixture(scope="module")
def search(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HybridSearch]:
    yield from hybrid_search(pods_catalog(), tmp_path_factory.mktemp("forms") / "pods.atlas")


def test_a_declined_word_of_a_prepositions_stem_is_a_word() -> None:
    """Prepositions do not decline: «подов» is no «под»; a preposition before a name in another script,
    a number or nothing governs nothing; before a word of its own script it stays a preposition."""
    assert declined_function_stems(words("список подов в неймспейсе shop")) == ["под"]
    assert declined_function_stems(words("удали под web-1")) == ["под"]
    assert declined_function_stems(words("покажи логи пода")) == ["под"]
    assert declined_function_stems(words("папка под столом")) == []
    assert declined_function_stems(words("отчёт для бухгалтерии за май")) == []


def test_the_forms_of_a_borrowed_noun_read_as_the_catalogs_word(search: HybridSearch) -> None:
    for text, gold in (("список подов", "GET /pods"), ("удали под web-1", "DELETE /pods/{name}")):
        found = search.search(text)
        assert not found.abstained, (text, found.confidence)
        assert found.hits[0].api_key == gold, (text, [h.api_key for h in found.hits[:3]])
        assert "pod" in found.hits[0].matched


def test_a_preposition_before_its_own_scripts_word_reads_as_nothing(search: HybridSearch) -> None:
    read = search.across.read(words("под столом"), ["стол"], {}, allowed=True)
    assert "под" not in read.bridged and read.extra == []


def test_two_read_words_the_catalog_writes_as_one(search: HybridSearch) -> None:
    said = words("конфиг мапы")
    read = search.across.read(said, [stem(w) for w in said], {}, allowed=True)
    assert read.read == ["config", "map"]  # as the catalog spells them
    assert "configmap" in search.word_forms().compounds(read.read)  # searched as the catalog's one word
    found = search.search("покажи конфиг мапы")
    assert found.hits[0].api_key == "GET /configmaps", [h.api_key for h in found.hits[:3]]
    assert found.hits[0].matched == ["config", "map"]  # the compound stands for the words it joins


def test_three_words_the_catalog_writes_as_one(search: HybridSearch) -> None:
    """A path segment joining three words ("persistentvolumeclaims") is found by the three words."""
    said = words("persistent volume claims")
    whole = stem("persistentvolumeclaims")
    assert search.word_forms().compounds(said) == {whole: ("persistentvolumeclaims", [stem(w) for w in said])}
    # the two words inside the three are not read apart ("persistentvolumes"), only without the third
    assert set(search.word_forms().compounds(words("persistent volumes"))) == {stem("persistentvolumes")}
    found = search.search("persistent volume claims")
    assert found.hits[0].api_key == "GET /persistentvolumeclaims", [h.api_key for h in found.hits[:3]]
    assert found.hits[0].matched == [stem(w) for w in said]


def test_the_bridge_embeds_the_catalogs_words_as_queries(search: HybridSearch) -> None:
    """Word against word: both sides with e5's "query: " prefix, cached apart from the card vectors."""
    bridge = search.across.bridge()
    assert bridge is not None and search.provider is not None
    wrapped = AsQueries(search.provider)
    assert wrapped.model_id != search.provider.model_id
    row = bridge._catalog()[bridge.stems.index("pod")]
    as_query = search.provider.embed_queries(["pod"])[0]
    as_passage = search.provider.embed_passages(["pod"])[0]
    # stored as int8 (the card vectors' blobs): close to the query's vector, not to the passage's
    assert float(row @ as_query) > 0.95 and float(row @ as_query) > float(row @ as_passage) + 0.02
    assert np.isclose(np.linalg.norm(row), 1.0, atol=0.05)


def test_a_request_whose_only_foreign_word_is_a_declined_one_is_alien(search: HybridSearch) -> None:
    """«под 5», «подов»: the request's one Cyrillic word is stemmed as a preposition and so left out of its
    content stems; read across as "pod", it still is a word in another script than the catalog's, which
    the out-of-reach rule leaves to the model (``search.reach``) rather than weighing its words."""
    for text in ("под 5", "подов"):
        found = search.search(text)
        assert found.signals["alien"] == 1.0, (text, found.signals)
        assert not found.abstained, (text, found.confidence, found.signals)
        assert found.hits[0].api_key in ("GET /pods", "DELETE /pods/{name}"), text


def test_a_cache_that_cannot_be_written_leaves_the_bridge_working(
    search: HybridSearch, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bridge embeds the catalog's words at search time: a cache directory it cannot create (a
    read-only home, a path under a file) costs the cache, not the search."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("APIATLAS_CACHE", str(blocker / "cache"))
    fresh = HybridSearch(search.snapshot, search.provider)
    found = fresh.search("список подов")
    assert not found.abstained and found.hits[0].api_key == "GET /pods", found.confidence


def test_another_form_of_a_function_word_is_no_declined_noun(search: HybridSearch) -> None:
    """«подо мной», «обо всём», «надо удалить»: a preposition's euphonic form (and a pronoun's case) stems
    as the function word too, but is that word, not a borrowed noun's form («подов»)."""
    for text in ("покажи логи подо мной", "расскажи обо всём", "надо удалить"):
        assert declined_function_stems(words(text)) == [], text
    assert search.across.read(words("покажи логи подо мной"), ["лог"], {}, allowed=True).extra == []
    assert declined_function_stems(words("список этих подов")) == ["под"]  # the noun's form still is one


def test_a_pronoun_at_the_end_of_a_request_is_no_word(search: HybridSearch) -> None:
    """Only a preposition governs a word of its script: a pronoun closing a request («покажи поды нам»,
    «удали его») is the pronoun, which the bridge must not read as a catalog word («нам» as "name")."""
    for text in ("покажи нам", "удали его", "удали у них", "покажи всё"):
        assert declined_function_stems(words(text)) == [], text
    assert declined_function_stems(words("покажи поды нам")) == ["под"]  # «поды»: the noun's form
    read = search.across.read(words("покажи поды нам"), ["показ"], {}, allowed=True)
    assert "нам" not in read.bridged and read.extra == ["под"], read
    assert declined_function_stems(words("удали под web-1")) == ["под"]  # a preposition still is
